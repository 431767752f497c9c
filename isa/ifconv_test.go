package isa

import "testing"

func arriveI() Instr {
	return Instr{Op: OpMbarArrive, NDst: 1, Ops: []Operand{Sink(), Addr(-1, 0)}, Class: ClassSyncs}
}

func laneSetp(p int) Instr {
	return Instr{Op: OpSetp, Type: U32, Cmp: CmpEq, NDst: 1, Ops: []Operand{P(p), Spec(SLaneID), Imm(0)}, Class: ClassALU}
}

func paramSetp(p int) Instr {
	return Instr{Op: OpSetp, Type: U32, Cmp: CmpEq, NDst: 1, Ops: []Operand{P(p), R(9), Imm(0)}, Class: ClassALU}
}

func TestIfConvertDiamondsPredicatesBothSides(t *testing.T) {
	tests := []struct {
		name       string
		prog       []Instr
		wantGuards []Operand // guards of the two arrives after conversion
	}{
		{"@p bra E; T; bra J; E: F; J:",
			[]Instr{laneSetp(1), gbra(P(1), 4), arriveI(), gbra(Operand{}, 5), arriveI(), {Op: OpExit}},
			[]Operand{NotP(1), P(1)}},
		{"@p bra A; bra B; A: T; bra J; B: F; J:",
			[]Instr{laneSetp(1), gbra(P(1), 3), gbra(Operand{}, 5), arriveI(), gbra(Operand{}, 6), arriveI(), {Op: OpExit}},
			[]Operand{P(1), NotP(1)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog, NumPreds: 2}
			IfConvertDiamonds(p)
			got := opsOf(p)
			want := []Op{OpSetp, OpMbarArrive, OpMbarArrive, OpExit}
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
	long := []Instr{paramSetp(1), gbra(P(1), 8), aluI(1, 1), aluI(1, 1), aluI(1, 1), aluI(1, 1), aluI(1, 1), gbra(Operand{}, 9), aluI(2, 2), {Op: OpExit}}
	entered := []Instr{paramSetp(1), gbra(P(2), 4), gbra(P(1), 5), aluI(1, 1), gbra(Operand{}, 6), aluI(2, 2), {Op: OpExit}}
	writesP := []Instr{paramSetp(1), gbra(P(1), 4), paramSetp(1), gbra(Operand{}, 5), aluI(2, 2), {Op: OpExit}}
	for name, prog := range map[string][]Instr{"a side of five": long, "a side entered from elsewhere": entered, "a side writes the condition": writesP} {
		t.Run(name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), prog...), NumPreds: 3}
			IfConvertDiamonds(p)
			if len(p.Instrs) != len(prog) {
				t.Fatalf("got %v, want it unchanged", opsOf(p))
			}
		})
	}
}

func TestConvergenceBarrierMarksLaneDependentRegionsOnly(t *testing.T) {
	wait := func(p int) Instr {
		return Instr{Op: OpMbarTryWait, NDst: 1, Ops: []Operand{P(p), Addr(-1, 0), Imm(0)}, Class: ClassSyncs}
	}
	tests := []struct {
		name   string
		prog   []Instr
		marked int // index of the instruction that carries FConverge after conversion, or -1
	}{
		// 0 setp; 1 @p bra 3; 2 arrive; 3 try_wait; 4 @!p2 bra 3; 5 exit  ->  0 setp; 1 @!p arrive; 2 try_wait; 3 @!p2 bra 2
		{"a lane test before a wait loop: after the loop", []Instr{laneSetp(1), gbra(P(1), 3), arriveI(), wait(2), gbra(NotP(2), 3), {Op: OpExit}}, 3},
		{"a uniform test: none", []Instr{paramSetp(1), gbra(P(1), 3), arriveI(), wait(2), gbra(NotP(2), 3), {Op: OpExit}}, -1},
		{"a lane test then __syncwarp: none", []Instr{laneSetp(1), gbra(P(1), 3), arriveI(), {Op: OpBarWarpSync, Ops: []Operand{Imm(0xffffffff)}}, {Op: OpExit}}, -1},
		{"a lane test then arithmetic: the region's end", []Instr{laneSetp(1), gbra(P(1), 3), arriveI(), aluI(3, 3), {Op: OpExit}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog, NumPreds: 3}
			IfConvert(p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Flags.Has(FConverge); got != (i == tc.marked) {
					t.Fatalf("instruction %d (%v) FConverge %v; want the mark on %d", i, p.Instrs[i].Op, got, tc.marked)
				}
			}
		})
	}
}

func TestInvertBranchesOverJumpsMakesCUTLASSWaitLoopsFallThrough(t *testing.T) {
	wait := Instr{Op: OpMbarTryWait, NDst: 1, Flags: FHint, Ops: []Operand{P(1), Addr(-1, 0), Imm(0), Imm(10000000)}, Class: ClassSyncs}
	// 0: L: try_wait P1   1: @P1 bra DONE(3)   2: bra L(0)   3: DONE: exit
	p := &Program{Instrs: []Instr{wait, gbra(P(1), 3), gbra(Operand{}, 0), {Op: OpExit}}, NumPreds: 2}
	InvertBranchesOverJumps(p)
	if got := opsOf(p); len(got) != 3 {
		t.Fatalf("got %v, want try_wait, bra, exit", got)
	}
	if br := p.Instrs[1]; br.Guard != NotP(1) || br.Target != 0 {
		t.Errorf("got guard %+v target %d, want @!P1 bra 0", br.Guard, br.Target)
	}
	// A jump that another branch enters stays.
	q := &Program{Instrs: []Instr{gbra(P(2), 2), gbra(P(1), 3), gbra(Operand{}, 0), {Op: OpExit}}, NumPreds: 3}
	q.Instrs[0].Target = 2
	InvertBranchesOverJumps(q)
	if len(q.Instrs) != 4 {
		t.Errorf("got %v, want it unchanged", opsOf(q))
	}
}
