package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// Which adds ptxas folds into a shared access's address ([R+UR+imm]): one
// whose other source the uniform datapath can hold, read once, by the
// address of a shared load or store in the same straight run.
func TestFoldSharedAddressAddsMarksAddsIntoLDSAddresses(t *testing.T) {
	lds := func(d, a int) isa.Instr {
		return isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Addr(a, 0)}, Class: isa.ClassShared}
	}
	sts := isa.Instr{Op: isa.OpSt, Type: isa.U32, Space: isa.Shared, Ops: []isa.Operand{isa.Addr(5, 4), isa.R(1)}, Class: isa.ClassShared}
	ldg := isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Global, NDst: 1, Ops: []isa.Operand{isa.R(6), isa.Addr(5, 0)}, Class: isa.ClassGlobal}
	sym := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Addr(-1, 0)}, Class: isa.ClassALU}
	lane := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	laneBase := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	param := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(9)}, Class: isa.ClassALU}
	stage := isa.Instr{Op: isa.OpShl, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(9), isa.Imm(4)}, Class: isa.ClassALU}
	read5 := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.R(5)}, Class: isa.ClassALU}
	write2 := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Imm(64)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		prog []isa.Instr
		want int // index of the one folded add, or -1
	}{
		{"lane offset plus a shared variable's address", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, 2},
		{"an immediate offset", []isa.Instr{lane, add(isa.S32, 5, isa.R(1), isa.Imm(16)), lds(6, 5), {Op: isa.OpExit}}, 1},
		{"a value loaded through a uniform address, plus the base", []isa.Instr{sym, lds(1, 2), add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, 2},
		{"into a store's address", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(2), isa.R(1)), sts, {Op: isa.OpExit}}, 2},
		{"a base from a parameter", []isa.Instr{lane, param, add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, 2},
		{"not two lane-dependent sources", []isa.Instr{lane, laneBase, add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, -1},
		{"not into a global load", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(1), isa.R(2)), ldg, {Op: isa.OpExit}}, -1},
		{"not when the sum is read again", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(1), isa.R(2)), read5, lds(6, 5), {Op: isa.OpExit}}, -1},
		{"not when a source is written before the access", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(1), isa.R(2)), write2, lds(6, 5), {Op: isa.OpExit}}, -1},
		{"not 64-bit", []isa.Instr{lane, sym, add(isa.U64, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, -1},
		{"not across a branch target", []isa.Instr{lane, sym, add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), gbra(isa.NotP(1), 3), {Op: isa.OpExit}}, -1},
		// Under a lane-dependent branch ptxas computes in vector registers
		// (pipeline.sass: `IMAD R4, R25, 0x10, R24; LDS.128 R4, [R4]`) ...
		{"not a base computed under a lane-dependent branch", []isa.Instr{laneSetp(0), lane, gbra(isa.P(0), 6), stage,
			add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), aluI(7, 7), {Op: isa.OpExit}}, -1},
		// ... but a shared variable's address is a constant it forms ahead
		// (window.sass: `LDS R6, [R6+UR4]` inside such a branch).
		{"a shared variable's address under a lane-dependent branch", []isa.Instr{laneSetp(0), lane, gbra(isa.P(0), 6), sym,
			add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), aluI(7, 7), {Op: isa.OpExit}}, 4},
		// A branch on which the lanes that take it leave (`@P EXIT`) leaves
		// what follows uniform.
		{"a base computed after a lane-dependent exit", []isa.Instr{laneSetp(0), lane, gbra(isa.P(0), 6), stage,
			add(isa.U32, 5, isa.R(1), isa.R(2)), lds(6, 5), {Op: isa.OpExit}}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...), NumPreds: 2, NumRegs: 10}
			isa.Reconverge(p, nil)
			apply(FoldSharedAddressAdds, p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Sched.Has(isa.SchedFoldedAddr); got != (i == tc.want) {
					t.Errorf("instruction %d (%v): SchedFoldedAddr %v, want it only on %d", i, p.Instrs[i].Op, got, tc.want)
				}
			}
		})
	}
}
