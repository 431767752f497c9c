package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// ptxas computes what follows a bulk-group wait (DEPBAR) ahead of it when
// it does not depend on what stays behind: store.cu's next address sits
// above each DEPBAR (calibration/h200 store.sass).
func TestArithmeticAfterABulkWaitMovesAboveIt(t *testing.T) {
	wait := isa.Instr{Op: isa.OpBulkWait, Ops: []isa.Operand{isa.Imm(0)}, Flags: isa.FRead, Class: isa.ClassTMA}
	store := isa.Instr{Op: isa.OpBulkCopy, Ops: []isa.Operand{isa.Addr(4, 0), isa.Addr(5, 0), isa.R(6)}, Class: isa.ClassTMA}
	clock := isa.Instr{Op: isa.OpMov, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.Spec(isa.SClock64)}, Class: isa.ClassSpecial}
	ld := isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Addr(3, 0)}, Class: isa.ClassShared}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op // the order after the pass
	}{
		{"the next address", []isa.Instr{store, wait, aluI(4, 4), aluI(4, 4), store, {Op: isa.OpExit}},
			[]isa.Op{isa.OpBulkCopy, isa.OpAdd, isa.OpAdd, isa.OpBulkWait, isa.OpBulkCopy, isa.OpExit}},
		{"not past a memory access", []isa.Instr{store, wait, ld, aluI(4, 2), aluI(8, 8), {Op: isa.OpExit}},
			[]isa.Op{isa.OpBulkCopy, isa.OpBulkWait, isa.OpLd, isa.OpAdd, isa.OpAdd, isa.OpExit}},
		{"not a clock read, nor what follows it", []isa.Instr{store, wait, clock, aluI(8, 8), {Op: isa.OpExit}},
			[]isa.Op{isa.OpBulkCopy, isa.OpBulkWait, isa.OpMov, isa.OpAdd, isa.OpExit}},
		{"not past a branch target", []isa.Instr{store, wait, aluI(4, 4), gbra(isa.NotP(0), 2), {Op: isa.OpExit}},
			[]isa.Op{isa.OpBulkCopy, isa.OpBulkWait, isa.OpAdd, isa.OpBra, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...), NumPreds: 2, NumRegs: 10}
			isa.Reconverge(p, nil)
			apply(HoistPastBulkWaits, p)
			if len(p.Instrs) != len(tc.want) {
				t.Fatalf("%d instructions, want %d", len(p.Instrs), len(tc.want))
			}
			for i, op := range tc.want {
				if p.Instrs[i].Op != op {
					t.Errorf("instruction %d is %v, want %v (%v)", i, p.Instrs[i].Op, op, opsOf(p))
					break
				}
			}
		})
	}
}
