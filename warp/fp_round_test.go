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
