package isa

import "testing"

func add(ty Type, d int, a, b Operand) Instr {
	return Instr{Op: OpAdd, Type: ty, NDst: 1, Ops: []Operand{R(d), a, b}, Class: ClassALU}
}

func TestFuseAddsMakesThreeInputAdds(t *testing.T) {
	xor := Instr{Op: OpXor, Type: B32, NDst: 1, Ops: []Operand{R(9), R(1), R(2)}, Class: ClassALU}
	wr2 := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(2), Imm(7)}, Class: ClassALU}
	rd5 := Instr{Op: OpMov, Type: U32, NDst: 1, Ops: []Operand{R(8), R(5)}, Class: ClassALU}
	cc := add(U32, 5, R(1), R(2))
	cc.Flags |= FCC
	guarded := add(U32, 5, R(1), R(2))
	guarded.Guard = P(0)
	tests := []struct {
		name  string
		prog  []Instr
		n     int   // instructions after the pass
		srcs  []int // source count of each
		fused int   // index of the fused add (-1: none)
	}{
		{"a chain of adds of one register fuses in pairs",
			[]Instr{add(U32, 1, R(1), R(2)), add(U32, 1, R(1), R(3)), add(U32, 1, R(1), R(4)), add(U32, 1, R(1), R(6)), {Op: OpExit}},
			3, []int{3, 3, 0}, 0},
		{"the sum read by a second add only, 64-bit",
			[]Instr{add(U64, 5, R(1), R(2)), xor, add(U64, 6, R(3), R(5)), {Op: OpExit}},
			3, []int{2, 3, 0}, 1},
		{"an immediate operand fuses too",
			[]Instr{add(S32, 5, R(1), Imm(4)), add(S32, 6, R(5), R(3)), {Op: OpExit}},
			2, []int{3, 0}, 0},
		{"not when the sum is read again",
			[]Instr{add(U32, 5, R(1), R(2)), add(U32, 6, R(5), R(3)), rd5, {Op: OpExit}},
			4, []int{2, 2, 1, 0}, -1},
		{"not when a source is written in between",
			[]Instr{add(U32, 5, R(1), R(2)), wr2, add(U32, 6, R(5), R(3)), {Op: OpExit}},
			4, []int{2, 1, 2, 0}, -1},
		{"not with a carry",
			[]Instr{cc, add(U32, 6, R(5), R(3)), {Op: OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not guarded",
			[]Instr{guarded, add(U32, 6, R(5), R(3)), {Op: OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not of different types",
			[]Instr{add(U32, 5, R(1), R(2)), add(U64, 6, R(5), R(3)), {Op: OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not x + x",
			[]Instr{add(U32, 5, R(1), R(2)), add(U32, 6, R(5), R(5)), {Op: OpExit}},
			3, []int{2, 2, 0}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			FuseAdds(p)
			if len(p.Instrs) != tc.n {
				t.Fatalf("%d instructions, want %d: %v", len(p.Instrs), tc.n, opsOf(p))
			}
			for i, want := range tc.srcs {
				if got := p.Instrs[i].NSrc(); got != want {
					t.Errorf("instruction %d has %d sources, want %d", i, got, want)
				}
			}
		})
	}
}

// Fusing keeps branch targets: a branch to the instruction after a fused
// pair still lands on it.
func TestFuseAddsRenumbersTargets(t *testing.T) {
	p := &Program{Instrs: []Instr{
		add(U32, 1, R(1), R(2)), add(U32, 1, R(1), R(3)), // 0, 1 → one
		gbra(P(0), 3), // 2: to the exit
		{Op: OpExit},
	}}
	FuseAdds(p)
	if len(p.Instrs) != 3 || p.Instrs[1].Target != 2 {
		t.Fatalf("got %v, branch target %d, want 3 instructions and target 2", opsOf(p), p.Instrs[1].Target)
	}
	// Nothing fuses across a branch target.
	q := &Program{Instrs: []Instr{add(U32, 1, R(1), R(2)), add(U32, 1, R(1), R(3)), gbra(P(0), 1), {Op: OpExit}}}
	FuseAdds(q)
	if len(q.Instrs) != 4 {
		t.Errorf("fused into a branch target: %v", opsOf(q))
	}
}
