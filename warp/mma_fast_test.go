package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// refSum is MMANumerics.sum spelled out with math.Ldexp and the generic
// rounding, the form the fast arithmetic must equal bit for bit.
func refSum(p *MMANumerics, terms []float64, exps []int, out *ffmt, r isa.Rounding) float64 {
	lead, special := math.MinInt, false
	for i, t := range terms {
		if math.IsNaN(t) || math.IsInf(t, 0) {
			special = true
		} else if t != 0 {
			lead = max(lead, exps[i])
		}
	}
	if special {
		s := 0.0
		for _, t := range terms {
			s += t
		}
		return s
	}
	if lead == math.MinInt {
		return zeroSum(terms)
	}
	q := lead - p.FracBits
	var sum int64
	for _, t := range terms {
		sum += int64(math.Trunc(math.Ldexp(t, -q)))
	}
	if sum == 0 {
		return 0
	}
	x := math.Ldexp(float64(sum), q) // sum has at most 32 bits here: exact
	if p.SumBits > 0 && p.SumBits < out.mant {
		x = (&ffmt{mant: p.SumBits, emin: out.emin, max: out.max}).roundExact(x, isa.RZ)
	}
	if math.Abs(x) >= out.infinityAt() {
		return math.Inf(int(math.Copysign(1, x)))
	}
	if v := out.round(x, r); v != 0 {
		return v
	}
	return 0
}

// TestMMASumMatchesItsReference: the tensor core's fused sum computed with
// powers of two and an f32 truncation by bits gives what the plain
// arithmetic gives, over random dot products of every input type, with
// operands across their whole range (subnormals, the largest values,
// infinities, NaNs, zeros of both signs) and accumulators of f32 and f16.
func TestMMASumMatchesItsReference(t *testing.T) {
	m := H200MMAModel()
	rng := rand.New(rand.NewPCG(1, 2))
	types := []isa.MMAType{isa.MMAF16, isa.MMABF16, isa.MMATF32, isa.MMAE4M3, isa.MMAE5M2}
	bitsOf := func(ty isa.MMAType) uint64 { return randBits(rng, ty) }
	for n := 0; n < 200_000; n++ {
		ty := types[n%len(types)]
		k := 1 + rng.IntN(32)
		a, b := make([]float64, k), make([]float64, k)
		for i := range a {
			a[i], b[i] = m.MMAValue(ty, bitsOf(ty)), m.MMAValue(ty, bitsOf(ty))
			if rng.IntN(4) == 0 { // operands of one scale, whose sums cancel and carry
				b[i] = m.MMAValue(ty, bitsOf(ty)&^0x7c00|0x3c00)
			}
		}
		c := math.Float32frombits(rng.Uint32())
		p, ea, eb := m.numerics(ty), eminOf(ty), eminOf(ty)
		for _, acc := range []struct {
			out *ffmt
			r   isa.Rounding
		}{{&fmtF32, isa.RZ}, {&fmtF16, isa.RN}} {
			var terms [33]float64
			var exps [33]int
			terms[0], exps[0] = float64(c), expOf(float64(c), fmtF32.emin)
			for i := range a {
				terms[1+i], exps[1+i] = a[i]*b[i], math.MinInt32
				if a[i] != 0 && b[i] != 0 {
					exps[1+i] = expOf(a[i], ea) + expOf(b[i], eb)
				}
			}
			want := refSum(p, terms[:1+k], exps[:1+k], acc.out, acc.r)
			var ae, be [32]int32
			Exponents(ty, a, ae[:k])
			Exponents(ty, b, be[:k])
			for _, got := range []float64{p.sum(terms[:1+k], exps[:1+k], acc.out, acc.r),
				p.dotExp(a, b, ae[:k], be[:k], float64(c), acc.out, acc.r)} {
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("type %v, %d terms %v: got %v, want %v", ty, k, terms[:1+k], got, want)
				}
			}
		}
	}
}
