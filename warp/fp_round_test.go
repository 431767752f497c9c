package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// The exact path rounds f32 to nearest with the host's conversion; the
// rounding spelled out (roundExact) agrees on four million values.
func TestF32RoundingIsTheHostConversion(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 1 << 22
	if testing.Short() {
		n = 1 << 18
	}
	for i := 0; i < n; i++ {
		x := randomFloat64(rng, &fmtF32)
		if i&1 == 0 {
			x = math.Float64frombits(rng.Uint64())
		}
		if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			continue
		}
		for _, r := range []isa.Rounding{isa.RNone, isa.RN, isa.RNI} {
			if got, want := fmtF32.round(x, r), fmtF32.roundExact(x, r); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("round(%x, %v) = %x, spelled out %x", x, r, got, want)
			}
		}
	}
}

// Directed f64 rounding computes its exact residual in big floats a warp
// keeps (so that they are allocated once); reusing them from one operation
// to the next gives what fresh ones give.
func TestDoubleResidualScratchIsReusable(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var sc exactScratch
	ops := []isa.Op{isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpFma, isa.OpDiv, isa.OpSqrt, isa.OpRcp}
	gen := func() uint64 {
		if rng.IntN(4) == 0 {
			return rng.Uint64()
		}
		return math.Float64bits(signed(rng, math.Ldexp(1+rng.Float64(), rng.IntN(200)-100)))
	}
	for i := 0; i < 20000; i++ {
		o := fop{op: ops[rng.IntN(len(ops))], rnd: []isa.Rounding{isa.RZ, isa.RM, isa.RP}[rng.IntN(3)]}
		a, b, c := gen(), gen(), gen()
		if got, want := o.doubleIn(&sc, a, b, c), o.double(a, b, c); got != want {
			t.Fatalf("%v%v(%#x, %#x, %#x): reused scratch %#x, fresh %#x", o.op, rndName(o.rnd), a, b, c, got, want)
		}
	}
}
