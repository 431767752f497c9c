//go:build !amd64

package warp

// fusedCols4 is fusedCols4Go: the packed form is written for amd64 only
// (mma_run_amd64.s).
func fusedCols4(a []float64, ea []int32, b []float64, eb []int32, bias int64, x *cols4) {
	fusedCols4Go(a, ea, b, eb, bias, x)
}

// f32Group leaves every column to fourColumns's Go steps off amd64.
func f32Group(a []float64, ea []int32, b []float64, eb []int32, bias int64, x *cols4, p0, p1 *uint32,
	bSpecial []bool, fracBits int, scaleD, special bool) uint32 {
	return 0xf
}

// f32Row leaves every group to fourColumns off amd64.
func (g *Wgmma) f32Row(p *MMANumerics, r int, a []float64, ae []int32) uint64 {
	if g.N/4 == 64 {
		return ^uint64(0)
	}
	return uint64(1)<<(g.N/4) - 1
}

// exponentsWide leaves every value to exponents's loop off amd64.
func exponentsWide(v []float64, emin int, e []int32) (int, bool) { return 0, false }

// halvesPut leaves every row to decodeHalves's loop off amd64.
func halvesPut(c *[16]byte, v []float64, step int, neg, bf16 bool) bool { return false }
