package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// The in-place fast path must compute exactly what the general path does,
// including when the destination is also a source and for every width.
func TestInPlaceFastPathMatchesTheGeneralPath(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	types := []isa.Type{isa.U16, isa.S16, isa.U32, isa.S32, isa.B32, isa.U64, isa.S64, isa.B64}
	forms := []struct {
		op  isa.Op
		ops func(d, a, c int32, imm, imm2 uint64) []isa.Operand
	}{
		{isa.OpAdd, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpSub, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpAnd, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpOr, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpXor, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpMul, func(d, a, _ int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm)}
		}},
		{isa.OpMad, func(d, a, c int32, imm, _ uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm), isa.R(int(c))}
		}},
		{isa.OpMad, func(d, a, _ int32, imm, imm2 uint64) []isa.Operand {
			return []isa.Operand{isa.R(int(d)), isa.R(int(a)), isa.Imm(imm), isa.Imm(imm2)}
		}},
	}
	prog := &isa.Program{NumRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	for _, typ := range types {
		for _, f := range forms {
			for _, regs := range [][3]int32{{0, 1, 2}, {0, 0, 1}, {0, 1, 0}, {0, 0, 0}} { // distinct, d=a, d=c, all one
				in := isa.Instr{Op: f.op, Type: typ, NDst: 1, Ops: f.ops(regs[0], regs[1], regs[2], rng.Uint64(), rng.Uint64())}
				fast, slow := New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{})
				for r := int32(0); r < 4; r++ {
					for l := 0; l < Lanes; l++ {
						v := rng.Uint64() & widthMask(typ)
						fast.Reg(r)[l], slow.Reg(r)[l] = v, v
					}
				}
				if !fast.inPlace(&in) {
					t.Fatalf("%v.%v: not taken by the fast path", f.op, typ)
				}
				// The general path: the same instruction for a mask that is not full, lane by lane.
				for l := 0; l < Lanes; l++ {
					if err := slow.ExecALU(&in, 1<<l, 0); err != nil {
						t.Fatal(err)
					}
				}
				if *fast.Reg(regs[0]) != *slow.Reg(regs[0]) {
					t.Errorf("%v.%v regs %v: fast path %x, general path %x", f.op, typ, regs, fast.Reg(regs[0])[:4], slow.Reg(regs[0])[:4])
				}
			}
		}
	}
}
