package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// scheduler is one sub-partition's warp scheduler: the warps resident in
// the sub-partition, the choice among those ready to issue (GTO or LRR, and
// the control bits' yield), its execution pipes (pipes.go), its port for
// resuming warps whose waits answered, and its shared-memory pipe's queue.
type scheduler struct {
	policy       Policy
	gto          bool      // policy is GTO (compared once, not at every scan: Policy is a string)
	slots        uint64    // warp slots of the SM (LRR's order goes round them)
	wakeInterval sim.Cycle // sched.wake_interval: between two resumes through the port

	warps    []*wctx             // resident warps of this sub-partition, oldest first
	last     int                 // slot of the warp issued last (-1: none)
	yield    int                 // slot of a warp whose last instruction yielded (Ctrl.Yield): the next issue prefers another (-1: none)
	pipeFree [numPipes]sim.Cycle // per pipe (pipes.go): next cycle it accepts a warp instruction
	wakeFree sim.Cycle           // next cycle its port may resume a warp whose try_wait answered true (takePort)
	lsuFree  sim.Cycle           // next cycle its shared-memory pipe starts an access (the MIO queue drains)
	// arrayAt is when the data array takes each of the sub-partition's
	// last smem.queue shared accesses (a ring; arrayNext its oldest): they
	// wait for it in the MIO queue.
	arrayAt   [maxMIOQueue]sim.Cycle
	arrayNext int
	q         warpQueues // which warps the next scan looks at (sched_sets.go)
}

// newScheduler returns an idle scheduler of an SM with slots warp slots.
func newScheduler(spec SchedSpec, slots int) scheduler {
	k := max(spec.Count, 1)
	n := (slots + k - 1) / k // the warps a scheduler holds, at most, where slots go round the schedulers
	return scheduler{policy: spec.Policy, gto: spec.Policy == GTO, slots: uint64(slots), wakeInterval: sim.Cycle(spec.WakeInterval), last: -1, yield: -1,
		warps: make([]*wctx, 0, n), q: newWarpQueues(n)}
}

// add makes wc one of the scheduler's warps (the youngest: warps stays in
// launch order, oldest first, which GTO's choice relies on), looked at in
// the next scan.
func (sc *scheduler) add(wc *wctx) {
	wc.pos = len(sc.warps)
	sc.warps = append(sc.warps, wc)
	sc.q.added(wc.pos, wc.slot, sc.last)
	sc.q.follow(sc.warps)
}

// remove drops a warp that has exited; its slot may go to a warp of the next CTA.
func (sc *scheduler) remove(wc *wctx) {
	if sc.yield == wc.slot {
		sc.yield = -1
	}
	i := wc.pos
	sc.warps = append(sc.warps[:i], sc.warps[i+1:]...)
	for _, x := range sc.warps[i:] {
		x.pos--
	}
	sc.q.removeAt(i)
	sc.q.follow(sc.warps)
}

// better returns the better of a ready warp and the pick so far (nil: none).
func (sc *scheduler) better(wc, pick *wctx) *wctx {
	if pick == nil || sc.prefer(wc, pick) {
		return wc
	}
	return pick
}

// prefer reports whether candidate a beats b under the scheduler policy; a
// warp that yielded loses to any other. GTO prefers the oldest; LRR the
// first slot after the one issued last.
func (sc *scheduler) prefer(a, b *wctx) bool {
	if sc.yield >= 0 && (a.slot == sc.yield) != (b.slot == sc.yield) {
		return b.slot == sc.yield
	}
	if sc.policy == LRR {
		n := sc.slots
		da := (uint64(a.slot) + n - uint64(sc.last) - 1) % n
		db := (uint64(b.slot) + n - uint64(sc.last) - 1) % n
		return da < db
	}
	return a.age < b.age
}

// greedy applies GTO's greed to the pick: the warp issued last keeps the
// issue while it is ready (lastReady, nil if it is not) and did not yield.
func (sc *scheduler) greedy(pick, lastReady *wctx) *wctx {
	if sc.gto && lastReady != nil && sc.last != sc.yield {
		return lastReady
	}
	return pick
}

// setYield records the control bits' yield of the instruction the warp in
// slot issued: the next issue prefers another warp.
func (sc *scheduler) setYield(slot int, yield bool) {
	sc.yield = -1
	if yield {
		sc.yield = slot
	}
}

// takePort books the scheduler's port for resuming a warp whose try_wait
// answered true, at cycle now: a scheduler resumes one such warp every
// sched.wake_interval cycles (stamps.csv uniform_wake: the 16 waiters and
// the arriving warp, five of them on the arriving warp's scheduler, resume
// over 44 cycles). If the port is busy at now it returns false, and when
// the port is free.
func (sc *scheduler) takePort(now sim.Cycle) (sim.Cycle, bool) {
	if sc.wakeInterval <= 0 {
		return now, true
	}
	if sc.wakeFree > now {
		return sc.wakeFree, false
	}
	sc.wakeFree = now + sc.wakeInterval
	return now, true
}

// resumesThroughPort reports whether answers resume warps through the port
// (sched.wake_interval > 0) rather than at once.
func (sc *scheduler) resumesThroughPort() bool { return sc.wakeInterval > 0 }

// Tick runs one SM cycle. Stages run back to front: completions were
// delivered by events earlier in the cycle (PhaseDeliver), so each
// sub-partition scheduler now picks at most one ready warp and issues its
// instruction. It returns the next cycle at which any warp could issue, so
// an SM whose warps all wait costs no ticks until something is ready.
func (s *SM) Tick(now sim.Cycle) (sim.Cycle, error) {
	if s.err != nil {
		return sim.Never, s.err
	}
	s.stats.Ticks++
	next := sim.Never
	for p := range s.sched {
		sc := &s.sched[p]
		var n sim.Cycle
		switch {
		case now < sc.q.quiet && quietScans:
			// No warp of the scheduler is due before quiet (scanAll's first
			// case, without the call; the queues' calendar keeps the cycle
			// of their last scan, which takeSpan starts from).
			if !sc.q.on {
				sc.q.scanned = now
			}
			n = sc.q.quiet
		case sc.q.on:
			n = s.schedule(now, sc)
		default:
			n = s.scanAll(now, sc)
		}
		next = min(next, n)
		if s.err != nil {
			return sim.Never, s.err
		}
	}
	if err := s.watchdog(now); err != nil {
		return sim.Never, err
	}
	return next, nil
}

// look is a full look at a warp: when its current instruction can issue
// (now if it is ready, sim.Never if no split can run) and the reason it
// waits until then. It notes what a later look may skip: a ready warp's
// pipes (readyDeps), or that at the returned cycle only its pipes can hold
// it (awaitDeps).
func (s *SM) look(now sim.Cycle, wc *wctx) sim.Cycle {
	wc.awaitDeps = false
	s.account(wc, now)
	sp := wc.w.Current()
	if sp == nil {
		wc.reason = s.blockedReason(wc)
		wc.checkAt = sim.Never // an event (timer, wake-up) resets it
		return sim.Never
	}
	u := &s.uops[sp.PC]
	r, why := s.readyAt(now, wc, sp, u)
	if r > now {
		wc.reason, wc.checkAt = why, r
		if u.await {
			// At r its operands are ready and only its pipe can hold it,
			// unless depPC is reset meanwhile (a Scheduled program's look
			// sets it here: readyAt does not).
			wc.awaitDeps, wc.curPC, wc.curPipes, wc.curGroup, wc.curThrottle = true, sp.PC, u.pipes, u.group, u.throttle
			wc.depPC = sp.PC
		}
		return r
	}
	wc.checkAt = now + 1
	wc.reason = ReasonNotSelected
	if !u.syncs {
		wc.readyDeps, wc.curPC, wc.curPipes, wc.curGroup, wc.curThrottle = true, sp.PC, u.pipes, u.group, u.throttle
	}
	return now
}

// account adds the cycles since the warp's last accounting to its current
// reason, and tells the observer (none, the common case, costs one
// comparison inlined).
func (s *SM) account(wc *wctx, now sim.Cycle) {
	if now > wc.acctAt {
		s.accountSince(wc, now)
	}
}

// accountSince is account of a warp with cycles to account.
func (s *SM) accountSince(wc *wctx, now sim.Cycle) {
	if from, ok := wc.charge(now); ok && s.obs != nil {
		what := ""
		if wc.reason == ReasonMbarrier && len(wc.openWaits) > 0 {
			ow := wc.openWaits[len(wc.openWaits)-1]
			what = fmt.Sprintf("%s phase %d", ow.b.name, ow.phase)
		}
		s.obs.Stall(wc.slot, uint64(from-s.start), uint64(now-s.start), wc.reason, what)
	}
}

// charge adds the cycles from the warp's last accounting to now to its
// current reason (the reason holds from when it was set until the warp is
// looked at again), and returns the first of them; false if there are
// none.
func (wc *wctx) charge(now sim.Cycle) (sim.Cycle, bool) {
	if now <= wc.acctAt {
		return 0, false
	}
	from := wc.acctAt
	wc.stall[wc.reason] += uint64(now - from)
	wc.acctAt = now
	return from, true
}

// readyAt returns when the warp's current instruction (split sp's, whose
// uop is u) can issue, and what it waits for: its operands and the warp's
// own holds, then its units (unitsReady, written out here for the common
// instruction that only a pipe can hold).
func (s *SM) readyAt(now sim.Cycle, wc *wctx, sp *warp.Split, u *uop) (sim.Cycle, Reason) {
	if s.prog.Scheduled {
		return s.ctrlReadyAt(now, wc, sp, &s.prog.Instrs[sp.PC], u)
	}
	if wc.depPC != sp.PC || wc.depSplit != wc.w.CurrentIndex() {
		// Its operands' readiness, kept for its pc and split until a
		// result or an issue changes the scoreboard (depPC -1).
		wc.depPC, wc.depSplit = sp.PC, wc.w.CurrentIndex()
		wc.depReady, wc.depReason = wc.regBoard.readyAt(u.deps, u.path, sim.Cycle(s.cfg.Pipes.MUFUForward))
	}
	r, why := wc.depReady, wc.depReason
	if wc.busyUntil > r {
		r, why = wc.busyUntil, ReasonWait
	}
	if wc.heldUntil > r {
		r, why = wc.heldUntil, ReasonMembar
	}
	if wc.hold >= 0 && wc.ent[wc.hold].at > r {
		r, why = wc.ent[wc.hold].at, ReasonMbarrier
	}
	if u.syncs {
		return s.unitsReady(wc, sp.PC, u, r, why)
	}
	if pf := s.sched[wc.sp].pipeReady(u.pipes); pf > r {
		r, why = pf, u.throttle
	}
	return r, why
}

// unitsReady returns when the pipes and queues instruction pc (whose uop
// is u) needs take it, if later than r (with its reason why).
func (s *SM) unitsReady(wc *wctx, pc int32, u *uop, r sim.Cycle, why Reason) (sim.Cycle, Reason) {
	if pf := s.sched[wc.sp].pipeReady(u.pipes); pf > r {
		r, why = pf, u.throttle
	}
	if u.syncs {
		in := &s.prog.Instrs[pc]
		if wc.syncsFree > r {
			r, why = wc.syncsFree, ReasonMIOThrottle
		}
		// The barrier unit holds syncs.queue updates; more stall their issue.
		if in.Op != isa.OpMbarTestWait && in.Op != isa.OpMbarTryWait {
			if at := s.syncs.issueAt(); at > r {
				r, why = at, ReasonMIOThrottle
			}
		}
	}
	return r, why
}

func throttleReason(c isa.Class) Reason {
	switch c {
	case isa.ClassShared, isa.ClassSyncs, isa.ClassWarpSync:
		return ReasonMIOThrottle
	case isa.ClassGlobal, isa.ClassLocal, isa.ClassTMA:
		return ReasonLGThrottle
	}
	return ReasonMathPipeThrottle
}

// blockedReason names what a warp with no runnable split waits for.
func (s *SM) blockedReason(wc *wctx) Reason {
	why := ReasonBranchResolving
	for i := range wc.w.Splits() {
		sp := wc.w.Split(i)
		switch sp.State {
		case warp.Blocked:
			return Reason(sp.WaitKind >> 4)
		case warp.AtWarpSync, warp.AtBsync:
			why = ReasonBarrier
		}
	}
	return why
}

// wakeWarp makes sure the SM ticks at cycle at (a blocked warp became runnable).
func (s *SM) wakeWarp(at sim.Cycle) { s.clk.WakeAt(at) }
