package tma

import (
	"errors"
	"strings"
	"testing"
)

func TestEncodeDecodeRoundTrip(t *testing.T) {
	maps := []Map{
		{DType: F16, Rank: 2, Base: 0x7000_0000_0000, Dims: [5]uint64{8192, 16384}, Strides: [4]uint64{16384},
			Box: [5]uint32{64, 64}, ElemStrides: [5]uint32{1, 1}},
		{DType: BF16, Rank: 5, Base: 1 << 40, Dims: [5]uint64{64, 3, 5, 7, 1 << 32}, Strides: [4]uint64{128, 384, 1920, 13440},
			Box: [5]uint32{64, 3, 5, 7, 256}, ElemStrides: [5]uint32{8, 2, 3, 1, 8}, Swizzle: Swizzle128B,
			L2Promotion: L2Promotion256B, OOBFill: OOBNaN},
		{DType: U8, Rank: 1, Dims: [5]uint64{1}, Box: [5]uint32{16}, ElemStrides: [5]uint32{1}, Swizzle: Swizzle32B},
		{DType: F64, Rank: 3, Base: 32, Dims: [5]uint64{4, 4, 4}, Strides: [4]uint64{32, 128},
			Box: [5]uint32{4, 4, 4}, ElemStrides: [5]uint32{1, 1, 1}, Interleave: Interleave32B, Swizzle: Swizzle32B},
	}
	for _, m := range maps {
		b, err := m.Encode()
		if err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		got, err := Decode(b[:])
		if err != nil || got != m {
			t.Errorf("round trip:\n got  %+v, %v\n want %+v", got, err, m)
		}
	}
}

func TestDecodeRejectsForeignBytes(t *testing.T) {
	good, _ := Map{DType: F16, Rank: 1, Dims: [5]uint64{64}, Box: [5]uint32{64}, ElemStrides: [5]uint32{1}}.Encode()
	tests := []struct {
		name string
		mod  func(b []byte) []byte
		msg  string
	}{
		{"short", func(b []byte) []byte { return b[:64] }, "64 bytes, want 128"},
		{"a real CUtensorMap", func(b []byte) []byte { b[0] = 0x11; return b }, "bad magic"},
		{"future version", func(b []byte) []byte { b[4] = 9; return b }, "version 9"},
		{"reserved byte set", func(b []byte) []byte { b[120] = 1; return b }, "reserved"},
		{"rank 0", func(b []byte) []byte { b[7] = 0; return b }, "Rank"},
		{"box 0", func(b []byte) []byte { b[96] = 0; return b }, "Box[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good
			_, err := Decode(tt.mod(b[:]))
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got %v, want an error containing %q", err, tt.msg)
			}
		})
	}
}

// A 64x64 fp16 box is 128 bytes wide: more than the 64B swizzle span. The
// driver refuses such a map when it is encoded, and so does Encode.
func TestEdge53_SwizzleSpanExceededRejectedAtEncode(t *testing.T) {
	tests := []struct {
		name    string
		box0    uint32
		swizzle Swizzle
		ok      bool
	}{
		{"256 inner bytes with 128B swizzle", 128, Swizzle128B, false},
		{"128 inner bytes with 64B swizzle", 64, Swizzle64B, false},
		{"64 inner bytes with 32B swizzle", 32, Swizzle32B, false},
		{"128 inner bytes with 128B swizzle", 64, Swizzle128B, true},
		{"32 inner bytes with 128B swizzle", 16, Swizzle128B, true},
		{"256 inner bytes without swizzle", 128, SwizzleNone, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := Map{DType: F16, Rank: 2, Dims: [5]uint64{1024, 64}, Strides: [4]uint64{2048},
				Box: [5]uint32{tt.box0, 64}, ElemStrides: [5]uint32{1, 1}, Swizzle: tt.swizzle}
			_, err := m.Encode()
			var fe *FieldError
			if tt.ok {
				if err != nil {
					t.Errorf("got %v, want success", err)
				}
				return
			}
			if !errors.As(err, &fe) || fe.Field != "Swizzle" || !strings.Contains(err.Error(), "§4 #53") {
				t.Errorf("got %v, want a Swizzle *FieldError citing §4 #53", err)
			}
		})
	}
}
