package warp

import "testing"

// The layouts against the PTX ISA's figures ("Register Fragments and Shared
// Memory Matrix Layouts" of wgmma); TestWgmmaMatchesH200 checks them on the
// H200's answers to every layout probe of wgmma_probe.cu.

func TestMatrixDescFields(t *testing.T) {
	for _, tc := range []struct {
		bits uint64
		want MatrixDesc
	}{
		{0x0000001000080200, MatrixDesc{Start: 0x2000, LBO: 128, SBO: 256}},
		{0x4000004000010200, MatrixDesc{Start: 0x2000, LBO: 16, SBO: 1024, Swizzle: 128}},
		{0x8002002000010220, MatrixDesc{Start: 0x2200, LBO: 16, SBO: 512, Base: 1, Swizzle: 64}},
		{0xc000001000010202, MatrixDesc{Start: 0x2020, LBO: 16, SBO: 256, Swizzle: 32}},
	} {
		if got := DecodeMatrixDesc(tc.bits); got != tc.want {
			t.Errorf("DecodeMatrixDesc(%#x) = %+v, want %+v", tc.bits, got, tc.want)
		}
		if got := EncodeMatrixDesc(tc.want); got != tc.bits {
			t.Errorf("EncodeMatrixDesc(%+v) = %#x, want %#x", tc.want, got, tc.bits)
		}
	}
}

func TestElemAddr(t *testing.T) {
	none := MatrixDesc{Start: 0x1000, LBO: 128, SBO: 256}
	sw128 := MatrixDesc{Start: 0x2000, LBO: 16, SBO: 1024, Swizzle: 128}
	sw64 := MatrixDesc{Start: 0x2000, LBO: 16, SBO: 512, Swizzle: 64}
	sw32 := MatrixDesc{Start: 0x2000, LBO: 16, SBO: 256, Swizzle: 32}
	mn := MatrixDesc{Start: 0x1000, LBO: 1024, SBO: 128}
	mn128 := MatrixDesc{Start: 0x2000, LBO: 2048, SBO: 1024, Swizzle: 128}
	for _, tc := range []struct {
		name      string
		d         MatrixDesc
		mn, k, sz int
		mnMajor   bool
		want      uint32
	}{
		// K-major core matrices: 8 rows of 16 bytes, LBO along K, SBO along M/N.
		{"no swizzle, first core matrix", none, 3, 5, 2, false, 0x1000 + 3*16 + 10},
		{"no swizzle, next along K (LBO)", none, 3, 13, 2, false, 0x1000 + 3*16 + 128 + 10},
		{"no swizzle, next 8 rows (SBO)", none, 11, 5, 2, false, 0x1000 + 256 + 3*16 + 10},
		// 128B swizzle: the 16-byte chunk index takes an exclusive or with
		// the row within the 1024-byte pattern.
		{"128B, row 0 chunk 1", sw128, 0, 8, 2, false, 0x2000 + 16},
		{"128B, row 3 chunk 1", sw128, 3, 8, 2, false, 0x2000 + 3*128 + (1^3)*16},
		{"128B, row 7 chunk 0", sw128, 7, 0, 2, false, 0x2000 + 7*128 + 7*16},
		{"128B, rows 8-15 (SBO)", sw128, 9, 8, 2, false, 0x2000 + 1024 + 128 + (1^1)*16},
		{"64B, row 5 chunk 1", sw64, 5, 8, 2, false, 0x2000 + 5*64 + (1^(5/2%4))*16},
		{"32B, row 2 chunk 1", sw32, 2, 8, 2, false, 0x2000 + 2*32 + (1^0)*16},
		{"32B, row 4 chunk 1", sw32, 4, 8, 2, false, 0x2000 + 4*32 + (1^1)*16},
		{"tf32 K-major", none, 1, 5, 4, false, 0x1000 + 16 + 128 + 4},
		// MN-major: 8 elements of M/N contiguous, K rows of 16 bytes.
		{"MN-major no swizzle", mn, 9, 3, 2, true, 0x1000 + 128 + 3*16 + 2},
		{"MN-major no swizzle, k 8-15 (LBO)", mn, 9, 11, 2, true, 0x1000 + 1024 + 128 + 3*16 + 2},
		{"MN-major 128B, k 8-15 (SBO)", mn128, 9, 11, 2, true, 0x2000 + 1024 + 3*128 + (1^3)*16 + 2},
	} {
		if got := tc.d.ElemAddr(tc.mn, tc.k, tc.sz, tc.mnMajor); got != tc.want {
			t.Errorf("%s: ElemAddr(%d, %d) = %#x, want %#x", tc.name, tc.mn, tc.k, got, tc.want)
		}
	}
}

func TestFragmentPositions(t *testing.T) {
	// D (the ISA's figure for .f32 accumulators): thread T of warp w holds
	// d0,d1 at row 16w + T/4, columns 2(T%4)+{0,1}; d2,d3 eight rows lower;
	// d4..d7 the same eight columns on.
	for _, tc := range []struct{ rank, lane, i, row, col int }{
		{0, 0, 0, 0, 0}, {0, 0, 1, 0, 1}, {0, 0, 2, 8, 0}, {0, 0, 3, 8, 1}, {0, 0, 4, 0, 8},
		{0, 5, 0, 1, 2}, {0, 31, 3, 15, 7}, {1, 0, 0, 16, 0}, {3, 31, 127, 63, 255},
	} {
		if r, c := AccPos(tc.rank, tc.lane, tc.i); r != tc.row || c != tc.col {
			t.Errorf("AccPos(%d, %d, %d) = (%d, %d), want (%d, %d)", tc.rank, tc.lane, tc.i, r, c, tc.row, tc.col)
		}
	}
	// A in registers (.f16): a0 row T/4 columns 2(T%4)+{0,1}, a1 eight rows
	// lower, a2 eight columns on, a3 both; .tf32 one element a register,
	// .e4m3 four.
	for _, tc := range []struct{ rank, lane, j, e, bits, row, col int }{
		{0, 0, 0, 0, 16, 0, 0}, {0, 0, 0, 1, 16, 0, 1}, {0, 6, 1, 0, 16, 9, 4}, {0, 6, 2, 1, 16, 1, 13},
		{2, 6, 3, 0, 16, 41, 12}, {0, 7, 2, 0, 32, 1, 7}, {0, 7, 1, 3, 8, 9, 15}, {0, 7, 3, 2, 8, 9, 30},
	} {
		if r, c := AFragPos(tc.rank, tc.lane, tc.j, tc.e, tc.bits); r != tc.row || c != tc.col {
			t.Errorf("AFragPos(%d, %d, %d, %d, %d) = (%d, %d), want (%d, %d)", tc.rank, tc.lane, tc.j, tc.e, tc.bits, r, c, tc.row, tc.col)
		}
	}
}

// TestAccSlotInvertsAccPos: every element of every lane of a warp's share of
// the largest accumulator is found again by AccSlot.
func TestAccSlotInvertsAccPos(t *testing.T) {
	for rank := 0; rank < 4; rank++ {
		for lane := 0; lane < Lanes; lane++ {
			for i := 0; i < MaxAccRegs; i++ {
				row, col := AccPos(rank, lane, i)
				if l, j := AccSlot(row-16*rank, col); l != lane || j != i {
					t.Fatalf("AccSlot(%d, %d) = (%d, %d), want (%d, %d)", row-16*rank, col, l, j, lane, i)
				}
			}
		}
	}
}
