package compiler

import "github.com/smsim/smsim/isa"

// ReloadSharedWindowInSleepLoops charges the shared window's read in loops that sleep.
var ReloadSharedWindowInSleepLoops = Pass{
	Name: "ReloadSharedWindowInSleepLoops",
	Doc: "libcu++'s barrier wait (cuda::barrier::wait, wait_parity) backs off with %globaltimer and nanosleep " +
		"when its try_waits keep failing, and in a loop that holds it ptxas forms shared addresses again from " +
		"the CTA's window (S2UR or S2R SR_CgaCtaId, then a LEA) where the PTX takes a shared variable's " +
		"address (SASS: calibration/h200 libpipe.sass, the consumer three times a tile; ptxpipe.sass's " +
		"cuda::barrier consumer twice). The read itself is short: calibration/h200 window.csv times it in a " +
		"chain of shared loads and in libcu++'s wait on a completed phase.",
	Run: reloadSharedWindowInSleepLoops,
}

// reloadSharedWindowInSleepLoops puts an OpDelay marked SchedReadWindow before
// every mov of a shared variable's address (HintSharedSym, which the PTX
// frontend sets) inside a loop that holds a nanosleep and no call; loops
// with a call are ReloadSharedWindowInCallLoops's. The SM makes it last
// latency.window_read cycles. Branches to such a mov go through its read.
// Programs with indirect branches are left as they are.
func reloadSharedWindowInSleepLoops(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	n := len(p.Instrs)
	reload := make([]bool, n)
	any := false
	for _, l := range isa.NewCFG(p, nil).Loops(p) {
		sleeps, calls := false, false
		for k := l.Head; k <= l.Latch; k++ {
			sleeps = sleeps || p.Instrs[k].Op == isa.OpNanosleep
			calls = calls || callsSubroutine(&p.Instrs[k])
		}
		if !sleeps || calls {
			continue
		}
		for k := l.Head; k <= l.Latch; k++ {
			if p.Instrs[k].Op == isa.OpMov && p.Instrs[k].Source.Has(isa.HintSharedSym) {
				reload[k], any = true, true
			}
		}
	}
	if any {
		insertReloads(p, reload, func(int) bool { return false }, isa.SchedReadWindow)
	}
}
