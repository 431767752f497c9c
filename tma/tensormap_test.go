package tma

import (
	"errors"
	"testing"
)

func validMap() Map {
	return Map{DType: F16, Rank: 3, Base: 0x1000, Dims: [5]uint64{64, 64, 4}, Strides: [4]uint64{128, 8192},
		Box: [5]uint32{64, 32, 2}, ElemStrides: [5]uint32{1, 1, 1}, Swizzle: Swizzle128B}
}

// Every limit of cuTensorMapEncodeTiled that Validate enforces (§2.3, §2.7).
func TestValidateEveryDriverLimit(t *testing.T) {
	tests := []struct {
		name  string
		mod   func(m *Map)
		field string // "" = valid
	}{
		{"valid map", func(*Map) {}, ""},
		{"unknown element type", func(m *Map) { m.DType = numDTypes }, "DType"},
		{"rank 0", func(m *Map) { m.Rank = 0 }, "Rank"},
		{"rank 6", func(m *Map) { m.Rank = 6 }, "Rank"},
		{"interleave needs rank 3", func(m *Map) { m.Rank, m.Interleave, m.Swizzle = 2, Interleave16B, SwizzleNone }, "Rank"},
		{"unknown interleave", func(m *Map) { m.Interleave = 3 }, "Interleave"},
		{"unknown swizzle", func(m *Map) { m.Swizzle = 4 }, "Swizzle"},
		{"unknown L2 promotion", func(m *Map) { m.L2Promotion = 4 }, "L2Promotion"},
		{"unknown OOB fill", func(m *Map) { m.OOBFill = 2 }, "OOBFill"},
		{"base not 16-byte aligned", func(m *Map) { m.Base = 0x1008 }, "Base"},
		{"base not 32-byte aligned with 32B interleave", func(m *Map) { m.Base, m.Interleave, m.Swizzle = 0x1010, Interleave32B, Swizzle32B }, "Base"},
		{"dimension 0", func(m *Map) { m.Dims[1] = 0 }, "Dims[1]"},
		{"dimension above 2^32", func(m *Map) { m.Dims[2] = 1<<32 + 1 }, "Dims[2]"},
		{"dimension 2^32 is allowed", func(m *Map) { m.Dims[2] = 1 << 32 }, ""},
		{"stride not a multiple of 16", func(m *Map) { m.Strides[0] = 136 }, "Strides[0]"},
		{"stride not a multiple of 32 with 32B interleave", func(m *Map) { m.Strides[1], m.Interleave, m.Swizzle = 8208, Interleave32B, Swizzle32B }, "Strides[1]"},
		{"stride 2^40", func(m *Map) { m.Strides[1] = 1 << 40 }, "Strides[1]"},
		{"stride just below 2^40", func(m *Map) { m.Strides[1] = 1<<40 - 16 }, ""},
		{"box 0", func(m *Map) { m.Box[1] = 0 }, "Box[1]"},
		{"box 257", func(m *Map) { m.Box[2] = 257 }, "Box[2]"},
		{"box 256 is allowed", func(m *Map) { m.Box[2] = 256 }, ""},
		{"element stride 0", func(m *Map) { m.ElemStrides[1] = 0 }, "ElemStrides[1]"},
		{"element stride 9", func(m *Map) { m.ElemStrides[2] = 9 }, "ElemStrides[2]"},
		{"inner box bytes not a multiple of 16", func(m *Map) { m.Box[0] = 12 }, "Box[0]"},
		{"32B interleave needs 32B swizzle", func(m *Map) { m.Interleave = Interleave32B }, "Swizzle"},
		{"inner box above the swizzle span (§4 #53)", func(m *Map) { m.Swizzle = Swizzle64B }, "Swizzle"},
		{"NaN fill of an integer map", func(m *Map) { m.DType, m.OOBFill = U16, OOBNaN }, "OOBFill"},
		{"NaN fill of a float map", func(m *Map) { m.OOBFill = OOBNaN }, ""},
		{"entries past the rank are ignored", func(m *Map) { m.Box[4], m.Dims[4], m.ElemStrides[4] = 999, 0, 99 }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := validMap()
			tt.mod(&m)
			err := m.Validate()
			if tt.field == "" {
				if err != nil {
					t.Errorf("got %v, want valid", err)
				}
				return
			}
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field {
				t.Errorf("got %v, want a *FieldError for %s", err, tt.field)
			}
		})
	}
}

func TestBoxBytesAndRows(t *testing.T) {
	tests := []struct {
		name  string
		m     Map
		bytes uint32
		rows  int
	}{
		{"64x64 fp16", Map{DType: F16, Rank: 2, Box: [5]uint32{64, 64}, ElemStrides: [5]uint32{1, 1}}, 8192, 64},
		{"element stride 3 over 8 rows moves 3 rows", Map{DType: F32, Rank: 2, Box: [5]uint32{8, 8}, ElemStrides: [5]uint32{1, 3}}, 96, 3},
		{"dimension-0 element stride is ignored", Map{DType: F32, Rank: 2, Box: [5]uint32{8, 4}, ElemStrides: [5]uint32{4, 1}}, 128, 4},
		{"rank 5", Map{DType: U8, Rank: 5, Box: [5]uint32{16, 2, 3, 4, 5}, ElemStrides: [5]uint32{1, 1, 2, 1, 5}}, 16 * 2 * 2 * 4 * 1, 16},
		{"rank 1", Map{DType: F64, Rank: 1, Box: [5]uint32{256}, ElemStrides: [5]uint32{1}}, 2048, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if b, r := tt.m.BoxBytes(), tt.m.Rows(); b != tt.bytes || r != tt.rows {
				t.Errorf("got %d bytes in %d rows, want %d in %d", b, r, tt.bytes, tt.rows)
			}
		})
	}
}

func TestDTypes(t *testing.T) {
	for d := DType(0); d < numDTypes; d++ {
		if got, ok := ParseDType(d.String()); !ok || got != d {
			t.Errorf("%v does not parse back", d)
		}
		if d.Size() == 0 || d.Type().Bytes() != d.Size() {
			t.Errorf("%v: size %d, PTX type %v", d, d.Size(), d.Type())
		}
	}
	if F16.Float() != true || S32.Float() != false {
		t.Error("Float")
	}
}
