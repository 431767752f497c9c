package sm

import (
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// A scheduler keeps its warps in warpQueues while it holds from
// minQueued to maxQueued of them (one bit each in a word); otherwise it
// scans all its warps every cycle (scanAll): for a few warps a comparison
// each costs less than the queues' bookkeeping (GemmTMA's five warps,
// one or two a scheduler: 3 % more host instructions through the queues).
const (
	minQueued = 4
	maxQueued = 64
)

// warpQueues sorts a scheduler's warps by when the scan must look at them,
// so that a cycle's scan visits only the warps whose state may have changed
// rather than every warp. Bit i of a set is the scheduler's warps[i], so
// ascending bits are the warps in age order, which GTO's choice and the
// order of the stall observer's calls rely on. Every warp is in one of
// three sets:
//
//   - ready: ready to issue when last looked at and not picked; only their
//     pipes can hold them now (wctx.readyDeps), so they are checked a pipe
//     group at a time (groups: one look at a pair of pipes stands for all
//     the warps that wait for it) and visited only when their pipes are busy;
//   - due: looked at in the next scan, whatever its cycle (the warp just
//     picked, a ready barrier operation, a new or woken warp);
//   - wait: looked at again at their checkAt (at, by position), on a
//     calendar: the 63 cycles after the last scan a bucket each (cal, by
//     cycle mod 64), later ones (and sim.Never) in far; or, ready warps
//     whose pipes are busy, held a pipe group at a time until the pipes'
//     cycle (held, sched_hold.go).
//
// A warp the scan does not visit keeps its state and its reason, as the
// full scan left a warp it skipped or found ready and did not pick.
type warpQueues struct {
	on               bool // the scan uses the queues (minQueued to maxQueued warps)
	fits             bool // the scheduler's slots are at most maxQueued
	last             int  // the position of the warp in the slot issued last (scheduler.last; -1: none)
	ready, due, wait uint64
	unheld           uint64                   // ready warps that joined from a look since they were last held (sched_hold.go)
	groupMask        uint64                   // the pipe groups with ready warps (bit g: groups[g] != 0)
	groups           [maxPipeGroups]uint64    // the ready warps by pipe group (wctx.curGroup)
	heldMask         uint64                   // the held pipe groups (sched_hold.go; bit g: held[g] != 0)
	held             [maxPipeGroups]uint64    // the waiting warps of each held group
	heldAt           [maxPipeGroups]sim.Cycle // the cycle each held group returns to ready
	heldNext         sim.Cycle                // the earliest of those (sim.Never: none)
	pairs            []pipePair               // each pipe group's pipes (pipeGroups)
	at               [maxQueued]sim.Cycle     // checkAt of the waiting warps
	cal              [64]uint64               // waiting warps due in the 63 cycles after scanned, by cycle mod 64
	calMask          uint64                   // the buckets of cal that hold warps
	far              uint64                   // waiting warps due 64 or more cycles after scanned when they began to wait
	farMin           sim.Cycle                // the earliest cycle of those (sim.Never: none)
	scanned          sim.Cycle                // the cycle of the last scan: cal holds the cycles after it
	quiet            sim.Cycle                // no warp is due before it: the warps' earliest checkAt (scanAll) or first waiting cycle (schedule's empty scan), or a cycle not after the last scan; an event that changes a warp lowers it
}

// maxPipeGroups bounds a program's distinct pipe pairs (pipesOf: a pipe
// alone, or FMA-lite or integer with FMA-heavy).
const maxPipeGroups = numPipes + 2

// newWarpQueues returns the queues of a scheduler of at most n warps.
func newWarpQueues(n int) warpQueues {
	return warpQueues{fits: n <= maxQueued, last: -1, farMin: sim.Never, heldNext: sim.Never}
}

// follow starts or stops the queues for a scheduler whose warps are now
// warps. Started, they take every warp as the full scan left it: a warp
// whose checkAt is after the last scan waits for it, the others are due.
// Stopped, a warp's checkAt says what the full scan needs (a ready warp's,
// not kept up to date in ready, is before the next scan: it is visited).
func (q *warpQueues) follow(warps []*wctx) {
	on := q.fits && len(warps) >= minQueued
	if on == q.on {
		return
	}
	for m := q.heldMask; m != 0; m &= m - 1 { // a held warp's checkAt is its group's (holdGroup)
		g := bits.TrailingZeros64(m)
		for w := q.held[g]; w != 0; w &= w - 1 {
			warps[bits.TrailingZeros64(w)].checkAt = q.heldAt[g]
		}
	}
	*q = warpQueues{on: on, fits: q.fits, last: q.last, pairs: q.pairs, farMin: sim.Never, heldNext: sim.Never, scanned: q.scanned}
	if !on {
		return
	}
	for i, wc := range warps {
		if wc.checkAt > q.scanned {
			q.toWait(i, wc.checkAt)
		} else {
			q.due |= 1 << i
		}
	}
}

// takeBucket removes from wait the warps due at now, a cycle after the
// last scan and before any far warp is due, and returns them: one bucket,
// takeSpan's common case (small enough to be inlined in the scan).
func (q *warpQueues) takeBucket(now sim.Cycle) uint64 {
	q.scanned = now
	b := now & 63
	due := q.cal[b]
	q.cal[b] = 0
	q.calMask &^= 1 << b
	q.wait &^= due
	return due
}

// takeSpan removes the waiting warps whose cycle has come by now (the
// scan's cycle, after scanned) from wait and returns them: the buckets of
// the cycles scanned+1 .. now and the far warps.
func (q *warpQueues) takeSpan(now sim.Cycle) uint64 {
	span := ^uint64(0)
	if d := now - q.scanned; d < 64 {
		span = bits.RotateLeft64(1<<d-1, int((q.scanned+1)&63))
	}
	q.scanned = now
	due := uint64(0)
	for m := q.calMask & span; m != 0; m &= m - 1 {
		b := bits.TrailingZeros64(m)
		due |= q.cal[b]
		q.cal[b] = 0
	}
	q.calMask &^= span
	if now >= q.farMin {
		due |= q.takeFar(now)
	}
	if now >= q.heldNext {
		q.heldNext = q.releaseHeld(now)
	}
	q.wait &^= due
	return due
}

// takeFar returns the far warps whose cycle has come by now, moves those
// now within the calendar's reach to it, and finds farMin of the rest.
func (q *warpQueues) takeFar(now sim.Cycle) uint64 {
	due := uint64(0)
	q.farMin = sim.Never
	for m := q.far; m != 0; m &= m - 1 {
		i := bits.TrailingZeros64(m)
		switch at := q.at[i]; {
		case at <= now:
			due |= 1 << i
		case at-now < 64:
			q.cal[at&63] |= 1 << i
			q.calMask |= 1 << (at & 63)
		default:
			q.farMin = min(q.farMin, at)
			continue
		}
		q.far &^= 1 << i
	}
	return due
}

// waitMin returns the earliest cycle at which a waiting warp is due
// (sim.Never: none): a far warp may be due before the calendar's first,
// since far is relative to the scan at which it began to wait.
func (q *warpQueues) waitMin() sim.Cycle {
	first := min(q.farMin, q.heldNext)
	if q.calMask == 0 {
		return first
	}
	next := q.scanned + 1
	return min(first, next+sim.Cycle(bits.TrailingZeros64(bits.RotateLeft64(q.calMask, -int(next&63)))))
}

// gatherReady returns the ready warps whose pipes are free at now
// (candidates) and those whose pipes are busy and their group not held
// (sched_hold.go), which leave ready to be visited.
func (s *SM) gatherReady(now sim.Cycle, sc *scheduler) (free, busy uint64) {
	q := &sc.q
	for m := q.groupMask; m != 0; m &= m - 1 {
		g := bits.TrailingZeros64(m)
		pf := sc.pipeReady(q.pairs[g])
		if pf <= now {
			free |= q.groups[g]
			continue
		}
		if s.mayHold(q, g, pf) {
			s.holdGroup(now, sc, g, pf)
			continue
		}
		busy |= q.groups[g]
		q.unheld &^= q.groups[g]
		q.groups[g] = 0
		q.groupMask &^= 1 << g
	}
	q.ready &^= busy
	return free, busy
}

// toWait puts warp i in wait until cycle at, later than scanned.
func (q *warpQueues) toWait(i int, at sim.Cycle) {
	q.wait |= 1 << i
	q.at[i] = at
	if at-q.scanned < 64 {
		q.cal[at&63] |= 1 << i
		q.calMask |= 1 << (at & 63)
		return
	}
	q.far |= 1 << i
	q.farMin = min(q.farMin, at)
}

// toReady puts warp i, whose instruction takes pipe group g, in ready.
func (q *warpQueues) toReady(i int, g uint8) {
	q.ready |= 1 << i
	q.unheld |= 1 << i
	q.groups[g] |= 1 << i
	q.groupMask |= 1 << g
}

// leaveReady takes warp i, of pipe group g, out of ready.
func (q *warpQueues) leaveReady(i int, g uint8) {
	q.ready &^= 1 << i
	q.unheld &^= 1 << i
	if q.groups[g] &^= 1 << i; q.groups[g] == 0 {
		q.groupMask &^= 1 << g
	}
}

// lowered notes that warp i must be looked at by cycle at (an answer or a
// timer brought its checkAt forward): a waiting warp moves on the
// calendar, or to due if that cycle is not after the last scan.
func (q *warpQueues) lowered(i int, at sim.Cycle) {
	q.quiet = min(q.quiet, at)
	if !q.on || q.wait&(1<<i) == 0 || at >= q.atOf(i) {
		return
	}
	q.leaveWait(i)
	if at <= q.scanned {
		q.due |= 1 << i
		return
	}
	q.toWait(i, at)
}

// leaveWait takes warp i out of wait.
func (q *warpQueues) leaveWait(i int) {
	q.wait &^= 1 << i
	if q.heldMask != 0 && q.leaveHeld(i) {
		return
	}
	if q.far&(1<<i) != 0 {
		q.far &^= 1 << i
		q.findFarMin()
		return
	}
	b := q.at[i] & 63
	if q.cal[b] &^= 1 << i; q.cal[b] == 0 {
		q.calMask &^= 1 << b
	}
}

// woken moves warp i of pipe group g, whose readiness an event reset at
// now, from ready to due; a waiting one is looked at by now.
func (q *warpQueues) woken(i int, g uint8, now sim.Cycle) {
	q.quiet = min(q.quiet, now)
	if !q.on {
		return
	}
	if q.ready&(1<<i) != 0 {
		q.leaveReady(i, g)
		q.due |= 1 << i
	}
	q.lowered(i, now)
}

// added makes warp i (a new one, in slot) due; last is the slot issued
// last.
func (q *warpQueues) added(i, slot, last int) {
	q.quiet = 0
	if q.on {
		q.due |= 1 << i
	}
	if slot == last {
		q.last = i
	}
}

// removeAt drops warp i, which left the scheduler's list: the warps above
// it move down a position.
func (q *warpQueues) removeAt(i int) {
	q.quiet = 0
	switch {
	case q.last == i:
		q.last = -1
	case q.last > i:
		q.last--
	}
	if !q.on {
		return
	}
	below := uint64(1)<<i - 1
	drop := func(s uint64) uint64 { return s&below | s>>1&^below }
	q.ready, q.due, q.wait, q.far, q.unheld = drop(q.ready), drop(q.due), drop(q.wait), drop(q.far), drop(q.unheld)
	q.groupMask, q.calMask, q.heldMask = 0, 0, 0
	for g := range q.groups {
		if q.groups[g] = drop(q.groups[g]); q.groups[g] != 0 {
			q.groupMask |= 1 << g
		}
		if q.held[g] = drop(q.held[g]); q.held[g] != 0 {
			q.heldMask |= 1 << g
		}
	}
	for b := range q.cal {
		if q.cal[b] = drop(q.cal[b]); q.cal[b] != 0 {
			q.calMask |= 1 << b
		}
	}
	copy(q.at[i:], q.at[i+1:])
	q.findFarMin()
	q.heldNext = q.heldMin()
}

// findFarMin sets farMin from the far warps.
func (q *warpQueues) findFarMin() {
	q.farMin = sim.Never
	for m := q.far; m != 0; m &= m - 1 {
		q.farMin = min(q.farMin, q.at[bits.TrailingZeros64(m)])
	}
}

// pipeGroups numbers the distinct pipe pairs of a program's uops (u.group)
// and returns them by number: a scheduler checks its ready warps' pipes a
// group at a time.
func pipeGroups(us []uop) []pipePair {
	var pairs []pipePair
	for k := range us {
		g := 0
		for g < len(pairs) && pairs[g] != us[k].pipes {
			g++
		}
		if g == len(pairs) {
			pairs = append(pairs, us[k].pipes)
		}
		us[k].group = uint8(g)
	}
	return pairs
}
