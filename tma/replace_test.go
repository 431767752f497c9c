package tma

import (
	"strings"
	"testing"
)

func TestReplaceWritesEachField(t *testing.T) {
	base := Map{DType: F16, Rank: 2, Base: gbase, Dims: [5]uint64{64, 32}, Strides: [4]uint64{128},
		Box: [5]uint32{16, 8}, ElemStrides: [5]uint32{1, 1}}
	tests := []struct {
		f    Field
		ord  int
		v    uint64
		edit func(m *Map)
	}{
		{FieldGlobalAddress, 0, gbase + 4096, func(m *Map) { m.Base = gbase + 4096 }},
		{FieldGlobalDim, 1, 48, func(m *Map) { m.Dims[1] = 48 }},
		{FieldGlobalStride, 0, 256, func(m *Map) { m.Strides[0] = 256 }},
		{FieldBoxDim, 0, 32, func(m *Map) { m.Box[0] = 32 }},
		{FieldElementStride, 1, 2, func(m *Map) { m.ElemStrides[1] = 2 }},
		{FieldElemType, 0, 10, func(m *Map) { m.DType = BF16 }}, // the ISA's 10 is .bf16 (the driver's 9)
		{FieldElemType, 0, 8, func(m *Map) { m.DType = F32FTZ }},
		{FieldElemType, 0, 9, func(m *Map) { m.DType = F64 }},
		{FieldSwizzle, 0, 1, func(m *Map) { m.Swizzle = Swizzle32B }},
		{FieldFillMode, 0, 1, func(m *Map) { m.OOBFill = OOBNaN }},
		{FieldInterleave, 0, 0, func(m *Map) {}},
	}
	for _, tt := range tests {
		enc, err := base.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if err := Replace(enc[:], tt.f, tt.ord, tt.v); err != nil {
			t.Fatalf("%s[%d] = %d: %v", tt.f, tt.ord, tt.v, err)
		}
		got, err := Decode(enc[:])
		if err != nil {
			t.Fatalf("%s[%d] = %d: decode: %v", tt.f, tt.ord, tt.v, err)
		}
		want := base
		tt.edit(&want)
		if got != want {
			t.Errorf("%s[%d] = %d:\n got %+v\nwant %+v", tt.f, tt.ord, tt.v, got, want)
		}
	}
}

// A rank raised before the new dimension is set is a map in between: the
// replace writes it, a copy through it would be refused, and the fields
// that follow make it valid again.
func TestReplaceThroughAnInvalidMap(t *testing.T) {
	m := Map{DType: U32, Rank: 1, Base: gbase, Dims: [5]uint64{64}, Box: [5]uint32{16}, ElemStrides: [5]uint32{1}}
	enc, err := m.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := Replace(enc[:], FieldRank, 0, 1); err != nil { // rank 2
		t.Fatal(err)
	}
	if _, err := Decode(enc[:]); err == nil || !strings.Contains(err.Error(), "Dims[1]") {
		t.Errorf("rank 2 with no second dimension: got %v, want a Dims[1] error", err)
	}
	for _, r := range []struct {
		f   Field
		ord int
		v   uint64
	}{{FieldGlobalDim, 1, 4}, {FieldGlobalStride, 0, 256}, {FieldBoxDim, 1, 4}, {FieldElementStride, 1, 1}} {
		if err := Replace(enc[:], r.f, r.ord, r.v); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Decode(enc[:])
	if err != nil {
		t.Fatal(err)
	}
	if got.Rank != 2 || got.Dims[1] != 4 || got.Strides[0] != 256 || got.Box[1] != 4 {
		t.Errorf("got %+v", got)
	}
}

func TestReplaceRejections(t *testing.T) {
	m := Map{DType: U32, Rank: 1, Base: gbase, Dims: [5]uint64{64}, Box: [5]uint32{16}, ElemStrides: [5]uint32{1}}
	enc, _ := m.Encode()
	tests := []struct {
		f    Field
		ord  int
		v    uint64
		want string
	}{
		{FieldBoxDim, 5, 1, "ordinal 5 is outside 0..4"},
		{FieldGlobalStride, 4, 16, "ordinal 4 is outside 0..3"},
		{FieldBoxDim, 0, 70000, "does not fit the map"},
		{FieldElementStride, 0, 300, "does not fit the map"},
		{FieldElemType, 0, 13, "not one of the sm_90 element types"},
		{FieldSwizzle, 0, 4, "not a valid value (0..3)"},
		{FieldFillMode, 0, 2, "not a valid value (0..1)"},
	}
	for _, tt := range tests {
		b := enc
		if err := Replace(b[:], tt.f, tt.ord, tt.v); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s[%d] = %d: got %v, want %q", tt.f, tt.ord, tt.v, err, tt.want)
		}
	}
	var zero [MapBytes]byte
	if err := Replace(zero[:], FieldRank, 0, 0); err == nil || !strings.Contains(err.Error(), "not a tensor map built with --arg tensormap") {
		t.Errorf("zero bytes: got %v", err)
	}
}
