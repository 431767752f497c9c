package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestConvergenceBarrierMarksLaneDependentRegionsOnly(t *testing.T) {
	wait := func(p int) isa.Instr {
		return isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	}
	tests := []struct {
		name   string
		prog   []isa.Instr
		marked int // index of the instruction that carries SchedConverge after conversion, or -1
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
			apply(IfConvert, p)
			for i := range p.Instrs {
				if got := p.Instrs[i].Sched.Has(isa.SchedConverge); got != (i == tc.marked) {
					t.Fatalf("instruction %d (%v) SchedConverge %v; want the mark on %d", i, p.Instrs[i].Op, got, tc.marked)
				}
			}
		})
	}
}
