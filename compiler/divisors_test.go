package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func divI(typ isa.Type, d, a, b int) isa.Instr {
	in := isa.Instr{Op: isa.OpRem, Type: typ, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(b)}}
	in.Class = isa.ClassOf(&in)
	return in
}

func TestHoistDivisorsOnlyForDivisorsTheLoopNeverWrites(t *testing.T) {
	loopBack := func(target int) isa.Instr {
		return isa.Instr{Op: isa.OpBra, Guard: isa.P(0), Target: int32(target), Class: isa.ClassBranch}
	}
	tests := []struct {
		name string
		prog []isa.Instr
		at   int
		want isa.Class
	}{
		{"invariant divisor in a loop", []isa.Instr{aluI(1, 1), divI(isa.U32, 2, 1, 5), loopBack(0), {Op: isa.OpExit}}, 1, isa.ClassIDivInv},
		{"64-bit invariant divisor", []isa.Instr{aluI(1, 1), divI(isa.U64, 2, 1, 5), loopBack(0), {Op: isa.OpExit}}, 1, isa.ClassIDiv64Inv},
		{"divisor written in the loop", []isa.Instr{aluI(5, 5), divI(isa.U32, 2, 1, 5), loopBack(0), {Op: isa.OpExit}}, 1, isa.ClassIDiv},
		{"divisor written after the division, in the loop", []isa.Instr{divI(isa.U32, 2, 1, 5), aluI(5, 2), loopBack(0), {Op: isa.OpExit}}, 0, isa.ClassIDiv},
		{"no loop", []isa.Instr{aluI(1, 1), divI(isa.U32, 2, 1, 5), {Op: isa.OpExit}}, 1, isa.ClassIDiv},
		{"a forward branch is not a loop", []isa.Instr{{Op: isa.OpBra, Guard: isa.P(0), Target: 2}, divI(isa.U32, 2, 1, 5), {Op: isa.OpExit}}, 1, isa.ClassIDiv},
		{"innermost loop decides", []isa.Instr{aluI(5, 5), aluI(1, 1), divI(isa.U32, 2, 1, 5), loopBack(1), loopBack(0), {Op: isa.OpExit}}, 2, isa.ClassIDivInv},
		{"a call in the loop may write anything", []isa.Instr{{Op: isa.OpCall}, divI(isa.U32, 2, 1, 5), loopBack(0), {Op: isa.OpExit}}, 1, isa.ClassIDiv},
		{"a loop with a branch inside (prodonly.cu)", []isa.Instr{divI(isa.U32, 2, 1, 5), {Op: isa.OpBra, Guard: isa.P(1), Target: 2, Class: isa.ClassBranch}, aluI(3, 3), loopBack(0), {Op: isa.OpExit}}, 0, isa.ClassIDiv},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			apply(HoistDivisors, p)
			if got := p.Instrs[tc.at].Class; got != tc.want {
				t.Errorf("class %v, want %v", got, tc.want)
			}
		})
	}
}
