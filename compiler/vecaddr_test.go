package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// Which barrier waits ptxas addresses through a per-thread register
// (SchedVecAddr): those under lane-dependent control flow or guards, or through
// a lane-dependent address; not a wait loop at the top of the kernel, nor
// one under a branch on a kernel parameter.
func TestMarkDivergentWaitsFlagsWaitsUnderLaneDependentControl(t *testing.T) {
	wait := func(p int, addr isa.Operand) isa.Instr {
		return isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(p), addr, isa.Imm(0)}, Class: isa.ClassSyncs}
	}
	sym := isa.Addr(-1, 0)
	laneAddr := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	tidMov := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(4), isa.Spec(isa.STidX)}, Class: isa.ClassALU}
	tidSetp := func(p int, c isa.CmpOp) isa.Instr {
		return isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: c, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.R(4), isa.Imm(0)}, Class: isa.ClassALU}
	}
	tests := []struct {
		name string
		prog []isa.Instr
		want int // index of the one flagged wait, or -1
	}{
		{"a wait loop at the top", []isa.Instr{wait(1, sym), gbra(isa.NotP(1), 0), {Op: isa.OpExit}}, -1},
		{"under a branch on a parameter", []isa.Instr{paramSetp(2), gbra(isa.P(2), 4), wait(1, sym), gbra(isa.NotP(1), 2), {Op: isa.OpExit}}, -1},
		{"under a branch on the lane", []isa.Instr{laneSetp(2), gbra(isa.P(2), 4), wait(1, sym), gbra(isa.NotP(1), 2), aluI(5, 5), {Op: isa.OpExit}}, 2},
		// The lanes that branch leave: ptxas emits `@P EXIT`, and the code
		// after it stays uniform (calibration/h200 exitwait.sass: [UR5]).
		{"after a lane-dependent exit", []isa.Instr{laneSetp(2), gbra(isa.P(2), 4), wait(1, sym), gbra(isa.NotP(1), 2), {Op: isa.OpExit}}, -1},
		// The lanes that branch run other code, then leave: the paths only
		// meet to exit, but the code after the branch is divergent for
		// ptxas (the observer of calibration/h200's exitwait.cu notes).
		{"after a lane-dependent branch to code that exits", []isa.Instr{laneSetp(2), gbra(isa.NotP(2), 5), wait(1, sym), gbra(isa.NotP(1), 2), {Op: isa.OpExit}, aluI(5, 5), {Op: isa.OpExit}}, 2},
		{"under a lane-dependent guard", []isa.Instr{laneSetp(2), func() isa.Instr { w := wait(1, sym); w.Guard = isa.P(2); return w }(), {Op: isa.OpExit}}, 1},
		{"through a lane-dependent address", []isa.Instr{laneAddr, wait(1, isa.Addr(3, 0)), {Op: isa.OpExit}}, 1},
		{"in a loop whose exit depends on the lane", []isa.Instr{laneSetp(2), wait(1, sym), gbra(isa.P(2), 1), {Op: isa.OpExit}}, 1},
		// if (threadIdx.x == 0): one thread runs the region, whose values
		// ptxas keeps uniform (divcode.csv's producer waits through [UR15]).
		{"under if (threadIdx.x == 0)", []isa.Instr{tidMov, tidSetp(2, isa.CmpNe), gbra(isa.P(2), 5), wait(1, sym), gbra(isa.NotP(1), 3), {Op: isa.OpExit}}, -1},
		{"under if (threadIdx.x != 0)", []isa.Instr{tidMov, tidSetp(2, isa.CmpEq), gbra(isa.P(2), 5), wait(1, sym), gbra(isa.NotP(1), 3), aluI(5, 5), {Op: isa.OpExit}}, 3},
		{"under if (threadIdx.x == 0 && x)", []isa.Instr{tidMov, tidSetp(2, isa.CmpNe), paramSetp(0),
			{Op: isa.OpOr, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{isa.P(3), isa.P(2), isa.P(0)}, Class: isa.ClassALU},
			gbra(isa.P(3), 7), wait(1, sym), gbra(isa.NotP(1), 5), {Op: isa.OpExit}}, -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...), NumPreds: 4, NumRegs: 10}
			isa.Reconverge(p, nil)
			apply(MarkDivergentWaits, p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Sched.Has(isa.SchedVecAddr); got != (i == tc.want) {
					t.Errorf("instruction %d (%v): SchedVecAddr %v, want it only on %d", i, p.Instrs[i].Op, got, tc.want)
				}
			}
		})
	}
}

// The wait loop right after a lane-dependent if-converted region sits inside
// ptxas's convergence region (BSSY before the arrives, BSYNC after the loop:
// microbench.cu's divergent2 SASS), so its wait is vector-addressed too.
func TestWaitLoopAfterLaneDependentDiamondIsVectorAddressed(t *testing.T) {
	wait := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	prog := []isa.Instr{laneSetp(2), gbra(isa.P(2), 4), arriveI(), gbra(isa.Operand{}, 5), arriveI(), wait, gbra(isa.NotP(1), 5), {Op: isa.OpExit}}
	p := &isa.Program{Instrs: prog, NumPreds: 3}
	isa.Reconverge(p, nil)
	apply(IfConvertDiamonds, p)
	n := 0
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpMbarTryWait {
			n++
			if !p.Instrs[i].Sched.Has(isa.SchedVecAddr) {
				t.Errorf("wait at %d not marked SchedVecAddr: %v", i, opsOf(p))
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d waits after conversion: %v", n, opsOf(p))
	}
}

// ptxas encloses the retry loop of a vector-addressed wait in BSSY/BSYNC
// (calibration/h200/trywait.cu's k_vec<1>): the loop's back edge, and only
// it, converges (SchedConverge); a uniform wait's loop does not.
func TestVectorWaitRetryLoopConverges(t *testing.T) {
	wait := func(addr isa.Operand) isa.Instr {
		return isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(1), addr, isa.Imm(0)}, Class: isa.ClassSyncs}
	}
	laneAddr := isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.Spec(isa.SLaneID)}, Class: isa.ClassALU}
	for _, tc := range []struct {
		name string
		addr isa.Operand
		want bool
	}{{"vector address", isa.Addr(3, 0), true}, {"uniform address", isa.Addr(-1, 0), false}} {
		// 0 mov; 1 arrive; 2 wait; 3 @!p1 bra 2; 4 @p2 bra 1 (outer loop); 5 exit
		prog := []isa.Instr{laneAddr, arriveI(), wait(tc.addr), gbra(isa.NotP(1), 2), gbra(isa.P(2), 1), {Op: isa.OpExit}}
		p := &isa.Program{Instrs: prog, NumPreds: 3, NumRegs: 10}
		isa.Reconverge(p, nil)
		apply(MarkDivergentWaits, p)
		if got := p.Instrs[3].Sched.Has(isa.SchedConverge); got != tc.want {
			t.Errorf("%s: retry branch SchedConverge %v, want %v", tc.name, got, tc.want)
		}
		if p.Instrs[4].Sched.Has(isa.SchedConverge) {
			t.Errorf("%s: the outer loop's back edge converges too", tc.name)
		}
	}
}
