package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestFoldArriveCounts(t *testing.T) {
	mov := isa.Instr{Op: isa.OpMov, Type: isa.U32, Guard: isa.NotP(1), NDst: 1, Ops: []isa.Operand{isa.R(7), isa.Imm(32)}, Class: isa.ClassALU}
	arrive := isa.Instr{Op: isa.OpMbarArrive, Guard: isa.NotP(1), NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0), isa.R(7)}, Class: isa.ClassSyncs}
	other := arrive
	other.Guard = isa.NotP(2)
	exit := isa.Instr{Op: isa.OpExit, Class: isa.ClassBranch}
	tests := []struct {
		name   string
		prog   []isa.Instr
		folded bool
	}{
		{"the constant count goes into the arrive", []isa.Instr{mov, arrive, exit}, true},
		{"not under another guard", []isa.Instr{mov, other, exit}, false},
		{"not when something else reads it", []isa.Instr{mov, arrive, aluI(8, 7), exit}, false},
		{"not across a branch target", []isa.Instr{mov, {Op: isa.OpBra, Guard: isa.P(3), Target: 2, Class: isa.ClassBranch}, arrive, exit}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			isa.Reconverge(p, nil)
			apply(FoldArriveCounts, p)
			if got := len(p.Instrs) == len(tc.prog)-1; got != tc.folded {
				t.Fatalf("folded %v, want %v: %v", got, tc.folded, opsOf(p))
			}
			if tc.folded {
				if c := p.Instrs[0].Src(1); c.Kind != isa.KImm || c.Imm != 32 {
					t.Errorf("count operand %+v, want the immediate 32", *c)
				}
			}
		})
	}
}
