package compiler

import "github.com/smsim/smsim/isa"

// ReloadSharedWindowInCallLoops charges the shared window's reload in loops with a call.
var ReloadSharedWindowInCallLoops = Pass{
	Name: "ReloadSharedWindowInCallLoops",
	Doc: "A barrier's or a bulk copy's shared-memory address is formed from the CTA's window in the cluster, " +
		"which ptxas reads once (S2UR SR_CgaCtaId) and keeps in a uniform register before the loop. Across a " +
		"call the uniform registers are not preserved, so in a loop that holds one — a 64-bit integer " +
		"division or remainder is a call to a subroutine in SASS, and nvcc's `(unsigned long long)x % y` " +
		"keeps it on a path even when that path never runs — ptxas reads the window again right before each " +
		"such operation a trip reaches from the call or the back edge, and the warp waits for it (SASS: " +
		"calibration/h200 prodonly.sass, two and three S2UR a trip; the H200's prodonly.csv mask_call and " +
		"rem32_call rows measure the cost).",
	Run: reloadSharedWindowInCallLoops,
}

// reloadSharedWindowInCallLoops puts an OpDelay marked SchedReloadWindow before
// each mbarrier arrive, expect_tx, try_wait or test_wait and each bulk copy
// (usesSharedWindow) that some path reaches from a 64-bit division,
// remainder or call (callsSubroutine), or from the back edge of a loop that
// holds one, without another such operation in between; the SM makes it last
// latency.window_reload cycles. A branch that arrives with the window held —
// a wait's retry — goes to the operation itself, any other through the
// reload (libcopy.sass: one S2UR before the arrive, none before the try_wait
// that follows it). Programs with indirect branches are left as they are.
func reloadSharedWindowInCallLoops(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	n := len(p.Instrs)
	// held[i]: on every path to instruction i the window is in a register:
	// read before the kernel's first instruction, lost at a call, read again
	// by a barrier or copy operation (which reloads it when it is not held).
	cfg := isa.NewCFG(p, nil)
	preds := cfg.Pred
	held := make([]bool, n)
	for i := range held {
		held[i] = true
	}
	// The back edge of a loop that holds a call does not carry the window
	// into the next trip: ptxas reads it again there (prodonly.sass
	// has an S2UR before the wait and the arrive of every trip, though the
	// copy of the trip before read it too).
	dropsWindow := make([]bool, n)
	for _, l := range cfg.Loops(p) {
		for k := l.Head; k <= l.Latch; k++ {
			if callsSubroutine(&p.Instrs[k]) {
				dropsWindow[l.Latch] = true
				break
			}
		}
	}
	after := func(i int) bool { // the state after instruction i
		switch in := &p.Instrs[i]; {
		case callsSubroutine(in), dropsWindow[i]:
			return false
		case usesSharedWindow(in):
			return true
		}
		return held[i]
	}
	for changed := true; changed; {
		changed = false
		for i := 0; i < n; i++ {
			h := true // the kernel's entry (i == 0) arrives with it held
			for _, q := range preds[i] {
				if !after(int(q)) {
					h = false
					break
				}
			}
			if h != held[i] {
				held[i], changed = h, true
			}
		}
	}
	reload := make([]bool, n)
	any := false
	for k := 0; k < n; k++ {
		if usesSharedWindow(&p.Instrs[k]) && !held[k] {
			reload[k], any = true, true
		}
	}
	if any {
		insertReloads(p, reload, after, isa.SchedReloadWindow)
	}
}
