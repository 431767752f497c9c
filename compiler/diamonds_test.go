package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func arriveI() isa.Instr {
	return isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
}

func laneSetp(p int) isa.Instr {
	return isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpEq, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.Spec(isa.SLaneID), isa.Imm(0)}, Class: isa.ClassALU}
}

func paramSetp(p int) isa.Instr {
	return isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpEq, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.R(9), isa.Imm(0)}, Class: isa.ClassALU}
}

func TestIfConvertDiamondsPredicatesBothSides(t *testing.T) {
	tests := []struct {
		name       string
		prog       []isa.Instr
		wantGuards []isa.Operand // guards of the two arrives after conversion
	}{
		{"@p bra E; T; bra J; E: F; J:",
			[]isa.Instr{laneSetp(1), gbra(isa.P(1), 4), arriveI(), gbra(isa.Operand{}, 5), arriveI(), {Op: isa.OpExit}},
			[]isa.Operand{isa.NotP(1), isa.P(1)}},
		{"@p bra A; bra B; A: T; bra J; B: F; J:",
			[]isa.Instr{laneSetp(1), gbra(isa.P(1), 3), gbra(isa.Operand{}, 5), arriveI(), gbra(isa.Operand{}, 6), arriveI(), {Op: isa.OpExit}},
			[]isa.Operand{isa.P(1), isa.NotP(1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog, NumPreds: 2}
			apply(IfConvertDiamonds, p)
			got := opsOf(p)
			want := []isa.Op{isa.OpSetp, isa.OpMbarArrive, isa.OpMbarArrive, isa.OpExit}
			if len(got) != len(want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("got %v, want %v", got, want)
				}
			}
			if p.Instrs[1].Guard != tc.wantGuards[0] || p.Instrs[2].Guard != tc.wantGuards[1] {
				t.Errorf("guards %+v %+v, want %+v %+v", p.Instrs[1].Guard, p.Instrs[2].Guard, tc.wantGuards[0], tc.wantGuards[1])
			}
		})
	}
}

func TestIfConvertDiamondsLeavesLongOrEnteredSides(t *testing.T) {
	long := []isa.Instr{paramSetp(1), gbra(isa.P(1), 8), aluI(1, 1), aluI(1, 1), aluI(1, 1), aluI(1, 1), aluI(1, 1), gbra(isa.Operand{}, 9), aluI(2, 2), {Op: isa.OpExit}}
	entered := []isa.Instr{paramSetp(1), gbra(isa.P(2), 4), gbra(isa.P(1), 5), aluI(1, 1), gbra(isa.Operand{}, 6), aluI(2, 2), {Op: isa.OpExit}}
	writesP := []isa.Instr{paramSetp(1), gbra(isa.P(1), 4), paramSetp(1), gbra(isa.Operand{}, 5), aluI(2, 2), {Op: isa.OpExit}}
	for name, prog := range map[string][]isa.Instr{"a side of five": long, "a side entered from elsewhere": entered, "a side writes the condition": writesP} {
		t.Run(name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...), NumPreds: 3}
			apply(IfConvertDiamonds, p)
			if len(p.Instrs) != len(prog) {
				t.Fatalf("got %v, want it unchanged", opsOf(p))
			}
		})
	}
}
