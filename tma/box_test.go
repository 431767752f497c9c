package tma

import (
	"fmt"
	"reflect"
	"testing"
)

// runs collects a box's pieces as compact strings: "g+OFF>sOFF:N" for
// in-bounds pieces (global offset from Base, shared offset, bytes) and
// "oob>sOFF:N" for filled ones.
func runs(m Map, coords [5]int32, dst uint32) []string {
	var out []string
	it := m.BoxRuns(coords, dst)
	for r, ok := it.Next(); ok; r, ok = it.Next() {
		if r.InBounds {
			out = append(out, fmt.Sprintf("g+%d>s%d:%d", r.Global-m.Base, r.Smem, r.Bytes))
		} else {
			out = append(out, fmt.Sprintf("oob>s%d:%d", r.Smem, r.Bytes))
		}
	}
	return out
}

func TestBoxGeometry(t *testing.T) {
	const base = 0x10000
	m1 := Map{DType: F32, Rank: 1, Base: base, Dims: [5]uint64{10}, Box: [5]uint32{8}, ElemStrides: [5]uint32{1}}
	m2 := Map{DType: F16, Rank: 2, Base: base, Dims: [5]uint64{20, 3}, Strides: [4]uint64{64}, Box: [5]uint32{8, 2}, ElemStrides: [5]uint32{1, 1}}
	m3 := Map{DType: U8, Rank: 3, Base: base, Dims: [5]uint64{16, 2, 2}, Strides: [4]uint64{16, 32}, Box: [5]uint32{16, 2, 2}, ElemStrides: [5]uint32{1, 1, 1}}
	m4 := Map{DType: U8, Rank: 4, Base: base, Dims: [5]uint64{32, 4, 1, 2}, Strides: [4]uint64{32, 128, 128}, Box: [5]uint32{16, 4, 1, 2}, ElemStrides: [5]uint32{1, 2, 1, 1}}
	m5 := Map{DType: F64, Rank: 5, Base: base, Dims: [5]uint64{2, 1, 1, 1, 3}, Strides: [4]uint64{16, 16, 16, 16}, Box: [5]uint32{2, 1, 1, 1, 4}, ElemStrides: [5]uint32{1, 1, 1, 1, 2}}
	tests := []struct {
		name   string
		m      Map
		coords [5]int32
		want   []string
	}{
		{"1-D inside", m1, [5]int32{1}, []string{"g+4>s0:32"}},
		{"1-D past the end: 8 of 10 from element 4", m1, [5]int32{4}, []string{"g+16>s0:24", "oob>s24:8"}},
		{"1-D negative origin", m1, [5]int32{-2}, []string{"oob>s0:8", "g+0>s8:24"}},
		{"1-D wholly before the tensor", m1, [5]int32{-100}, []string{"oob>s0:32"}},
		{"2-D rows follow the stride", m2, [5]int32{0, 1}, []string{"g+64>s0:16", "g+128>s16:16"}},
		{"2-D last row past the end", m2, [5]int32{8, 2}, []string{"g+144>s0:16", "oob>s16:16"}},
		{"2-D negative row and column", m2, [5]int32{-4, -1}, []string{"oob>s0:16", "oob>s16:8", "g+0>s24:8"}},
		{"2-D cut on both sides of a row", Map{DType: F16, Rank: 2, Base: base, Dims: [5]uint64{4, 1}, Strides: [4]uint64{16},
			Box: [5]uint32{8, 1}, ElemStrides: [5]uint32{1, 1}}, [5]int32{-2, 0}, []string{"oob>s0:4", "g+0>s4:8", "oob>s12:4"}},
		{"3-D", m3, [5]int32{0, 1, 0}, []string{"g+16>s0:16", "oob>s16:16", "g+48>s32:16", "oob>s48:16"}},
		{"4-D with element stride 2 in dimension 1", m4, [5]int32{8, 0, 0, 0},
			[]string{"g+8>s0:16", "g+72>s16:16", "g+136>s32:16", "g+200>s48:16"}},
		{"5-D with element stride 2 in dimension 4", m5, [5]int32{0, 0, 0, 0, 1}, []string{"g+16>s0:16", "oob>s16:16"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := runs(tt.m, tt.coords, 0); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

// Swizzle tables: where the 16-byte chunk c of box row r lands (in chunk
// units) for rows of the span's width, destination aligned to the repeat.
func TestSwizzlePatterns(t *testing.T) {
	tests := []struct {
		s    Swizzle
		want [8][8]uint32 // [row][chunk] → chunk index within the row
	}{
		{Swizzle128B, [8][8]uint32{
			{0, 1, 2, 3, 4, 5, 6, 7}, {1, 0, 3, 2, 5, 4, 7, 6}, {2, 3, 0, 1, 6, 7, 4, 5}, {3, 2, 1, 0, 7, 6, 5, 4},
			{4, 5, 6, 7, 0, 1, 2, 3}, {5, 4, 7, 6, 1, 0, 3, 2}, {6, 7, 4, 5, 2, 3, 0, 1}, {7, 6, 5, 4, 3, 2, 1, 0}}},
		{Swizzle64B, [8][8]uint32{ // 4 chunks per row; the pattern changes every other row
			{0, 1, 2, 3}, {0, 1, 2, 3}, {1, 0, 3, 2}, {1, 0, 3, 2}, {2, 3, 0, 1}, {2, 3, 0, 1}, {3, 2, 1, 0}, {3, 2, 1, 0}}},
		{Swizzle32B, [8][8]uint32{ // 2 chunks per row; the pattern changes every fourth row
			{0, 1}, {0, 1}, {0, 1}, {0, 1}, {1, 0}, {1, 0}, {1, 0}, {1, 0}}},
	}
	for _, tt := range tests {
		t.Run(tt.s.String(), func(t *testing.T) {
			span := uint32(tt.s.Span())
			for r := uint32(0); r < 8; r++ {
				for c := uint32(0); c < span/16; c++ {
					off := tt.s.Apply(r*span + c*16)
					if off/span != r || (off%span)/16 != tt.want[r][c] {
						t.Errorf("row %d chunk %d: got offset %d (row %d chunk %d), want chunk %d",
							r, c, off, off/span, (off%span)/16, tt.want[r][c])
					}
				}
			}
			if got := tt.s.Apply(uint32(tt.s.Repeat()) + 5*16 + 3); got != uint32(tt.s.Repeat())+tt.s.Apply(5*16+3) {
				t.Errorf("pattern does not repeat every %d bytes", tt.s.Repeat())
			}
		})
	}
}

func TestSwizzledBoxSplitsAtChunks(t *testing.T) {
	m := Map{DType: F16, Rank: 2, Base: 0, Dims: [5]uint64{64, 2}, Strides: [4]uint64{128},
		Box: [5]uint32{64, 2}, ElemStrides: [5]uint32{1, 1}, Swizzle: Swizzle128B}
	got := runs(m, [5]int32{-4, 0}, 1024)
	want := []string{ // row 0 is unswizzled; the first 8 bytes are outside the tensor
		"oob>s1024:8", "g+0>s1032:8", "g+8>s1040:16", "g+24>s1056:16", "g+40>s1072:16",
		"g+56>s1088:16", "g+72>s1104:16", "g+88>s1120:16", "g+104>s1136:16",
		// row 1: chunks swap in pairs (XOR 1)
		"oob>s1168:8", "g+128>s1176:8", "g+136>s1152:16", "g+152>s1200:16", "g+168>s1184:16",
		"g+184>s1232:16", "g+200>s1216:16", "g+216>s1264:16", "g+232>s1248:16",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
