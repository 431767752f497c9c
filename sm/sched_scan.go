package sm

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// schedule picks and issues one warp of a scheduler whose warps are in
// warpQueues; it returns the earliest cycle at which one of its warps
// could issue next.
func (s *SM) schedule(now sim.Cycle, sc *scheduler) sim.Cycle {
	q := &sc.q
	var visit uint64
	if now-q.scanned == 1 && now < q.farMin && now < q.heldNext {
		visit = q.takeBucket(now)
	} else {
		visit = q.takeSpan(now)
	}
	visit |= q.due
	var cand uint64
	if gm := q.groupMask; gm != 0 && gm&(gm-1) == 0 {
		// One pipe group ready, the common case: gatherReady's, inlined.
		g := bits.TrailingZeros64(gm)
		if pf := sc.pipeReady(q.pairs[g]); pf <= now {
			cand = q.groups[g]
		} else if s.mayHold(q, g, pf) {
			s.holdGroup(now, sc, g, pf)
		} else {
			visit |= q.groups[g]
			q.ready &^= q.groups[g]
			q.unheld &^= q.groups[g]
			q.groups[g], q.groupMask = 0, 0
		}
	} else if gm != 0 {
		free, busy := s.gatherReady(now, sc)
		cand, visit = free, visit|busy
	}
	// The warps whose state may have changed, in age order: the others
	// keep their reasons (accounted lazily), and the ready ones whose
	// pipes are free stay candidates without a look.
	var due, fresh uint64
	for m := visit; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		wc := sc.warps[i]
		// The cases of a visit, written out (as in scanAll): a call per
		// visit, with the scan's spills around it, costs as much as the
		// two common cases.
		switch {
		case wc.readyDeps:
			if pf := sc.pipeReady(wc.curPipes); pf > now {
				s.account(wc, now)
				wc.reason, wc.checkAt = wc.curThrottle, pf
				q.toWait(i, pf)
				continue
			}
			wc.checkAt = now + 1
			fresh |= 1 << i
		case wc.awaitDeps && wc.depPC == wc.curPC:
			s.account(wc, now)
			if pf := sc.pipeReady(wc.curPipes); pf > now {
				wc.reason, wc.checkAt = wc.curThrottle, pf
				q.toWait(i, pf)
				continue
			}
			wc.awaitDeps, wc.readyDeps = false, true
			wc.reason, wc.checkAt = ReasonNotSelected, now+1
			fresh |= 1 << i
		default:
			if s.look(now, wc) > now {
				q.toWait(i, wc.checkAt)
				continue
			}
			if wc.readyDeps {
				fresh |= 1 << i
			} else {
				due |= 1 << i // a barrier operation: a full look every cycle
			}
		}
		cand |= 1 << i
	}
	if cand == 0 {
		// Every warp waits (none is ready or due): until the first of them,
		// Tick need not call the scan (an event that changes a warp lowers
		// quiet: lowered, woken, added, removeAt).
		q.due = 0
		q.quiet = q.waitMin()
		return q.quiet
	}
	var i int
	if sc.gto {
		i = s.chooseGTO(sc, cand)
	} else {
		i = s.choose(sc, cand)
	}
	pick, bit := sc.warps[i], uint64(1)<<i
	if q.ready&bit != 0 {
		q.leaveReady(i, pick.curGroup)
	}
	// The ready warps found by this scan and not picked join ready.
	for m := fresh &^ bit; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		q.toReady(i, sc.warps[i].curGroup)
	}
	q.due = due | bit
	// The pick issues (written out as in scanAll: a call here, with the
	// spills around it, cost ~18 host instructions a warp instruction).
	sc.last, q.last = pick.slot, i
	s.account(pick, now)
	pick.reason = ReasonSelected
	pick.checkAt = now + 1
	pick.readyDeps = false
	s.issue(now, pick)
	if len(pick.predDue) > 0 && !pick.done { // an exited warp's scoreboard went to the pool
		s.pushPredicates(now, pick)
	}
	return now + 1
}

// chooseGTO returns the position of GTO's pick among the candidates cand
// (a set of warpQueues): the warp issued last while it is a candidate and
// did not yield, else the oldest candidate other than a warp that
// yielded, else that warp (sc.better's order, without comparing warp by
// warp).
func (s *SM) chooseGTO(sc *scheduler, cand uint64) int {
	if l := sc.q.last; l >= 0 && sc.last != sc.yield && cand&(1<<l) != 0 {
		return l
	}
	if sc.yield >= 0 {
		if yw := s.warps[sc.yield]; yw != nil && cand&^(1<<yw.pos) != 0 {
			cand &^= 1 << yw.pos
		}
	}
	return bits.TrailingZeros64(cand)
}

// choose returns the position of the warp the policy (LRR) picks among
// the candidates cand: the best by sc.better.
func (s *SM) choose(sc *scheduler, cand uint64) int {
	best := bits.TrailingZeros64(cand)
	for m := cand & (cand - 1); m != 0; m &= m - 1 {
		if i := bits.TrailingZeros64(m); sc.prefer(sc.warps[i], sc.warps[best]) {
			best = i
		}
	}
	return best
}

// quietScans lets scanAll return at once while no warp is due (q.quiet);
// tests compare it with the scan.
var quietScans = true

// scanAll is schedule for a scheduler of too few or too many warps for
// warpQueues: it looks at every warp, in age order.
func (s *SM) scanAll(now sim.Cycle, sc *scheduler) sim.Cycle {
	sc.q.scanned = now // where the queues' calendar starts if they start
	if now < sc.q.quiet && quietScans {
		return sc.q.quiet // no warp is due: the scan would skip each and return this
	}
	next := sim.Never
	var pick, lastReady *wctx
	// GTO with no yield pending picks the oldest ready warp: the first
	// ready one in warps' order (add), compared with no other.
	oldestFirst := sc.gto && sc.yield < 0
	last := sc.last
	for _, wc := range sc.warps {
		// A warp whose state cannot have changed since it was last looked
		// at keeps its reason (accounted lazily) and costs one comparison.
		if wc.checkAt > now {
			next = min(next, wc.checkAt)
			continue
		}
		// The cases of schedule's visits (there written out for the same
		// reason: a call per visit costs as much as the common cases).
		switch {
		case wc.readyDeps:
			// Ready since it was last looked at and not picked: only its
			// pipe can have become busy. Its reason (not_selected) stands.
			if pf := sc.pipeReady(wc.curPipes); pf > now {
				s.account(wc, now)
				wc.reason, wc.checkAt = wc.curThrottle, pf
				next = min(next, pf)
				continue
			}
			wc.checkAt = now + 1
		case wc.awaitDeps && wc.depPC == wc.curPC:
			// Its operands are ready now, as found when it was last looked
			// at (whatever changes them resets depPC): only its pipe can
			// hold it. The outcome is a full look's.
			s.account(wc, now)
			if pf := sc.pipeReady(wc.curPipes); pf > now {
				wc.reason, wc.checkAt = wc.curThrottle, pf
				next = min(next, pf)
				continue
			}
			wc.awaitDeps, wc.readyDeps = false, true
			wc.reason, wc.checkAt = ReasonNotSelected, now+1
		default:
			if r := s.look(now, wc); r > now {
				next = min(next, r)
				continue
			}
		}
		if wc.slot == last {
			lastReady = wc
		}
		switch {
		case pick == nil:
			pick = wc
		case !oldestFirst:
			pick = sc.better(wc, pick)
		}
	}
	pick = sc.greedy(pick, lastReady)
	if pick == nil {
		sc.q.quiet = next
		return next
	}
	sc.last, sc.q.last = pick.slot, pick.pos
	s.account(pick, now)
	pick.reason = ReasonSelected
	pick.checkAt = now + 1
	pick.readyDeps = false
	s.issue(now, pick)
	if len(pick.predDue) > 0 && !pick.done { // an exited warp's scoreboard went to the pool
		s.pushPredicates(now, pick)
	}
	// The issue cycle is "selected"; the SM ticks again at now+1, where the
	// warp is looked at again (checkAt) and gets the reason of its next wait.
	return now + 1
}
