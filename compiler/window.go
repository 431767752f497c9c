package compiler

import "github.com/smsim/smsim/isa"

// The shared-memory window. A shared address in SASS is formed from the
// CTA's window in the cluster (SR_CgaCtaId), which ptxas reads into a
// uniform register once where it can (ReloadSharedWindowInCallLoops,
// ReloadSharedWindowInSleepLoops say where it cannot).

// insertReloads puts a window reload (an OpDelay marked hint,
// SchedReloadWindow or SchedReadWindow) before each instruction k with reload[k]. A branch to such an instruction
// from one after which held says the window is in a register (a wait's
// retry) goes to the instruction itself, any other through the reload.
func insertReloads(p *isa.Program, reload []bool, held func(int) bool, hint isa.SchedHints) {
	hints := make([]isa.SchedHints, len(p.Instrs))
	for k, r := range reload {
		if r {
			hints[k] = hint
		}
	}
	insertDelays(p, hints, held)
}
