package sm

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// A pipe group of ready warps whose pipes are busy until pf is held: its
// warps wait until pf together, as one entry, where a visit a warp would
// put each on the calendar until pf and visit it again there (the one
// outcome either visit can have: only their pipes can hold ready warps).
// At pf the group returns to ready, its pipes checked once for all its
// warps. A held warp is in wait (q.at its pf), so an answer or a timer
// that brings it forward (lowered, woken) takes it out of its group as
// from the calendar.
//
// A warp the visit would move to wait takes its pipe's throttle as its
// reason there, accounted at that cycle; a warp whose reason is that
// throttle already keeps it (the visit's account would end one span of
// the reason and begin the next, the same total). With an observer
// attached, which would see those spans, the scan visits the warps
// instead (holdGroups false in tests compares the two).
var holdGroups = true

// mayHold reports whether pipe group g, busy until pf, can be held: no
// observer, and none of its warps held until another cycle (a pipe's free
// cycle brought forward, which the warps waiting until the earlier pf
// would not see).
func (s *SM) mayHold(q *warpQueues, g int, pf sim.Cycle) bool {
	return holdGroups && s.obs == nil && (q.heldMask&(1<<g) == 0 || q.heldAt[g] == pf)
}

// holdGroup moves the ready warps of pipe group g, whose pipes are busy
// until pf, to wait until pf as one group. Only the warps that joined
// ready from a look since they were last held can have a reason other
// than their pipe's throttle (q.unheld); the others, back from a hold,
// keep it. A held warp's checkAt and q.at are not written: heldAt says
// them (checkAtOf, atOf).
func (s *SM) holdGroup(now sim.Cycle, sc *scheduler, g int, pf sim.Cycle) {
	for m := sc.q.groups[g] & sc.q.unheld; m != 0; m &= m - 1 {
		wc := sc.warps[bits.TrailingZeros64(m)]
		if wc.reason != wc.curThrottle {
			s.account(wc, now)
			wc.reason = wc.curThrottle
		}
	}
	sc.q.hold(g, pf)
}

// hold moves the ready warps of pipe group g to wait until pf, held.
func (q *warpQueues) hold(g int, pf sim.Cycle) {
	ws := q.groups[g]
	q.unheld &^= ws
	q.ready &^= ws
	q.wait |= ws
	q.groups[g] = 0
	q.groupMask &^= 1 << g
	q.held[g] |= ws
	q.heldAt[g] = pf
	q.heldMask |= 1 << g
	q.heldNext = min(q.heldNext, pf)
}

// releaseHeld returns the held groups whose cycle has come by now to
// ready, where the scan checks their pipes (takeSpan, which a scan at
// heldNext takes), and the earliest cycle of those still held (sim.Never:
// none).
func (q *warpQueues) releaseHeld(now sim.Cycle) sim.Cycle {
	next := sim.Never
	for m := q.heldMask; m != 0; m &= m - 1 {
		g := bits.TrailingZeros64(m)
		if at := q.heldAt[g]; at > now {
			next = min(next, at)
			continue
		}
		ws := q.held[g]
		q.held[g] = 0
		q.heldMask &^= 1 << g
		q.wait &^= ws
		q.ready |= ws
		q.groups[g] |= ws
		q.groupMask |= 1 << g
	}
	return next
}

// heldMin is the earliest cycle a held group returns (sim.Never: none).
func (q *warpQueues) heldMin() sim.Cycle {
	next := sim.Never
	for m := q.heldMask; m != 0; m &= m - 1 {
		next = min(next, q.heldAt[bits.TrailingZeros64(m)])
	}
	return next
}

// heldAtOf returns the cycle warp i's held group returns to ready, if it
// is held.
func (q *warpQueues) heldAtOf(i int) (sim.Cycle, bool) {
	for m := q.heldMask; m != 0; m &= m - 1 {
		if g := bits.TrailingZeros64(m); q.held[g]&(1<<i) != 0 {
			return q.heldAt[g], true
		}
	}
	return 0, false
}

// atOf is q.at of waiting warp i: its held group's cycle if it is held.
func (q *warpQueues) atOf(i int) sim.Cycle {
	if q.heldMask != 0 {
		if at, ok := q.heldAtOf(i); ok {
			return at
		}
	}
	return q.at[i]
}

// checkAtOf is wc.checkAt, or its held group's cycle if it is held.
func (s *SM) checkAtOf(wc *wctx) sim.Cycle {
	if q := &s.sched[wc.sp].q; q.on && q.heldMask != 0 && q.wait&(1<<wc.pos) != 0 {
		if at, ok := q.heldAtOf(wc.pos); ok {
			return at
		}
	}
	return wc.checkAt
}

// leaveHeld takes warp i out of its held group and reports whether it was
// in one.
func (q *warpQueues) leaveHeld(i int) bool {
	for m := q.heldMask; m != 0; m &= m - 1 {
		g := bits.TrailingZeros64(m)
		if q.held[g]&(1<<i) != 0 {
			if q.held[g] &^= 1 << i; q.held[g] == 0 {
				q.heldMask &^= 1 << g
				q.heldNext = q.heldMin()
			}
			return true
		}
	}
	return false
}
