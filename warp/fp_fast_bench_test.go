package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// BenchmarkFloatLanes times one warp instruction of the commonest float
// forms on normal operands, through the fast lanes (ExecALU) and through
// the exact path alone.
func BenchmarkFloatLanes(b *testing.B) {
	g := []bitsGen{tameF32, tameF32, tameF32}
	f16 := pairGen(tameF16)
	for _, c := range []fastCase{
		form(isa.OpFma, isa.F32, isa.RN, 0, g...),
		form(isa.OpAdd, isa.F32, isa.RNone, 0, g[:2]...),
		form(isa.OpMul, isa.F32, isa.RNone, isa.FFtz, g[:2]...),
		form(isa.OpFma, isa.F16x2, isa.RN, 0, f16, f16, f16),
		form(isa.OpEx2, isa.F32, isa.RNone, isa.FFtz|isa.FApprox, g[0]),
		cvtForm(isa.F32, isa.U32, isa.RN, 0, intGen(32)),
		cvtForm(isa.S32, isa.F32, isa.RZI, 0, tameF32),
	} {
		rng := rand.New(rand.NewPCG(1, 1))
		prog := &isa.Program{NumRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
		w, e := New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{})
		fillBoth(rng, &c, w, e)
		in := c.in
		b.Run(c.name+"/fast", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if err := w.ExecALU(&in, FullMask, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/exact", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if ok, err := e.execExact(&in, FullMask, 0); !ok || err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// tameF32 is a normal f32 of either sign with an exponent near one's.
func tameF32(rng *rand.Rand) uint64 {
	return uint64(uint32(rng.IntN(2))<<31 | (127-20+rng.Uint32N(40))<<23 | rng.Uint32N(1<<23))
}

// tameF16 is a normal f16 of either sign with an exponent near one's.
func tameF16(rng *rand.Rand) uint64 {
	return uint64(uint32(rng.IntN(2))<<15 | (15-4+rng.Uint32N(8))<<10 | rng.Uint32N(1<<10))
}
