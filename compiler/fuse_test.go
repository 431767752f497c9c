package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func add(ty isa.Type, d int, a, b isa.Operand) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: ty, NDst: 1, Ops: []isa.Operand{isa.R(d), a, b}, Class: isa.ClassALU}
}

func TestFuseAddsMakesThreeInputAdds(t *testing.T) {
	xor := isa.Instr{Op: isa.OpXor, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(9), isa.R(1), isa.R(2)}, Class: isa.ClassALU}
	wr2 := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Imm(7)}, Class: isa.ClassALU}
	rd5 := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(8), isa.R(5)}, Class: isa.ClassALU}
	cc := add(isa.U32, 5, isa.R(1), isa.R(2))
	cc.Flags |= isa.FCC
	guarded := add(isa.U32, 5, isa.R(1), isa.R(2))
	guarded.Guard = isa.P(0)
	tests := []struct {
		name  string
		prog  []isa.Instr
		n     int   // instructions after the pass
		srcs  []int // source count of each
		fused int   // index of the fused add (-1: none)
	}{
		{"a chain of adds of one register fuses in pairs",
			[]isa.Instr{add(isa.U32, 1, isa.R(1), isa.R(2)), add(isa.U32, 1, isa.R(1), isa.R(3)), add(isa.U32, 1, isa.R(1), isa.R(4)), add(isa.U32, 1, isa.R(1), isa.R(6)), {Op: isa.OpExit}},
			3, []int{3, 3, 0}, 0},
		{"the sum read by a second add only, 64-bit",
			[]isa.Instr{add(isa.U64, 5, isa.R(1), isa.R(2)), xor, add(isa.U64, 6, isa.R(3), isa.R(5)), {Op: isa.OpExit}},
			3, []int{2, 3, 0}, 1},
		{"an immediate operand fuses too",
			[]isa.Instr{add(isa.S32, 5, isa.R(1), isa.Imm(4)), add(isa.S32, 6, isa.R(5), isa.R(3)), {Op: isa.OpExit}},
			2, []int{3, 0}, 0},
		{"not when the sum is read again",
			[]isa.Instr{add(isa.U32, 5, isa.R(1), isa.R(2)), add(isa.U32, 6, isa.R(5), isa.R(3)), rd5, {Op: isa.OpExit}},
			4, []int{2, 2, 1, 0}, -1},
		{"not when a source is written in between",
			[]isa.Instr{add(isa.U32, 5, isa.R(1), isa.R(2)), wr2, add(isa.U32, 6, isa.R(5), isa.R(3)), {Op: isa.OpExit}},
			4, []int{2, 1, 2, 0}, -1},
		{"not with a carry",
			[]isa.Instr{cc, add(isa.U32, 6, isa.R(5), isa.R(3)), {Op: isa.OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not guarded",
			[]isa.Instr{guarded, add(isa.U32, 6, isa.R(5), isa.R(3)), {Op: isa.OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not of different types",
			[]isa.Instr{add(isa.U32, 5, isa.R(1), isa.R(2)), add(isa.U64, 6, isa.R(5), isa.R(3)), {Op: isa.OpExit}},
			3, []int{2, 2, 0}, -1},
		{"not x + x",
			[]isa.Instr{add(isa.U32, 5, isa.R(1), isa.R(2)), add(isa.U32, 6, isa.R(5), isa.R(5)), {Op: isa.OpExit}},
			3, []int{2, 2, 0}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			apply(FuseAdds, p)
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
	p := &isa.Program{Instrs: []isa.Instr{
		add(isa.U32, 1, isa.R(1), isa.R(2)), add(isa.U32, 1, isa.R(1), isa.R(3)), // 0, 1 → one
		gbra(isa.P(0), 3), // 2: to the exit
		{Op: isa.OpExit},
	}}
	apply(FuseAdds, p)
	if len(p.Instrs) != 3 || p.Instrs[1].Target != 2 {
		t.Fatalf("got %v, branch target %d, want 3 instructions and target 2", opsOf(p), p.Instrs[1].Target)
	}
	// Nothing fuses across a branch target.
	q := &isa.Program{Instrs: []isa.Instr{add(isa.U32, 1, isa.R(1), isa.R(2)), add(isa.U32, 1, isa.R(1), isa.R(3)), gbra(isa.P(0), 1), {Op: isa.OpExit}}}
	apply(FuseAdds, q)
	if len(q.Instrs) != 4 {
		t.Errorf("fused into a branch target: %v", opsOf(q))
	}
}
