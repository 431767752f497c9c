package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestInvertBranchesOverJumpsMakesCUTLASSWaitLoopsFallThrough(t *testing.T) {
	wait := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Flags: isa.FHint, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.Imm(0), isa.Imm(10000000)}, Class: isa.ClassSyncs}
	// 0: L: try_wait P1   1: @P1 bra DONE(3)   2: bra L(0)   3: DONE: exit
	p := &isa.Program{Instrs: []isa.Instr{wait, gbra(isa.P(1), 3), gbra(isa.Operand{}, 0), {Op: isa.OpExit}}, NumPreds: 2}
	apply(InvertBranchesOverJumps, p)
	if got := opsOf(p); len(got) != 3 {
		t.Fatalf("got %v, want try_wait, bra, exit", got)
	}
	if br := p.Instrs[1]; br.Guard != isa.NotP(1) || br.Target != 0 {
		t.Errorf("got guard %+v target %d, want @!P1 bra 0", br.Guard, br.Target)
	}
	// A jump that another branch enters stays.
	q := &isa.Program{Instrs: []isa.Instr{gbra(isa.P(2), 2), gbra(isa.P(1), 3), gbra(isa.Operand{}, 0), {Op: isa.OpExit}}, NumPreds: 3}
	q.Instrs[0].Target = 2
	apply(InvertBranchesOverJumps, q)
	if len(q.Instrs) != 4 {
		t.Errorf("got %v, want it unchanged", opsOf(q))
	}
}
