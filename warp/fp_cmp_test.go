package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// The whole-warp float comparisons agree with cmpFloat lane by lane, for
// every comparison, on edge values (NaNs, zeros of both signs, subnormals
// with and without .ftz, infinities).
func TestFloatCompareLanesMatchTheScalarDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ops := []isa.CmpOp{isa.CmpEq, isa.CmpNe, isa.CmpLt, isa.CmpLe, isa.CmpGt, isa.CmpGe, isa.CmpEqu, isa.CmpNeu,
		isa.CmpLtu, isa.CmpLeu, isa.CmpGtu, isa.CmpGeu, isa.CmpNum, isa.CmpNan}
	for i := 0; i < 2000; i++ {
		var a, b, a64, b64 Vec
		for l := 0; l < Lanes; l++ {
			a[l], b[l] = f32Gen(rng), f32Gen(rng)
			if l&3 == 0 {
				b[l] = a[l] ^ uint64(rng.IntN(2))<<31 // equal, or a zero against the other zero
			}
			a64[l] = math.Float64bits(float64(math.Float32frombits(uint32(a[l]))))
			b64[l] = math.Float64bits(float64(math.Float32frombits(uint32(b[l]))))
			if l&7 == 1 {
				b64[l] = 0x7ff0000000000001 // a signalling NaN
			}
		}
		for _, op := range ops {
			for _, ftz := range []bool{false, true} {
				var want, want64 uint32
				for l := 0; l < Lanes; l++ {
					x, y := floatValue(a[l], isa.F32, ftz), floatValue(b[l], isa.F32, ftz)
					want |= bit(cmpFloat(op, x, y)) << l
					want64 |= bit(cmpFloat(op, math.Float64frombits(a64[l]), math.Float64frombits(b64[l]))) << l
				}
				if got := cmpF32Lanes(op, &a, &b, ftz); got != want {
					t.Fatalf("f32 %v ftz=%v: got %#x, want %#x", op, ftz, got, want)
				}
				if got := cmpF64Lanes(op, &a64, &b64); got != want64 {
					t.Fatalf("f64 %v: got %#x, want %#x", op, got, want64)
				}
			}
		}
	}
}
