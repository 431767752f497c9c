package isa

import "testing"

// Which adds ptxas folds into a shared access's address ([R+UR+imm]): one
// whose other source the uniform datapath can hold, read once, by the
// address of a shared load or store in the same straight run.
func TestFoldSharedAddressAddsMarksAddsIntoLDSAddresses(t *testing.T) {
	lds := func(d, a int) Instr {
		return Instr{Op: OpLd, Type: U32, Space: Shared, NDst: 1, Ops: []Operand{R(d), Addr(a, 0)}, Class: ClassShared}
	}
	sts := Instr{Op: OpSt, Type: U32, Space: Shared, Ops: []Operand{Addr(5, 4), R(1)}, Class: ClassShared}
	ldg := Instr{Op: OpLd, Type: U32, Space: Global, NDst: 1, Ops: []Operand{R(6), Addr(5, 0)}, Class: ClassGlobal}
	sym := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), Addr(-1, 0)}, Class: ClassALU}
	lane := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(1), Spec(SLaneID)}, Class: ClassALU}
	laneBase := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), Spec(SLaneID)}, Class: ClassALU}
	param := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), R(9)}, Class: ClassALU}
	stage := Instr{Op: OpShl, Type: B32, NDst: 1, Ops: []Operand{R(2), R(9), Imm(4)}, Class: ClassALU}
	read5 := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(7), R(5)}, Class: ClassALU}
	write2 := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), Imm(64)}, Class: ClassALU}
	tests := []struct {
		name string
		prog []Instr
		want int // index of the one folded add, or -1
	}{
		{"lane offset plus a shared variable's address", []Instr{lane, sym, add(U32, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, 2},
		{"an immediate offset", []Instr{lane, add(S32, 5, R(1), Imm(16)), lds(6, 5), {Op: OpExit}}, 1},
		{"a value loaded through a uniform address, plus the base", []Instr{sym, lds(1, 2), add(U32, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, 2},
		{"into a store's address", []Instr{lane, sym, add(U32, 5, R(2), R(1)), sts, {Op: OpExit}}, 2},
		{"a base from a parameter", []Instr{lane, param, add(U32, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, 2},
		{"not two lane-dependent sources", []Instr{lane, laneBase, add(U32, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, -1},
		{"not into a global load", []Instr{lane, sym, add(U32, 5, R(1), R(2)), ldg, {Op: OpExit}}, -1},
		{"not when the sum is read again", []Instr{lane, sym, add(U32, 5, R(1), R(2)), read5, lds(6, 5), {Op: OpExit}}, -1},
		{"not when a source is written before the access", []Instr{lane, sym, add(U32, 5, R(1), R(2)), write2, lds(6, 5), {Op: OpExit}}, -1},
		{"not 64-bit", []Instr{lane, sym, add(U64, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, -1},
		{"not across a branch target", []Instr{lane, sym, add(U32, 5, R(1), R(2)), lds(6, 5), gbra(NotP(1), 3), {Op: OpExit}}, -1},
		// Under a lane-dependent branch ptxas computes in vector registers
		// (pipeline.sass: `IMAD R4, R25, 0x10, R24; LDS.128 R4, [R4]`) ...
		{"not a base computed under a lane-dependent branch", []Instr{laneSetp(0), lane, gbra(P(0), 6), stage,
			add(U32, 5, R(1), R(2)), lds(6, 5), aluI(7, 7), {Op: OpExit}}, -1},
		// ... but a shared variable's address is a constant it forms ahead
		// (window.sass: `LDS R6, [R6+UR4]` inside such a branch).
		{"a shared variable's address under a lane-dependent branch", []Instr{laneSetp(0), lane, gbra(P(0), 6), sym,
			add(U32, 5, R(1), R(2)), lds(6, 5), aluI(7, 7), {Op: OpExit}}, 4},
		// A branch on which the lanes that take it leave (`@P EXIT`) leaves
		// what follows uniform.
		{"a base computed after a lane-dependent exit", []Instr{laneSetp(0), lane, gbra(P(0), 6), stage,
			add(U32, 5, R(1), R(2)), lds(6, 5), {Op: OpExit}}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...), NumPreds: 2, NumRegs: 10}
			Reconverge(p, nil)
			FoldSharedAddressAdds(p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Flags.Has(FFoldedAddr); got != (i == tc.want) {
					t.Errorf("instruction %d (%v): FFoldedAddr %v, want it only on %d", i, p.Instrs[i].Op, got, tc.want)
				}
			}
		})
	}
}
