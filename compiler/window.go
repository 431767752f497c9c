package compiler

// ReloadSharedWindowInCallLoops models what a subroutine call inside a loop
// does to the loop's barrier and copy operations. Their shared-memory
// addresses are formed from the CTA's window in the cluster, which ptxas
// reads once (S2UR SR_CgaCtaId) and keeps in a uniform register before the
// loop; across a call the uniform registers are not preserved, so in a loop
// that contains one — a 64-bit integer division or remainder is a call to a
// subroutine in SASS, and nvcc's `(unsigned long long)x % y` keeps it on a
// path even when that path never runs — ptxas reads the window again right
// before each such operation, and the warp waits for the read. The SASS of
// calibration/h200/prodonly.cu shows it (two and three S2UR a trip), and
// the H200 measured the cost: a never-taken 64-bit remainder in the producer
// loop adds 184–208 cycles a trip (prodonly.csv mask_call, rem32_call).
//
// An OpDelay flagged FReloadWindow goes before each mbarrier arrive,
// expect_tx, try_wait or test_wait and each bulk copy that some path reaches
// from a 64-bit division, remainder or call, or from the back edge of a loop
// that holds one, without another such operation in between;
// the executor makes it last latency.window_reload cycles. A branch that
// arrives with the window held — a wait's retry — goes to the operation
// itself, any other through the reload. libcopy.cu's SASS shows the reuse:
// one S2UR before the arrive, none before the try_wait that follows it.
import "github.com/smsim/smsim/isa"

func ReloadSharedWindowInCallLoops(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	n := len(p.Instrs)
	// held[i]: on every path to instruction i the window is in a register:
	// read before the kernel's first instruction, lost at a call, read again
	// by a barrier or copy operation (which reloads it when it is not held).
	preds := isa.NewCFG(p, nil).Pred
	held := make([]bool, n)
	for i := range held {
		held[i] = true
	}
	// The back edge of a loop that holds a call does not carry the window
	// into the next trip: ptxas reads it again there (prodonly.cu's SASS
	// has an S2UR before the wait and the arrive of every trip, though the
	// copy of the trip before read it too).
	dropsWindow := make([]bool, n)
	for b := range p.Instrs {
		br := &p.Instrs[b]
		if br.Op != isa.OpBra || br.Target < 0 || int(br.Target) > b {
			continue
		}
		for k := int(br.Target); k <= b; k++ {
			if callsSubroutine(&p.Instrs[k]) {
				dropsWindow[b] = true
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
		insertReloads(p, reload, after, isa.FReloadWindow)
	}
}

// ReloadSharedWindowInSleepLoops models the shared window in a loop that
// sleeps. libcu++'s barrier wait (`cuda::barrier::wait`, `wait_parity`)
// backs off with `%globaltimer` and `nanosleep` when its try_waits keep
// failing, and in a loop that holds it ptxas forms shared addresses again
// from the CTA's window (S2UR or S2R SR_CgaCtaId) where the PTX takes a
// shared variable's address (calibration/h200 libpipe.cu's consumer: three a
// tile; ptxpipe.cu's cuda::barrier consumer: two). An OpDelay flagged
// FReadWindow (latency.window_read) goes before every mov of a shared
// variable's address (FSharedSym) inside a loop that holds a nanosleep and
// no call; loops with a call are ReloadSharedWindowInCallLoops's. The read
// itself is short: calibration/h200 window.csv times it in a chain of
// shared loads and in libcu++'s wait on a completed phase (a few cycles).
// Branches to such a mov go through its read.
func ReloadSharedWindowInSleepLoops(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	n := len(p.Instrs)
	reload := make([]bool, n)
	any := false
	for b := range p.Instrs {
		br := &p.Instrs[b]
		if br.Op != isa.OpBra || br.Target < 0 || int(br.Target) > b {
			continue
		}
		sleeps, calls := false, false
		for k := int(br.Target); k <= b; k++ {
			sleeps = sleeps || p.Instrs[k].Op == isa.OpNanosleep
			calls = calls || callsSubroutine(&p.Instrs[k])
		}
		if !sleeps || calls {
			continue
		}
		for k := int(br.Target); k <= b; k++ {
			if p.Instrs[k].Op == isa.OpMov && p.Instrs[k].Flags.Has(isa.FSharedSym) {
				reload[k], any = true, true
			}
		}
	}
	if any {
		insertReloads(p, reload, func(int) bool { return false }, isa.FReadWindow)
	}
}

// insertReloads puts a window reload (an OpDelay flagged flag,
// FReloadWindow or FReadWindow) before each instruction k with reload[k]. A branch to such an instruction
// from one after which held says the window is in a register (a wait's
// retry) goes to the instruction itself, any other through the reload.
func insertReloads(p *isa.Program, reload []bool, held func(int) bool, flag isa.Flags) {
	flags := make([]isa.Flags, len(p.Instrs))
	for k, r := range reload {
		if r {
			flags[k] = flag
		}
	}
	insertDelays(p, flags, held)
}

// insertDelays puts an OpDelay flagged flags[k] before each instruction k
// whose flags[k] is not zero. A branch to such an instruction goes through
// the delay, unless held(k) says the branch at k arrives with what the delay
// stands for already done (a wait's retry keeps the window in a register).
func insertDelays(p *isa.Program, flags []isa.Flags, held func(int) bool) {
	n := len(p.Instrs)
	newIdx := make([]int32, n+1)  // where old instruction k lands
	from := make([]int, 0, n+n/4) // old index of each new instruction, -1 for a delay
	out := make([]isa.Instr, 0, n+n/4)
	for k := 0; k < n; k++ {
		if flags[k] != 0 {
			out = append(out, isa.Instr{Op: isa.OpDelay, Ops: []isa.Operand{isa.Imm(0)}, Class: isa.ClassDelay, Flags: flags[k], Pos: p.Instrs[k].Pos})
			from = append(from, -1)
		}
		newIdx[k] = int32(len(out))
		out = append(out, p.Instrs[k])
		from = append(from, k)
	}
	newIdx[n] = int32(len(out))
	for k := range out {
		in := &out[k]
		if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) > n {
			continue
		}
		t := int(in.Target)
		nt := newIdx[t]
		if t < n && flags[t] != 0 && !held(from[k]) {
			nt--
		}
		in.Target = nt
	}
	p.Instrs = out
	isa.Reconverge(p, nil)
}

// callsSubroutine reports whether in is a call in SASS: a 64-bit integer
// division or remainder, or a call.
func callsSubroutine(in *isa.Instr) bool {
	if in.Op == isa.OpCall {
		return true
	}
	switch in.Class {
	case isa.ClassIDiv64, isa.ClassIDiv64Inv:
		return true
	}
	return false
}

// usesSharedWindow reports whether in names shared memory through the CTA's
// cluster window: mbarrier updates and waits and bulk copies.
func usesSharedWindow(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx, isa.OpMbarTryWait, isa.OpMbarTestWait, isa.OpBulkCopy, isa.OpBulkTensor, isa.OpBulkReduce:
		return true
	}
	return false
}
