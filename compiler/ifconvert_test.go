package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestIfConvertTurnsASkipOfOneInstructionIntoPredication(t *testing.T) {
	arrive := isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	p := &isa.Program{Instrs: []isa.Instr{
		aluI(1, 1),
		{Op: isa.OpBra, Guard: isa.P(0), Target: 3},
		arrive,
		{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}},
		{Op: isa.OpBra, Guard: isa.P(1), Target: 0},
		{Op: isa.OpExit},
	}}
	apply(IfConvert, p)
	if got := opsOf(p); len(got) != 5 || got[1] != isa.OpMbarArrive {
		t.Fatalf("got %v, want the branch removed", got)
	}
	if g := p.Instrs[1].Guard; g.Kind != isa.KPred || g.Reg != 0 || !g.Neg {
		t.Errorf("got guard %+v, want @!p0", g)
	}
	if p.Instrs[3].Target != 0 {
		t.Errorf("loop branch target %d, want 0", p.Instrs[3].Target)
	}
}

func TestIfConvertLeavesLongerAndTargetedBlocksAlone(t *testing.T) {
	p := &isa.Program{Instrs: []isa.Instr{
		{Op: isa.OpBra, Guard: isa.P(0), Target: 3},
		aluI(1, 1),
		aluI(2, 2),
		{Op: isa.OpExit},
	}}
	apply(IfConvert, p)
	if len(p.Instrs) != 4 {
		t.Errorf("a two-instruction block was converted: %v", opsOf(p))
	}
}
