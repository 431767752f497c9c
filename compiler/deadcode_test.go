package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestDropDeadResults(t *testing.T) {
	bfe := isa.Instr{Op: isa.OpBfe, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(1), isa.Imm(16), isa.Imm(16)}, Class: isa.ClassALU}
	clock := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(6), {Kind: isa.KSpecial, Special: isa.SClock}}, Class: isa.ClassSpecial}
	ld := isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.Addr(1, 0)}, Class: isa.ClassShared}
	guarded := addRR(8, 1, 1)
	guarded.Guard = isa.P(0)
	exit := isa.Instr{Op: isa.OpExit}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op
	}{
		{"an unread extract goes", []isa.Instr{bfe, exit}, []isa.Op{isa.OpExit}},
		{"and what only it read", []isa.Instr{addRR(1, 2, 3), bfe, exit}, []isa.Op{isa.OpExit}},
		{"a read result stays", []isa.Instr{bfe, addRR(2, 5, 5), addRR(3, 2, 2), isa.Instr{Op: isa.OpSt, Type: isa.U32, Space: isa.Shared, Ops: []isa.Operand{isa.Addr(9, 0), isa.R(3)}, Class: isa.ClassShared}, exit},
			[]isa.Op{isa.OpBfe, isa.OpAdd, isa.OpAdd, isa.OpSt, isa.OpExit}},
		{"a clock read stays", []isa.Instr{clock, exit}, []isa.Op{isa.OpMov, isa.OpExit}},
		{"a load stays", []isa.Instr{ld, exit}, []isa.Op{isa.OpLd, isa.OpExit}},
		{"a guarded instruction stays", []isa.Instr{guarded, exit}, []isa.Op{isa.OpAdd, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			apply(DropDeadResults, p)
			got := opsOf(p)
			if len(got) != len(tc.want) {
				t.Fatalf("%v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("%v, want %v", got, tc.want)
				}
			}
		})
	}
}
