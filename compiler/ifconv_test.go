package compiler

import (
	"github.com/smsim/smsim/isa"
	"testing"
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
			IfConvertDiamonds(p)
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
			IfConvertDiamonds(p)
			if len(p.Instrs) != len(prog) {
				t.Fatalf("got %v, want it unchanged", opsOf(p))
			}
		})
	}
}

func TestConvergenceBarrierMarksLaneDependentRegionsOnly(t *testing.T) {
	wait := func(p int) isa.Instr {
		return isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	}
	tests := []struct {
		name   string
		prog   []isa.Instr
		marked int // index of the instruction that carries FConverge after conversion, or -1
	}{
		// 0 setp; 1 @p bra 3; 2 arrive; 3 try_wait; 4 @!p2 bra 3; 5 exit  ->  0 setp; 1 @!p arrive; 2 try_wait; 3 @!p2 bra 2
		{"a lane test before a wait loop: after the loop", []isa.Instr{laneSetp(1), gbra(isa.P(1), 3), arriveI(), wait(2), gbra(isa.NotP(2), 3), {Op: isa.OpExit}}, 3},
		{"a uniform test: none", []isa.Instr{paramSetp(1), gbra(isa.P(1), 3), arriveI(), wait(2), gbra(isa.NotP(2), 3), {Op: isa.OpExit}}, -1},
		{"a lane test then __syncwarp: none", []isa.Instr{laneSetp(1), gbra(isa.P(1), 3), arriveI(), {Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}}, {Op: isa.OpExit}}, -1},
		{"a lane test then arithmetic: the region's end", []isa.Instr{laneSetp(1), gbra(isa.P(1), 3), arriveI(), aluI(3, 3), {Op: isa.OpExit}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog, NumPreds: 3}
			IfConvert(p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Flags.Has(isa.FConverge); got != (i == tc.marked) {
					t.Fatalf("instruction %d (%v) FConverge %v; want the mark on %d", i, p.Instrs[i].Op, got, tc.marked)
				}
			}
		})
	}
}

func TestInvertBranchesOverJumpsMakesCUTLASSWaitLoopsFallThrough(t *testing.T) {
	wait := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Flags: isa.FHint, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.Imm(0), isa.Imm(10000000)}, Class: isa.ClassSyncs}
	// 0: L: try_wait P1   1: @P1 bra DONE(3)   2: bra L(0)   3: DONE: exit
	p := &isa.Program{Instrs: []isa.Instr{wait, gbra(isa.P(1), 3), gbra(isa.Operand{}, 0), {Op: isa.OpExit}}, NumPreds: 2}
	InvertBranchesOverJumps(p)
	if got := opsOf(p); len(got) != 3 {
		t.Fatalf("got %v, want try_wait, bra, exit", got)
	}
	if br := p.Instrs[1]; br.Guard != isa.NotP(1) || br.Target != 0 {
		t.Errorf("got guard %+v target %d, want @!P1 bra 0", br.Guard, br.Target)
	}
	// A jump that another branch enters stays.
	q := &isa.Program{Instrs: []isa.Instr{gbra(isa.P(2), 2), gbra(isa.P(1), 3), gbra(isa.Operand{}, 0), {Op: isa.OpExit}}, NumPreds: 3}
	q.Instrs[0].Target = 2
	InvertBranchesOverJumps(q)
	if len(q.Instrs) != 4 {
		t.Errorf("got %v, want it unchanged", opsOf(q))
	}
}
