package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// A three-input add (compiler.FuseAdds: add.T d, a, b, c) sums all three
// terms, whichever path runs it: ExecALU on a full warp (the in-place
// form of a register and two immediates), on a partial one, and its lane
// kernel; 32- and 64-bit types, immediates and a register as c.
func TestThreeInputAddSumsEveryTerm(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	prog := &isa.Program{NumRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	for _, typ := range []isa.Type{isa.U32, isa.S32, isa.U64, isa.B64} {
		for _, cReg := range []bool{false, true} {
			c := isa.Imm(rng.Uint64())
			if cReg {
				c = isa.R(2)
			}
			in := isa.Instr{Op: isa.OpAdd, Type: typ, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), isa.Imm(rng.Uint64()), c}}
			k := DecodeKernel(prog, &in)
			for _, mask := range []uint32{FullMask, 0x00ff00ff, 1} {
				for _, viaKernel := range []bool{false, true} {
					w := New(0, 0, prog, FullMask, Env{})
					for r := int32(0); r < 3; r++ {
						for l := 0; l < Lanes; l++ {
							w.Reg(r)[l] = rng.Uint64() & widthMask(typ)
						}
					}
					a, cv := *w.Reg(1), *w.Reg(2)
					old := *w.Reg(0)
					ran := viaKernel && k.Resolved() && w.Exec(&k, mask)
					if !ran {
						if err := w.ExecALU(&in, mask, 0); err != nil {
							t.Fatal(err)
						}
					}
					for l := 0; l < Lanes; l++ {
						want := old[l]
						if mask>>l&1 != 0 {
							third := in.Ops[3].Imm
							if cReg {
								third = cv[l]
							}
							want = (a[l] + in.Ops[2].Imm + third) & widthMask(typ)
						}
						if got := w.Reg(0)[l]; got != want {
							t.Fatalf("add.%v %v mask %#x (kernel %v) lane %d: %#x, want %#x", typ, in.Ops, mask, ran, l, got, want)
						}
					}
				}
			}
		}
	}
}
