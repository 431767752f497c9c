package warp

// fusedCols4AVX2 is fusedCols4Go with four columns in one AVX2 register
// (mma_run_amd64.s): a and ea point at row r of A and its exponents, b and
// eb at column col0 of B's rows (256 apart), k is K.
//
//go:noescape
func fusedCols4AVX2(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4)

// fusedCols4 runs fusedCols4Go's steps, packed where the host has AVX2.
func fusedCols4(a []float64, ea []int32, b []float64, eb []int32, bias int64, x *cols4) {
	if !hasAVX2 || len(a) == 0 {
		fusedCols4Go(a, ea, b, eb, bias, x)
		return
	}
	_ = b[256*(len(a)-1)+3] // the last row's four columns lie in b
	_ = eb[256*(len(a)-1)+3]
	_ = ea[len(a)-1]
	fusedCols4AVX2(&a[0], &ea[0], &b[0], &eb[0], len(a), bias, x)
}

// f32GroupAVX is fourColumns's work for an f32 accumulator whose sum keeps
// every fraction bit, four columns at once (mma_run_amd64.s): p0 and p1 are
// the slots of columns 0 and 1 (columns 2 and 3 follow each), bSpecial the
// columns' flags. It writes the columns it answers for and returns the
// others, with x as fusedCols4 leaves it.
//
//go:noescape
func f32GroupAVX(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4, p0, p1 *uint32,
	bSpecial *bool, fracBits int32, scaleD, special bool) (rest uint32)

// f32Group runs f32GroupAVX where the host has AVX2 and returns the columns
// left (all four without it, x untouched).
func f32Group(a []float64, ea []int32, b []float64, eb []int32, bias int64, x *cols4, p0, p1 *uint32,
	bSpecial []bool, fracBits int, scaleD, special bool) uint32 {
	if !hasAVX2 || len(a) == 0 {
		return 0xf
	}
	_ = b[256*(len(a)-1)+3] // the last row's four columns lie in b
	_ = eb[256*(len(a)-1)+3]
	_ = ea[len(a)-1]
	_ = bSpecial[3]
	return f32GroupAVX(&a[0], &ea[0], &b[0], &eb[0], len(a), bias, x, p0, p1, &bSpecial[0], int32(fracBits), scaleD, special)
}

// f32RowAVX is f32GroupAVX for every group of four columns of a row, from
// group 0's first slot p0 (mma_run_amd64.s). It writes the groups it
// answers for whole and returns the others (bit g: columns 4g to 4g+3),
// whose slots it leaves as they were.
//
//go:noescape
func f32RowAVX(a *float64, ea *int32, b *float64, eb *int32, k int, bias int64, x *cols4, p0 *uint32,
	bSpecial *bool, fracBits int32, scaleD, special bool, groups int) (left uint64)

// f32Row runs f32RowAVX over the N columns of row r (N a multiple of 8, at
// most 256) where the host has AVX2 and returns the groups left (all of them
// without it).
func (g *Wgmma) f32Row(p *MMANumerics, r int, a []float64, ae []int32) uint64 {
	groups := g.N / 4
	all := uint64(1)<<groups - 1
	if groups == 64 {
		all = ^uint64(0)
	}
	if !hasAVX2 || len(a) == 0 || groups == 0 || groups%2 != 0 { // N is a multiple of 8 for every wgmma
		return all
	}
	_ = g.bT[256*(len(a)-1)+g.N-1] // the last row's columns lie in bT
	_ = g.eb[256*(len(a)-1)+g.N-1]
	_ = ae[len(a)-1]
	l0, e0 := AccSlot(r, 0)
	_ = g.Regs[e0+4*((groups-1)/2)+1][l0+3] // the last group's slots
	return f32RowAVX(&a[0], &ae[0], &g.bT[0], &g.eb[0], len(a), int64(1023+p.FracBits), &g.cols, &g.Regs[e0][l0],
		&g.bSpecial[0], int32(p.FracBits), g.ScaleD, g.aSpecial[r], groups) & all
}

// exponentsAVX is exponents of the n values at v (n a multiple of 4) into
// e, four at a time (mma_run_amd64.s).
//
//go:noescape
func exponentsAVX(v *float64, n int, emin int32, e *int32) (special bool)

// exponentsWide runs exponents's values four at a time where the host has
// AVX2 and returns how many it took (a multiple of 4) and whether one of
// them is a NaN or an infinity.
func exponentsWide(v []float64, emin int, e []int32) (int, bool) {
	n := len(v) &^ 3
	if !hasAVX2 || n == 0 {
		return 0, false
	}
	_ = e[n-1]
	return n, exponentsAVX(&v[0], n, int32(emin), &e[0])
}

// halvesPutAVX widens the eight halves of c (bf16 if bf16, else f16),
// negated if neg, into v[0], v[step], … v[7*step] (mma_run_amd64.s).
//
//go:noescape
func halvesPutAVX(c *[16]byte, v *float64, step int, neg, bf16 bool)

// halvesPut runs halvesPutAVX on v (of at least 7*step+1 values) where the
// host converts halves and reports whether it did.
func halvesPut(c *[16]byte, v []float64, step int, neg, bf16 bool) bool {
	if !hasF16C {
		return false
	}
	_ = v[7*step]
	halvesPutAVX(c, &v[0], step, neg, bf16)
	return true
}
