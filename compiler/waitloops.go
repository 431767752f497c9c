package compiler

import "github.com/smsim/smsim/isa"

// HoistPastWaitLoops schedules the arithmetic after a wait loop before the wait.
var HoistPastWaitLoops = Pass{
	Name: "HoistPastWaitLoops",
	Doc: "ptxas lays a barrier wait loop out with its retry path out of line, and schedules the arithmetic " +
		"that follows the loop and is independent of it before the wait: in microbench.cu's k_arrive_wait the " +
		"loop counter's UIADD3 and ISETP sit before the TRYWAIT, the parity flip (whose register the wait " +
		"reads) after it (SASS: calibration/h200/README.md). Divisions move too, past barrier arrives, which " +
		"stay after the wait (wspipe.cu's producer computes its next tile's coordinates before its TRYWAIT " +
		"and arms the full barrier after it), and above the branch of an if-then region around the wait " +
		"(calibration/h200 ptxpipe.sass: the cuda::ptx producer's two divisions before the branch and the " +
		"TRYWAIT; prodonly.cu's multiply and mask stay after it). After an elected arrive and a __syncwarp(), " +
		"the counter's UIADD3 goes before the TRYWAIT and its ISETP right behind it (calibration/h200 " +
		"elect.sass: `ARRIVE; NOP; UIADD3; TRYWAIT; ISETP`).",
	Run: hoistPastWaitLoops,
}

// hoistPastWaitLoops moves the arithmetic after each barrier wait loop
//
//	L: mbarrier.try_wait p, ...; ...; @!p bra L;  S...
//
// above the loop. The loop must be one block ending in its only backward
// branch, hold an mbarrier try_wait or test_wait, and be entered by falling
// into it; S must be reached only by falling out of it, or also by one
// guarded forward branch over straight-line arithmetic and the loop — an
// if-then region around the wait, `if (t >= stages) wait(...)` — and then the
// moved instructions go before that branch, which they may not feed, when one
// of them is a division (they run on both paths). Moved are the unguarded
// arithmetic instructions (the arithmetic timing classes, divisions included;
// no clock read) at S's head, up to its first instruction that is neither
// arithmetic nor passable, that neither read what the loop writes nor write
// what it touches, and that keep their order with those left behind. Each
// runs as often as before, on the same lanes (every lane that enters the loop
// leaves it into S). After an elected arrive and a __syncwarp()
// (syncSeparated), the compares among them go into the loop right behind the
// wait instead. Programs with indirect branches are left as they are;
// reconvergence points are recomputed.
func hoistPastWaitLoops(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	for i := 0; i < len(p.Instrs); i++ {
		if moved := hoistPastWaitLoop(p, i); moved {
			isa.Reconverge(p, nil)
		}
	}
}

// passable reports whether arithmetic after a wait loop may be scheduled
// above in (it stays where it is): a barrier arrive, which reads only its
// operands and the barrier. wspipe.cu's producer computes its next tile's
// coordinates (two divisions) before waiting for the empty slot, and arms
// the full barrier and starts the copy right after the wait.
func passable(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx:
		return true
	case isa.OpBarWarpSync:
		// __syncwarp() with the full mask as an immediate: a NOP in the SASS
		// of a converged warp (microbench.cu's elected loop), which ptxas
		// schedules around (syncwarp.cu with it after the wait: the loop's
		// compare still sits before the TRYWAIT).
		return in.NSrc() == 1 && in.Src(0).Kind == isa.KImm && uint32(in.Src(0).Imm) == 0xffffffff
	}
	return false
}

// syncSeparated reports whether the straight-line code just above the wait
// loop that starts at t ends in a barrier arrive followed by a full-mask
// __syncwarp() (and nothing but arithmetic): the elected arrive of
// microbench.cu's elected loops, `if (lane == 0) arrive; __syncwarp();`.
// ptxas schedules that loop differently from the converged one: the
// __syncwarp() is a NOP right after the ARRIVE, the counter's UIADD3 sits
// before the TRYWAIT, and its ISETP after the TRYWAIT, not before it
// (calibration/h200/README.md, the elected loop's schedule: `ARRIVE; NOP;
// UIADD3; TRYWAIT`, 3 cycles from arrive to wait, against the converged
// loop's `ARRIVE; UIADD3; ISETP; TRYWAIT`, 8 cycles).
func syncSeparated(p *isa.Program, t int) bool {
	sync := false
	for k := t - 1; k >= 0; k-- {
		in := &p.Instrs[k]
		switch {
		case in.Op == isa.OpBarWarpSync && passable(in):
			sync = true
		case in.Op == isa.OpMbarArrive:
			// Only the plain arrive (A1T0, no count operand): with a count
			// (ART0), ptxas keeps the converged schedule, the NOP added
			// (microbench.cu's elected_arrive32 loop).
			return sync && in.NSrc() == 1 && !in.Flags.Has(isa.FExpectTx)
		case in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall || !arithmetic(in.Class) || isClockRead(in):
			return false
		}
	}
	return false
}

// holdsDivision reports whether one of the instructions is a division (a
// long sequence in SASS): what ptxas moves above the branch of an if-then
// region around a wait. ptxpipe.cu's producer has its two divisions and the
// coordinates' multiplies before the branch; prodonly.cu's producer, the
// same region followed by a multiply and a mask, keeps them after the
// TRYWAIT (SASS: calibration/h200 ptxpipe.sass, prodonly.sass).
func holdsDivision(ins []isa.Instr) bool {
	for i := range ins {
		if division(ins[i].Class) {
			return true
		}
	}
	return false
}

// skipBranch returns the index of the branch that makes the wait loop
// [t..b] the body of an if-then region — a guarded forward bra to b+1, the
// only other way into S, followed by straight-line arithmetic up to the
// loop (the parity and the barrier's address) — or -1 when there is none.
func skipBranch(p *isa.Program, t, b int, targeted []int) int {
	if targeted[b+1] != 1 {
		return -1
	}
	for k := t - 1; k >= 0; k-- {
		in := &p.Instrs[k]
		if in.Op == isa.OpBra {
			if int(in.Target) == b+1 && in.Guard.Kind == isa.KPred {
				return k
			}
			return -1
		}
		if targeted[k] != 0 || in.Op.Ends() || in.Op == isa.OpCall || !arithmetic(in.Class) || isClockRead(in) {
			return -1
		}
	}
	return -1
}

// hoistPastWaitLoop applies HoistPastWaitLoops to the loop whose back edge
// is instruction b, and reports whether it moved anything.
func hoistPastWaitLoop(p *isa.Program, b int) bool {
	br := &p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || t < 0 || t >= b || b+1 >= len(p.Instrs) {
		return false
	}
	targeted := isa.BranchTargets(p)
	if targeted[t] != 1 {
		return false
	}
	read, written := map[isa.Loc]bool{}, map[isa.Loc]bool{}
	// from is where the moved instructions go: the loop's head, or, when
	// the loop sits in an if-then region (a branch at skip jumps over an
	// arithmetic preamble and the loop to S), before that branch.
	from := t
	if targeted[b+1] != 0 {
		skip := skipBranch(p, t, b, targeted)
		if skip < 0 {
			return false
		}
		from = skip
		for k := skip; k < t; k++ {
			p.Instrs[k].Uses(func(r isa.Loc, dst bool) {
				if dst {
					written[r] = true
				} else {
					read[r] = true
				}
			})
		}
	}
	wait := false
	for k := t; k <= b; k++ {
		in := &p.Instrs[k]
		if k > t && targeted[k] != 0 || k < b && (in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall) {
			return false
		}
		if in.Op == isa.OpMbarTryWait || in.Op == isa.OpMbarTestWait {
			wait = true
		}
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				written[r] = true
			} else {
				read[r] = true
			}
		})
	}
	if !wait {
		return false
	}
	// A __syncwarp() between the warp's arrive and the wait keeps the loop's
	// compares after the wait (see syncSeparated).
	keepCompares := syncSeparated(p, from)
	// Walk S's head: move what is independent of the loop and of the
	// instructions left behind.
	var moved, late, kept []isa.Instr
	keptRead, keptWritten := map[isa.Loc]bool{}, map[isa.Loc]bool{}
	end := b + 1
	for ; end < len(p.Instrs); end++ {
		in := &p.Instrs[end]
		if end > b+1 && targeted[end] != 0 {
			break
		}
		arith := false
		if arithmetic(in.Class) {
			arith = !in.Op.IsBranch() && !in.Op.Ends() && !isClockRead(in)
		}
		if !arith && !passable(in) {
			break
		}
		ok := arith && in.Guard.Kind == isa.KNone
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				ok = ok && !read[r] && !written[r] && !keptRead[r] && !keptWritten[r]
			} else {
				ok = ok && !written[r] && !keptWritten[r]
			}
		})
		if ok && keepCompares && in.Op == isa.OpSetp && from == t {
			late = append(late, *in)
			continue
		}
		if ok {
			moved = append(moved, *in)
			continue
		}
		kept = append(kept, *in)
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				keptWritten[r] = true
			} else {
				keptRead[r] = true
			}
		})
	}
	if len(moved)+len(late) == 0 || from < t && !holdsDivision(moved) {
		return false
	}
	// The late compares go right behind the loop's try_wait (w), in the
	// loop: they read nothing the loop writes, so each retry computes the
	// same predicate again.
	w := b
	if len(late) > 0 {
		for w = t; p.Instrs[w].Op != isa.OpMbarTryWait && p.Instrs[w].Op != isa.OpMbarTestWait; w++ {
		}
	}
	// New order: [..from) moved [from..w] late (w..b] kept [end..). Old
	// index -> new index; S's head is targeted only at b+1 (by the skipping
	// branch), the kept part's start.
	m, l := len(moved), len(late)
	newIdx := func(old int) int {
		switch {
		case old < from:
			return old
		case old <= w:
			return old + m
		case old <= b+1:
			return old + m + l
		}
		return old
	}
	out := make([]isa.Instr, 0, len(p.Instrs))
	out = append(out, p.Instrs[:from]...)
	out = append(out, moved...)
	out = append(out, p.Instrs[from:w+1]...)
	out = append(out, late...)
	out = append(out, p.Instrs[w+1:b+1]...)
	out = append(out, kept...)
	out = append(out, p.Instrs[end:]...)
	for k := range out {
		if in := &out[k]; in.Op == isa.OpBra && in.Target >= 0 {
			in.Target = int32(newIdx(int(in.Target)))
		}
	}
	p.Instrs = out
	return true
}
