package tma

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMapSpecGood(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want MapSpec
	}{
		{"microbench tensor: packed strides by default",
			"tensormap:f16,8192x16384,box=64x64",
			MapSpec{Fill: "zero", Map: Map{DType: F16, Rank: 2, Dims: [5]uint64{8192, 16384}, Strides: [4]uint64{16384},
				Box: [5]uint32{64, 64}, ElemStrides: [5]uint32{1, 1}}}},
		{"every option",
			"tensormap:bf16,64x32x4,box=64x8x2,stride=256x8192,estride=1x2x1,swizzle=128B,oob=nan,l2=128B,buf=A",
			MapSpec{Buf: "A", Fill: "zero", Map: Map{DType: BF16, Rank: 3, Dims: [5]uint64{64, 32, 4}, Strides: [4]uint64{256, 8192},
				Box: [5]uint32{64, 8, 2}, ElemStrides: [5]uint32{1, 2, 1}, Swizzle: Swizzle128B, OOBFill: OOBNaN, L2Promotion: L2Promotion128B}}},
		{"without the prefix, with a fill",
			"u8,100x3,box=16x3,fill=random:7",
			MapSpec{Fill: "random:7", Map: Map{DType: U8, Rank: 2, Dims: [5]uint64{100, 3}, Strides: [4]uint64{112},
				Box: [5]uint32{16, 3}, ElemStrides: [5]uint32{1, 1}}}},
		{"rank 1",
			"tensormap:f32,1000,box=256,swizzle=none",
			MapSpec{Fill: "zero", Map: Map{DType: F32, Rank: 1, Dims: [5]uint64{1000}, Box: [5]uint32{256}, ElemStrides: [5]uint32{1}}}},
		{"rank 5, case-insensitive modes",
			"tensormap:F64,2x2x2x2x2,box=2x2x2x2x2,swizzle=32b",
			MapSpec{Fill: "zero", Map: Map{DType: F64, Rank: 5, Dims: [5]uint64{2, 2, 2, 2, 2}, Strides: [4]uint64{16, 32, 64, 128},
				Box: [5]uint32{2, 2, 2, 2, 2}, ElemStrides: [5]uint32{1, 1, 1, 1, 1}, Swizzle: Swizzle32B}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseMapSpec(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseMapSpecBad(t *testing.T) {
	tests := []struct {
		name, in, field, msg string
	}{
		{"too few parts", "tensormap:f16,64x64", "tensormap", "want DTYPE"},
		{"unknown type", "tensormap:f8,64x64,box=8x8", "dtype", "unknown element type"},
		{"rank 6", "tensormap:f16,1x1x1x1x1x1,box=8x1x1x1x1x1", "dims", "1 to 5 values"},
		{"dimension not a number", "tensormap:f16,64xA,box=8x8", "dims", `"A" is not`},
		{"box missing", "tensormap:f16,64x64,swizzle=128B", "box", "missing"},
		{"box of the wrong rank", "tensormap:f16,64x64,box=8", "box", "want 2 values"},
		{"stride count", "tensormap:f16,64x64x2,box=8x8x1,stride=128", "stride", "want 2 values"},
		{"stride on rank 1", "tensormap:f16,64,box=8,stride=128", "stride", "no strides"},
		{"unknown swizzle", "tensormap:f16,64x64,box=8x8,swizzle=256B", "swizzle", "not one of none 32B 64B 128B"},
		{"unknown oob", "tensormap:f16,64x64,box=8x8,oob=inf", "oob", "not one of zero nan"},
		{"unknown key", "tensormap:f16,64x64,box=8x8,pad=1", "pad", "unknown key"},
		{"no value", "tensormap:f16,64x64,box=8x8,swizzle", "swizzle", "KEY=VALUE"},
		{"key twice", "tensormap:f16,64x64,box=8x8,box=8x8", "box", "given twice"},
		{"buf and fill", "tensormap:f16,64x64,box=8x8,buf=A,fill=seq", "fill", "exclude"},
		{"driver limit: inner box bytes", "tensormap:f16,64x64,box=4x8", "Box[0]", "not a multiple of 16"},
		{"driver limit: box above 256", "tensormap:u8,1024x4,box=512x4", "Box[0]", "outside 1..256"},
		{"driver limit: stride", "tensormap:f16,64x64,box=8x8,stride=100", "Strides[0]", "multiple of 16"},
		{"driver limit: swizzle span", "tensormap:f16,256x64,box=128x8,swizzle=128B", "Swizzle", "span"},
		{"driver limit: NaN fill of an integer map", "tensormap:s32,64x64,box=8x8,oob=nan", "OOBFill", "floating-point"},
		{"packed extent past 2^64", "tensormap:u8,4294967296x4294967296x4294967296,box=16x1x1", "dims",
			"spans more than 2^64 bytes (dimension 1: 4294967296 elements 4294967296 bytes apart)"},
		{"packed 2-D extent of exactly 2^64", "tensormap:u8,4294967296x4294967296,box=16x1", "dims", "spans more than 2^64 bytes"},
		{"5-D extent past 2^64", "tensormap:f64,4294967296x4294967296x4294967296x4294967296x4294967296,box=2x1x1x1x1", "dims", "spans more than 2^64 bytes"},
		{"given strides, extent past 2^64", "tensormap:u8,4294967296x4294967296,box=16x1,stride=1099511627760", "dims",
			"(dimension 1: 4294967296 elements 1099511627760 bytes apart)"},
		{"packed stride at 2^40", "tensormap:u8,1048576x1048576x2,box=16x1x1", "dims", "stride of 1099511627776 bytes, not below 2^40"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMapSpec(tt.in)
			var fe *FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("got %v, want a *FieldError", err)
			}
			if fe.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got field %q, message %q; want field %q and %q", fe.Field, err, tt.field, tt.msg)
			}
		})
	}
}

// The largest tensors the driver's limits allow still fit in 64 bits.
func TestParseMapSpecLargestExtentFits(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"2^32 rows of 2^32 bytes less one", "tensormap:u8,4294967296x4294967295,box=16x1"},
		{"stride just below 2^40 times 2^24", "tensormap:u8,64x64x16777216,box=16x1x1,stride=64x1099511627760"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseMapSpec(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if n, ok := s.Map.Extent(); !ok || n == 0 || n != s.AllocBytes() {
				t.Errorf("Extent: got %d, %v; AllocBytes %d", n, ok, s.AllocBytes())
			}
		})
	}
}

func TestMapSpecBinding(t *testing.T) {
	s, err := ParseMapSpec("tensormap:f16,8192x16384,box=64x64")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.AllocBytes(); got != 256<<20 {
		t.Errorf("AllocBytes: got %d, want 256 MiB", got)
	}
	m, err := s.WithBase(0x7000_0000_0000)
	if err != nil || m.Base != 0x7000_0000_0000 {
		t.Errorf("WithBase: got %#x, %v", m.Base, err)
	}
	if _, err := s.WithBase(0x7000_0000_0008); err == nil || !strings.Contains(err.Error(), "Base") {
		t.Errorf("misaligned base: got %v, want an error naming Base", err)
	}
}

// A key the user spelled with a newline stays on the message's one line.
func TestSpecErrorQuotesUnprintableField(t *testing.T) {
	_, err := ParseMapSpec("f32,0,\n")
	if err == nil {
		t.Fatal("want an error")
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, `"\n"`) {
		t.Errorf("error %q: want the field quoted on one line", msg)
	}
}
