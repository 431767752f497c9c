package compiler

import "github.com/smsim/smsim/isa"

// markConvergence records ptxas's convergence barrier (BSSY before, BSYNC
// after) for an if-converted region whose condition may differ between
// lanes, j being the first instruction after it. A `bar.warp.sync` there
// makes it unnecessary: ptxas emits a WARPSYNC instead (SASS: microbench.cu's
// divergent32 arrives have no BSYNC). When a barrier wait loop follows,
// ptxas places the BSYNC after the loop (SASS: microbench.cu's divergent2,
// BSSY before the arrives, BSYNC after `TRYWAIT; @!P BRA`), so the loop's
// branch carries the mark and its waits are addressed per thread; otherwise
// the region's last instruction carries it. The SM charges branch.bsync
// cycles for SchedConverge when the warp leaves the region.
func markConvergence(p *isa.Program, j int) {
	if j <= 0 || j > len(p.Instrs) {
		return
	}
	if j < len(p.Instrs) && p.Instrs[j].Op == isa.OpBarWarpSync {
		return
	}
	if k := waitLoopEnd(p, j); k >= 0 {
		p.Instrs[k].Sched |= isa.SchedConverge
		for w := j; w < k; w++ {
			if isWait(p.Instrs[w].Op) {
				p.Instrs[w].Sched |= isa.SchedVecAddr
			}
		}
		return
	}
	p.Instrs[j-1].Sched |= isa.SchedConverge
}

// waitLoopEnd returns the back edge of a one-block barrier wait loop that
// starts at j, or -1.
func waitLoopEnd(p *isa.Program, j int) int {
	wait := false
	for k := j; k < len(p.Instrs); k++ {
		in := &p.Instrs[k]
		if isWait(in.Op) {
			wait = true
		}
		if endsRun(in) {
			if in.Op == isa.OpBra && int(in.Target) == j && in.Guard.Kind == isa.KPred && wait {
				return k
			}
			return -1
		}
	}
	return -1
}
