package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Run computes the warp's 16 rows of D = A·B (+ D) into g.Regs, which hold
// D's old values; rank is the warp's index in its warpgroup.
func (g *Wgmma) Run(rank int, read SharedReader, m *MMAModel) error {
	if err := g.Load(rank, read, m); err != nil {
		return err
	}
	g.Compute(m)
	return nil
}

// Load reads the warp's operands: its 16 rows of A (from shared memory or
// g.ARegs) and B, from shared memory as the descriptors name them. What it
// reads from shared memory is decoded by Compute: Load does all the reading,
// Compute none.
func (g *Wgmma) Load(rank int, read SharedReader, m *MMAModel) error {
	g.opA.raw, g.opB.raw = false, false
	if err := g.loadA(rank, read, m); err != nil {
		return err
	}
	return g.loadB(read, m)
}

// Compute computes D into g.Regs from the loaded operands and D's old
// values in g.Regs.
func (g *Wgmma) Compute(m *MMAModel) {
	g.decode(m)
	g.exponents()
	if g.Acc == isa.S32 {
		g.runInt()
		return
	}
	p := m.numerics(g.A)
	plainF32 := g.Acc == isa.F32 && p.SumBits == 0
	for r := 0; r < 16; r++ {
		a, ae := g.a[32*r:32*r+g.K], g.ae[32*r:32*r+g.K]
		if plainF32 { // the groups the packed row leaves
			for left := g.f32Row(p, r, a, ae); left != 0; left &= left - 1 {
				g.fourColumns(m, p, r, 4*bits.TrailingZeros64(left), a, ae)
			}
			continue
		}
		for col0 := 0; col0 < g.N; col0 += 4 {
			g.fourColumns(m, p, r, col0, a, ae)
		}
	}
}

// exponents finds the operands' exponents (Exponents) and which rows of A
// and columns of B hold a NaN or an infinity.
func (g *Wgmma) exponents() {
	for r := 0; r < 16; r++ {
		g.aSpecial[r] = Exponents(g.A, g.a[32*r:32*r+g.K], g.ae[32*r:32*r+g.K])
	}
	clear(g.bSpecial[:g.N])
	for k := 0; k < g.K; k++ {
		row := g.bT[256*k : 256*k+g.N]
		if Exponents(g.B, row, g.eb[256*k:256*k+g.N]) {
			for n, x := range row {
				g.bSpecial[n] = g.bSpecial[n] || isSpecial(x)
			}
		}
	}
}

// cols4 is fusedCols4's frame: four accumulators in, their aligned sums out.
type cols4 struct {
	c    [4]float64 // the accumulators' values
	ce   [4]int32   // their exponents (noExp for a zero)
	sum  [4]float64 // the aligned terms' sums: integers, exact
	lead [4]int32   // the largest exponent among each element's terms (noExp: no nonzero term)
	pair [8]int32   // f32RowAVX's products' leads of a pair of groups
}

// fourColumns computes the elements of row r of the warp's share of D in
// columns col0..col0+3 (col0 a multiple of 4), from the row's operands a and
// their exponents ae: the fused sum of four at once (fusedCols4) where no
// operand is a NaN or an infinity, the general one (dotExp) elsewhere.
// Element i lies in lane l0 + i/2 at e0 + i%2 (AccSlot); an f32
// accumulator is read and written there through slot. An f32 accumulator
// whose sum keeps every fraction bit takes the packed steps (f32Group),
// which leave only the columns they do not answer for.
func (g *Wgmma) fourColumns(m *MMAModel, p *MMANumerics, r, col0 int, a []float64, ae []int32) {
	x := &g.cols
	l0, e0 := AccSlot(r, col0)
	lo, hi := &g.Regs[e0], &g.Regs[e0+1]
	slot := [4]*uint32{&lo[l0], &hi[l0], &lo[l0+1], &hi[l0+1]}
	f32 := g.Acc == isa.F32
	plainF32 := f32 && p.SumBits == 0
	special, bSpecial := g.aSpecial[r], g.bSpecial[col0:col0+4:col0+4]
	bias := int64(1023 + p.FracBits)
	left := uint32(0xf)
	if plainF32 {
		left = f32Group(a, ae, g.bT[col0:], g.eb[col0:], bias, x, slot[0], slot[1], bSpecial, p.FracBits, g.ScaleD, special)
		if left == 0 {
			return
		}
	}
	var general [4]bool
	if left == 0xf { // the Go steps, from the accumulators
		all := true
		for i, b := range bSpecial {
			var c float64
			switch {
			case !g.ScaleD:
			case f32:
				c = float64(math.Float32frombits(*slot[i]))
			default:
				c = g.accAt(l0+i>>1, e0+i&1)
			}
			x.c[i], x.ce[i] = c, noExp
			if c != 0 {
				x.ce[i] = int32(expOf(c, fmtF32.emin))
			}
			general[i] = special || b || isSpecial(c)
			all = all && general[i]
		}
		if !all {
			fusedCols4(a, ae, g.bT[col0:], g.eb[col0:], bias, x)
		}
	} else { // the columns f32Group left: x.c holds their accumulators
		for i, b := range bSpecial {
			general[i] = special || b || isSpecial(x.c[i])
		}
	}
	out, rnd := &fmtF32, isa.RZ
	if !f32 {
		out, rnd = &fmtF16, isa.RN
	}
	for ; left != 0; left &= left - 1 {
		i := bits.TrailingZeros32(left)
		col := col0 + i
		q := int(x.lead[i]) - p.FracBits
		if general[i] || x.lead[i] < noExp/2 || q < -1000 || q > 1000 {
			g.setAcc(m, r, col, g.general(m, r, col))
			continue
		}
		if plainF32 {
			if b, ok := f32TowardZero(x.sum[i], q); ok {
				*slot[i] = b
				continue
			}
		}
		g.setAcc(m, r, col, p.finish(int64(x.sum[i]), q, out, rnd))
	}
}

// f32TowardZero is finish's result for an f32 accumulator and a sum of
// every fraction bit (SumBits 0), sum·2^q cut toward zero to f32, as bits,
// when that lies in f32's normal range; false leaves the rest to finish.
// sum is an integer below 2^53 in magnitude (fusedCols4), so sum·2^q is
// exact wherever it is a normal float64.
func f32TowardZero(sum float64, q int) (uint32, bool) {
	v := sum * math.Float64frombits(uint64(q+1023)<<52)
	if ax := math.Abs(v); ax < 0x1p-126 || ax >= 0x1p128 {
		return 0, false
	}
	return math.Float32bits(float32(math.Float64frombits(math.Float64bits(v) &^ (1<<29 - 1)))), true
}

// acc is the value the accumulator of element (r, col) brings: its old
// value with scale-d, else 0.
func (g *Wgmma) acc(r, col int) float64 { return g.accAt(AccSlot(r, col)) }

// accAt is acc of the element in lane l at element i of the accumulators.
func (g *Wgmma) accAt(l, i int) float64 {
	if !g.ScaleD {
		return 0
	}
	if g.Acc == isa.F16 {
		return float64(F16ToF32(uint16(g.Regs[uint(i)/2][l] >> (16 * (uint(i) % 2)))))
	}
	return float64(math.Float32frombits(g.Regs[i][l]))
}

// setAcc writes element (r, col) of D, v, rounded to the accumulator's
// type; a NaN is the model's.
func (g *Wgmma) setAcc(m *MMAModel, r, col int, v float64) {
	l, i := AccSlot(r, col)
	if g.Acc == isa.F16 {
		h := uint32(m.NaN >> 16)
		if !math.IsNaN(v) {
			h = uint32(uint16(fmtF16.encode(v)))
		}
		reg, sh := &g.Regs[i/2][l], 16*(i%2)
		*reg = *reg&^(0xffff<<sh) | h<<sh
		return
	}
	if math.IsNaN(v) {
		g.Regs[i][l] = m.NaN
		return
	}
	g.Regs[i][l] = math.Float32bits(float32(v))
}

// general computes element (r, col) by the general sum (dotExp).
func (g *Wgmma) general(m *MMAModel, r, col int) float64 {
	for k := 0; k < g.K; k++ {
		g.bc[k], g.ec[k] = g.bT[256*k+col], g.eb[256*k+col]
	}
	out, rnd := &fmtF32, isa.RZ
	if g.Acc == isa.F16 {
		out, rnd = &fmtF16, isa.RN
	}
	return m.numerics(g.A).dotExp(g.a[32*r:32*r+g.K], g.bc[:g.K], g.ae[32*r:32*r+g.K], g.ec[:g.K], g.acc(r, col), out, rnd)
}

// runInt computes D for s32 accumulators: exact integer sums, clamped with
// .satfinite.
func (g *Wgmma) runInt() {
	for r := 0; r < 16; r++ {
		for col := 0; col < g.N; col++ {
			l, i := AccSlot(r, col)
			s := int64(0)
			if g.ScaleD {
				s = int64(int32(g.Regs[i][l]))
			}
			for k := 0; k < g.K; k++ {
				s += int64(g.a[32*r+k]) * int64(g.bT[256*k+col])
			}
			if g.Sat {
				s = max(math.MinInt32, min(math.MaxInt32, s))
			}
			g.Regs[i][l] = uint32(s)
		}
	}
}

// fusedCols4Go is fusedCols4 in Go: for each of four columns j of B (b[256k+j],
// exponents eb[256k+j]) against the row a (exponents ea), with bias 1023 +
// FracBits, the lead exponent among the accumulator's and the products'
// (ea[k]+eb[k]) and the sum of the terms scaled to 2^(FracBits-lead) and
// truncated toward zero — dotExp's alignment and sum, exact in float64 (each
// term is below 2^(FracBits+2) in magnitude, their sum below 2^53).
func fusedCols4Go(a []float64, ea []int32, b []float64, eb []int32, bias int64, x *cols4) {
	for j := range 4 {
		lead := x.ce[j]
		for k := range a {
			lead = max(lead, ea[k]+eb[256*k+j])
		}
		x.lead[j] = lead
		scale := math.Float64frombits(uint64(bias-int64(lead)) << 52)
		s := math.Trunc(x.c[j] * scale)
		for k := range a {
			s += math.Trunc(a[k] * b[256*k+j] * scale)
		}
		x.sum[j] = s
	}
}
