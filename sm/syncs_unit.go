package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// syncsOp is one operation of the barrier (SYNCS) unit: one group of lanes
// of one warp instruction on one barrier.
type syncsOp struct {
	in     *isa.Instr
	wc     *wctx
	slot   int
	addr   uint32
	lanes  uint32
	count  uint64
	tx     uint64
	vals   warp.Vec // token or parity operands of waits, per lane
	ticket uint64   // try_wait: the blocked split
	epoch  uint64   // the CTA's bar.sync generation when the op was issued
	inc    bool     // cp.async.mbarrier.arrive's immediate pending increment
	issued sim.Cycle
	last   bool // last group of its instruction
	groups uint8
	at     sim.Cycle
	target *cta // the CTA of another SM whose barrier a remote operation updates (nil: the warp's own)
	landed bool // a bulk copy into target's shared memory: complete its tx bytes on the barrier
}

// cta is the CTA whose barrier the operation reaches.
func (op *syncsOp) cta() *cta {
	if op.target != nil {
		return op.target
	}
	return op.wc.c
}

// syncsUnit is the barrier (SYNCS) unit: it applies the warps' mbarrier
// updates in issue order and answers their phase checks, and it decides
// when each of these, and the answers and wake-ups of the waits, happen.
// What an operation does to its mbarrier is the SM's (syncs.go, waits.go):
// the unit only times it.
//
//	update: issue ──Latency──► apply ──Result──► token usable
//	        successive applies at least Interval apart (CountInterval for a counted arrive),
//	        at most Queue of them waiting before the warps stop issuing more
//	check:  issue ──Check (TestWait)──► check, after the warp's earlier updates
//	        and every update issued before it; CheckCost of the unit's cycles
//	answer: true no sooner than Acquire after the wait's issue; a suspended
//	        try_wait's false answer at its time limit (TryWaitTimeout,
//	        TryWaitHintTimeout), counted from its issue
//	wake:   phase complete ──WakeCost of the unit's cycles per waiter──►
//	        answered ──TryWaitWake (+ Visibility for other warps)──► resumes
//
// Updates and checks share the unit's cycles through a calendar (slots):
// checks, having a shorter latency, fill the gaps between updates that were
// scheduled further ahead.
type syncsUnit struct {
	spec    SyncsSpec
	updates updateQueue
	checks  checkPool
	slots   slotCalendar
	free    sim.Cycle // next cycle an update may be applied
}

// newSyncsUnit returns an idle unit.
func newSyncsUnit(spec SyncsSpec) syncsUnit { return syncsUnit{spec: spec} }

// busy reports whether operations are in flight.
func (u *syncsUnit) busy() bool { return u.updates.n > 0 || u.checks.n > 0 }

// scheduleUpdate returns the cycle at which an update of instruction in,
// issued at now, is applied: Latency later, in the first free slot of the
// unit (it occupies updateInterval cycles), and never before an earlier
// update (updates are applied in order).
func (u *syncsUnit) scheduleUpdate(now sim.Cycle, in *isa.Instr) sim.Cycle {
	at := now + sim.Cycle(u.spec.Latency)
	if u.free > at {
		at = u.free
	}
	at = u.slots.reserve(now, at, u.spec.updateInterval(in))
	u.free = at + 1
	return at
}

// updateInterval is how many of the barrier unit's cycles an update takes:
// syncs.interval, or syncs.count_interval for an arrive with an explicit
// count operand, which the SASS issues as a different instruction
// (SYNCS.ARRIVE.TRANS64.ART0, the count from a register, against A1T0).
func (c *SyncsSpec) updateInterval(in *isa.Instr) int {
	if in.Op == isa.OpMbarArrive && in.NSrc() >= 2 && !in.Flags.Has(isa.FExpectTx) && !in.Flags.Has(isa.FNoComplete) {
		return c.CountInterval
	}
	return c.Interval
}

// issueAt returns the first cycle at which a new update may issue: the unit
// holds Queue updates waiting to be applied, and the warps stop issuing
// more while it is full (0: now).
func (u *syncsUnit) issueAt() sim.Cycle {
	backlog := sim.Cycle(u.spec.Latency + u.spec.Queue*u.spec.Interval)
	if u.free > backlog {
		return u.free - backlog
	}
	return 0
}

// warpNext is when a warp that issued a barrier operation at now may issue
// its next one.
func (u *syncsUnit) warpNext(now sim.Cycle) sim.Cycle { return now + sim.Cycle(u.spec.WarpInterval) }

// scheduleCheck returns the cycle of a phase check of a wait op issued at
// now by a warp whose latest update is applied at after. The unit is one
// FIFO: a check comes after every update issued before it (whichever warp
// issued it), sooner when the unit is idle (its own latency), and takes a
// slot like an update. A warp already waiting on the barrier (registered)
// is known to the unit: its repeated polls take no further slots — unless
// the wait goes through a per-thread (vector) address, one ptxas places
// under divergent control (compiler.MarkDivergentWaits), which is a new set
// of per-thread checks at every poll.
func (u *syncsUnit) scheduleCheck(now sim.Cycle, op isa.Op, after sim.Cycle, registered, perThread bool) sim.Cycle {
	lat := u.spec.Check
	if op == isa.OpMbarTestWait {
		lat = u.spec.TestWait
	}
	at := max(now+sim.Cycle(lat), after, u.free)
	if !registered {
		return u.slots.reserve(now, at, u.spec.CheckCost)
	}
	if perThread {
		u.slots.reserve(now, at, u.spec.CheckCost)
	}
	return at
}

// ldcDelay books a constant load (LDC) issued at now in the unit's
// calendar and returns how much later than its own latency its result
// comes. The SM's constant loads and its barrier operations share one port
// (mio_share.cu: a mix of both takes the sum of their times), so the load
// takes LdcCost of the unit's cycles, booked where an update issued with it
// would be.
func (u *syncsUnit) ldcDelay(now sim.Cycle) sim.Cycle {
	if u.spec.LdcCost <= 0 {
		return 0
	}
	at := now + sim.Cycle(u.spec.Latency)
	return u.slots.reserve(now, at, u.spec.LdcCost) - at
}

// resultAt is when the result of an update applied at applied (a token) is
// usable by the issuing warp.
func (u *syncsUnit) resultAt(applied sim.Cycle) sim.Cycle { return applied + sim.Cycle(u.spec.Result) }

// acquiredAt is the earliest a true answer of a wait issued at issued
// reaches its warp (the wait's acquire), however long ago the phase
// completed (steps.csv).
func (u *syncsUnit) acquiredAt(issued sim.Cycle) sim.Cycle { return issued + sim.Cycle(u.spec.Acquire) }

// deadline is when a try_wait issued at issued answers false if its phase
// has not completed: the time limit of the form with a suspend-time hint,
// or without.
func (u *syncsUnit) deadline(issued sim.Cycle, hinted bool) sim.Cycle {
	if hinted {
		return issued + sim.Cycle(u.spec.TryWaitHintTimeout)
	}
	return issued + sim.Cycle(u.spec.TryWaitTimeout)
}

// passedAt is when a guarded-off barrier wait issued at now has passed
// through the unit (syncs.guarded_off): its TRYWAIT's scoreboard, and the
// hinted form's NANOSLEEP.SYNCS, wait for that (probe.csv hint_ns0).
func (u *syncsUnit) passedAt(now sim.Cycle) sim.Cycle {
	return now + sim.Cycle(u.spec.GuardedOff)
}

// visibleAt is when a phase completed at done by another warp reaches a
// wait's check: a try_wait's Visibility later, a test_wait poll's
// PollVisibility (wake_latency test_wait_spin). A copy's complete-tx
// reaches both at Visibility (a test_wait spin sees a tensor copy done
// after 423 cycles, a try_wait after 437: tmadesc.csv, microbench.csv).
func (u *syncsUnit) visibleAt(done sim.Cycle, poll, byWarp bool) sim.Cycle {
	if poll && byWarp {
		return done + sim.Cycle(u.spec.PollVisibility)
	}
	return done + sim.Cycle(u.spec.Visibility)
}

// wakeAt answers one try_wait suspended on a phase that completed at now
// and returns when its warp resumes: the unit answers its suspended waits
// one at a time, each taking WakeCost of its cycles (trywait.csv wake_all:
// waiters resume 2 cycles apart), and the answer reaches the warp
// TryWaitWake later, Visibility later still for a warp other than the
// completer.
func (u *syncsUnit) wakeAt(now sim.Cycle, otherWarp bool) sim.Cycle {
	at := u.slots.reserve(now, now, u.spec.WakeCost) + sim.Cycle(u.spec.TryWaitWake)
	if otherWarp {
		at += sim.Cycle(u.spec.Visibility)
	}
	return at
}

// lateWakeAt is when a try_wait that found its phase complete before the
// completion reached it (seen) resumes: as a suspended one woken then, or
// at its deadline.
func (u *syncsUnit) lateWakeAt(seen, deadline sim.Cycle) sim.Cycle {
	return min(seen+sim.Cycle(u.spec.TryWaitWake), deadline)
}

// updateQueue is the unit's FIFO of updates in flight, a ring that grows
// when full (and never shrinks: a loop's updates allocate nothing once the
// ring is as deep as the unit gets).
type updateQueue struct {
	q    []syncsOp
	head int
	n    int
}

// push reserves the next slot of the ring.
func (u *updateQueue) push() *syncsOp {
	if u.n == len(u.q) {
		nq := make([]syncsOp, 2*len(u.q)+16)
		for i := 0; i < u.n; i++ {
			nq[i] = u.q[(u.head+i)%len(u.q)]
		}
		u.q, u.head = nq, 0
	}
	op := &u.q[(u.head+u.n)%len(u.q)]
	u.n++
	return op
}

// pop takes the oldest update.
func (u *updateQueue) pop() *syncsOp {
	op := &u.q[u.head]
	u.head = (u.head + 1) % len(u.q)
	u.n--
	return op
}

// slotCalendar tracks which cycles of the barrier unit are busy: updates
// (Interval cycles each), phase checks (CheckCost cycles each) and the
// answers of suspended waits (WakeCost each) share its throughput.
//
// A burst of operations books a long run of consecutive cycles, which each
// later booking would walk a cycle at a time; next lets it jump: for a busy
// cycle x, every cycle from x to next[x%len] is busy (a booking sets it to
// the booking's end, a walk to the free cycle it found). Cycles only become
// busy, except when a booking more than a calendar ahead takes the slot of
// a cycle not yet passed (aliased), which the walk then cannot trust: from
// then on the calendar walks a cycle at a time (the result is the same).
type slotCalendar struct {
	busy    [4096]sim.Cycle // cycle c is busy if busy[c%len] == c+1
	next    [4096]sim.Cycle // for a busy cycle c: the run of busy cycles from c reaches at least next[c%len]
	aliased bool
}

// reserve books cost consecutive free cycles starting at or after at, for
// an operation issued at now, and returns the first of them. cost 0 books
// nothing.
func (c *slotCalendar) reserve(now, at sim.Cycle, cost int) sim.Cycle {
	if c.aliased || cost <= 0 {
		return c.reserveWalking(now, at, cost)
	}
	n := sim.Cycle(len(c.busy))
	start := c.freeFrom(at)
	for start < at+n {
		k := sim.Cycle(1)
		for k < sim.Cycle(cost) && c.busy[(start+k)%n] != start+k+1 {
			k++
		}
		if k >= sim.Cycle(cost) {
			c.book(now, start, cost)
			return start
		}
		// Every start up to start+k takes the busy cycle start+k, and
		// every start in its run is busy.
		start = c.freeFrom(start + k)
	}
	return at + n // more than a calendar's worth booked ahead: beyond it, no contention is modelled
}

// freeFrom returns the first free cycle at or after x, and points every
// busy cycle it passed at it.
func (c *slotCalendar) freeFrom(x sim.Cycle) sim.Cycle {
	n := sim.Cycle(len(c.busy))
	f := x
	for c.busy[f%n] == f+1 {
		f = c.next[f%n]
	}
	for x < f {
		nx := c.next[x%n]
		c.next[x%n] = f
		x = nx
	}
	return f
}

// book marks the cost cycles from start busy, for an operation issued at
// now; taking the slot of a cycle not yet passed makes the calendar walk.
func (c *slotCalendar) book(now, start sim.Cycle, cost int) {
	n := sim.Cycle(len(c.busy))
	for k := sim.Cycle(0); k < sim.Cycle(cost); k++ {
		i := (start + k) % n
		if old := c.busy[i]; old > now { // old-1 >= now: a cycle still to come
			c.aliased = true
		}
		c.busy[i], c.next[i] = start+k+1, start+sim.Cycle(cost)
	}
}

// reserveWalking is reserve a cycle at a time, which needs nothing of next.
func (c *slotCalendar) reserveWalking(now, at sim.Cycle, cost int) sim.Cycle {
	n := sim.Cycle(len(c.busy))
	for start := at; start < at+n; start++ {
		ok := true
		for k := sim.Cycle(0); k < sim.Cycle(cost); k++ {
			if c.busy[(start+k)%n] == start+k+1 {
				ok = false
				break
			}
		}
		if ok {
			c.book(now, start, cost)
			return start
		}
	}
	return at + n
}

// checkPool holds phase checks in flight (test_wait, try_wait). Checks run
// a fixed latency after issue but never before the same warp's earlier
// updates have been applied, so they are not FIFO across warps.
type checkPool struct {
	ops  []syncsOp
	free []int
	n    int
}

func (c *checkPool) get() (int, *syncsOp) {
	c.n++
	if k := len(c.free); k > 0 {
		i := c.free[k-1]
		c.free = c.free[:k-1]
		return i, &c.ops[i]
	}
	c.ops = append(c.ops, syncsOp{})
	return len(c.ops) - 1, &c.ops[len(c.ops)-1]
}

func (c *checkPool) put(i int) {
	c.n--
	c.free = append(c.free, i)
}
