package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
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
}

// syncsUnit is the barrier unit: a FIFO that applies one operation every
// SyncsInterval cycles, SyncsLatency after issue.
//
//	issue ──SyncsLatency──► apply (state changes here) ──SyncsResult──► token usable
//	        successive applies are at least SyncsInterval apart
type syncsUnit struct {
	q    []syncsOp // ring
	head int
	n    int
	free sim.Cycle // next cycle an operation may be applied
}

// push reserves the next slot of the ring (growing it when full).
func (u *syncsUnit) push() *syncsOp {
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

func (u *syncsUnit) pop() *syncsOp {
	op := &u.q[u.head]
	u.head = (u.head + 1) % len(u.q)
	u.n--
	return op
}

// schedule returns the cycle at which an update issued at now is applied:
// SyncsLatency later, in the first free slot of the unit (it occupies
// interval cycles), and never before an earlier update (updates are applied
// in order).
func (u *syncsUnit) schedule(now sim.Cycle, c *Config, slots *slotCalendar, interval int) sim.Cycle {
	at := now + sim.Cycle(c.Syncs.Latency)
	if u.free > at {
		at = u.free
	}
	at = slots.reserve(at, interval)
	u.free = at + 1
	return at
}

// slotCalendar tracks which cycles of the barrier unit are busy: updates
// (SyncsInterval cycles each) and phase checks (SyncsCheckCost cycles each)
// share its throughput, and checks, having a shorter latency, fill the gaps
// between updates that were scheduled further ahead.
type slotCalendar struct {
	busy [4096]sim.Cycle // cycle c is busy if busy[c%len] == c+1
}

// reserve books cost consecutive free cycles starting at or after at and
// returns the first of them. cost 0 books nothing.
func (c *slotCalendar) reserve(at sim.Cycle, cost int) sim.Cycle {
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
			for k := sim.Cycle(0); k < sim.Cycle(cost); k++ {
				c.busy[(start+k)%n] = start + k + 1
			}
			return start
		}
	}
	return at + n // more than a calendar's worth booked ahead: beyond it, no contention is modelled
}

type syncsHandler struct{ s *SM }

// queueUpdates marks an update event (arg); a check event's arg is
// checkFlag | its slot in the check pool.
const (
	queueUpdates = 0
	checkFlag    = 1 << 62
)

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

// Handle applies the barrier unit's oldest update (update events fire in
// FIFO order: their cycles never decrease), or the check named by arg.
func (h syncsHandler) Handle(now sim.Cycle, arg uint64) error {
	s := h.s
	var op syncsOp
	if arg&checkFlag != 0 {
		i := int(arg &^ checkFlag)
		op = s.checks.ops[i]
		s.checks.put(i)
	} else {
		op = *s.syncs.pop()
	}
	if op.at != now {
		return fmt.Errorf("sm: barrier unit out of order (op for cycle %d at %d)", op.at, now)
	}
	defer s.opDone(op.wc.c)
	// Operations of a warp that has since exited still apply (an arrive_drop
	// right before exit is the canonical early-exit pattern).
	s.stats.SyncsUpdates++
	var err error
	switch op.in.Op {
	case isa.OpMbarInit:
		err = s.applyInit(now, &op)
	case isa.OpMbarInval:
		err = s.applyInval(now, &op)
	case isa.OpMbarTestWait, isa.OpMbarTryWait:
		s.stats.SyncsUpdates--
		s.stats.SyncsWaits++
		err = s.applyWait(now, &op)
	default:
		err = s.applyUpdate(now, &op)
	}
	if err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// opDone notes that one of c's operations in flight (barrier unit, cp.async
// landing) is over; the last of a retired CTA lets its barriers be reported.
func (s *SM) opDone(c *cta) {
	if c.pending--; c.pending == 0 && c.live == 0 {
		s.retireBarriers(c)
	}
}

func (s *SM) lookup(op *syncsOp) (*barrier, error) {
	b := op.wc.c.bars[op.addr]
	if b == nil || !b.mb.Valid() {
		name := s.barrierName(op.addr)
		what := "never initialised"
		if b != nil {
			what = "invalidated"
		}
		d := s.diag(op.wc, op.in, DiagMisuse, "uninitialized-barrier", op.lanes,
			fmt.Sprintf("%s on %s memory that is not an mbarrier (%s) [UB #1]", op.in.Op, name, what))
		d.Barrier = name
		return nil, d
	}
	if b.initWarp != op.wc.slot && b.initEpoch == op.epoch && s.launch.Mode == mbarrier.Strict {
		s.warnOnce(b, fmt.Sprintf("%s: warp %d uses barrier %s initialised by warp %d with no bar.sync in between [UB #15]",
			op.in.Pos, op.wc.slot, b.name, b.initWarp))
	}
	return b, nil
}

func (s *SM) applyInit(now sim.Cycle, op *syncsOp) error {
	c := op.wc.c
	b := c.bars[op.addr]
	if b == nil {
		b = &barrier{c: c, addr: op.addr, name: s.barrierName(op.addr), arrWarps: map[int]bool{}, seq: s.barSeq}
		s.barSeq++
		c.bars[op.addr] = b
		s.barList = append(s.barList, b)
	}
	if err := b.mb.Init(uint32(op.count)); err != nil {
		return s.barrierDiag(op.wc, op.in, b, op.lanes, err)
	}
	c.markBarrier(op.addr, true)
	b.initCount, b.initWarp, b.initEpoch = uint32(op.count), op.wc.slot, op.epoch
	b.phases = append(b.phases[:0], PhaseReport{Phase: 0, Opened: uint64(now - s.start), Completed: -1})
	b.unlisted = PhaseTotals{}
	clear(b.arrWarps)
	for _, w := range c.warps {
		if w.seenB == b {
			w.seenB = nil // the phases count from 0 again
		}
	}
	s.progress(now)
	return nil
}

func (s *SM) applyInval(now sim.Cycle, op *syncsOp) error {
	b, err := s.lookup(op)
	if err != nil {
		return err
	}
	if err := b.mb.Inval(); err != nil {
		return s.barrierDiag(op.wc, op.in, b, op.lanes, err)
	}
	op.wc.c.markBarrier(op.addr, false)
	return nil
}

// applyUpdate applies an arrive, expect_tx or complete_tx group.
func (s *SM) applyUpdate(now sim.Cycle, op *syncsOp) error {
	b, err := s.lookup(op)
	if err != nil {
		return err
	}
	in := op.in
	u := mbarrier.Update{Count: uint32(op.count), Tx: uint32(op.tx), Lanes: popcount(op.lanes),
		NoComplete: in.Flags.Has(isa.FNoComplete)}
	if op.count > mbarrier.MaxCount || op.tx > 1<<32-1 {
		return s.barrierDiag(op.wc, in, b, op.lanes, fmt.Errorf("arrival count %d or tx %d of one warp exceeds the barrier's range", op.count, op.tx))
	}
	switch {
	case in.Op == isa.OpMbarExpectTx:
		u.Kind, u.Count = mbarrier.ExpectTx, 0
	case in.Op == isa.OpMbarCompleteTx:
		u.Kind, u.Count = mbarrier.CompleteTx, 0
	case in.Op == isa.OpCpAsyncMbarArrive && op.inc:
		u.Kind = mbarrier.AsyncArriveInc
	case in.Op == isa.OpCpAsyncMbarArrive:
		u.Kind = mbarrier.Arrive
	case in.Flags.Has(isa.FDrop):
		u.Kind = mbarrier.ArriveDrop
	default:
		u.Kind = mbarrier.Arrive
	}
	res, err := b.mb.Apply(u)
	if err != nil {
		return s.barrierDiag(op.wc, in, b, op.lanes, err)
	}
	for _, w := range res.Warnings {
		s.warnOnce(b, fmt.Sprintf("%s: barrier %s: %s", in.Pos, b.name, w.Msg))
	}
	ph := b.open()
	if u.Kind == mbarrier.Arrive || u.Kind == mbarrier.ArriveDrop {
		b.arrWarps[op.slot] = true
		a := Arriver{Warp: op.slot, Lanes: op.lanes, Pos: in.Pos, Cycle: uint64(now - s.start)}
		ph.LastArriver = a
		b.recent[b.recentN%4] = a
		b.recentN++
		if in.NDst > 0 {
			var tok warp.Vec
			v := uint64(res.Token)
			if in.Dst(0).Mod.Has(isa.MPair) { // SASS: the state word, the phase parity in bit 63
				v = sassToken(res.Token.Phase())
			}
			for l := range tok {
				tok[l] = v
			}
			op.wc.w.Write(in.Dst(0), op.lanes, &tok, isa.B64)
		}
	}
	if u.Kind == mbarrier.CompleteTx {
		ph.TxBytes += uint64(u.Tx)
	}
	if res.Completed {
		s.completePhase(now, b, res, op.slot)
	}
	s.progress(now)
	return nil
}

// completePhase closes the open phase record, opens the next and wakes waiters.
func (s *SM) completePhase(now sim.Cycle, b *barrier, res mbarrier.Result, completer int) {
	b.completedAt, b.completer = now, completer
	ph := b.open()
	t := uint64(now - s.start)
	ph.Completed = int64(t)
	ph.Arrivals = res.Stats.Arrivals
	ph.Updates = res.Stats.Updates
	ph.CompletedBy = res.CompletedBy.String()
	ph.ArrivingWarps = len(b.arrWarps)
	clear(b.arrWarps)
	if s.obs != nil {
		s.obs.Phase(b.name, b.c.id, ph.Phase, ph.Opened, t)
	}
	if len(b.phases) <= s.limits.phases && s.reports.phases < s.limits.budget {
		s.reports.phases++
		b.phases = append(b.phases, PhaseReport{Phase: ph.Phase + 1, Opened: t, Completed: -1})
	} else {
		// Past the phases a report lists: counted, and the record reused
		// (with its waits' storage) for the next phase.
		b.unlisted.addPhase(ph)
		*ph = PhaseReport{Phase: ph.Phase + 1, Opened: t, Completed: -1, Waits: ph.Waits[:0]}
	}
	for _, w := range b.waiters {
		// The unit answers the suspended try_waits one at a time, each
		// taking syncs.wake_cost of its cycles (trywait.csv wake_all:
		// waiters resume 2 cycles apart); each warp's scheduler then
		// resumes it when its port is free (wakeHandler).
		at := s.slots.reserve(now, s.cfg.Syncs.WakeCost)
		wake := at + sim.Cycle(s.cfg.Syncs.TryWaitWake)
		if w.slot != completer {
			wake += sim.Cycle(s.cfg.Syncs.Visibility)
		}
		s.eng.Schedule(wake, sim.PhaseDeliver, wakeHandler{s}, uint64(w.slot)<<48|w.ticket)
	}
	b.waiters = b.waiters[:0]
}

// completeTx is the TMA engine's completion of bytes on a barrier.
func (s *SM) completeTx(now sim.Cycle, c *cta, addr uint32, bytes uint32, who *wctx, in *isa.Instr) error {
	b := c.bars[addr]
	if b == nil || !b.mb.Valid() {
		d := s.diag(who, in, DiagMisuse, "uninitialized-barrier", 0,
			fmt.Sprintf("bulk copy completes %d bytes on %s, which is not an initialised mbarrier [UB #1]", bytes, s.barrierName(addr)))
		d.Barrier = s.barrierName(addr)
		return d
	}
	res, err := b.mb.Apply(mbarrier.Update{Kind: mbarrier.CompleteTx, Tx: bytes})
	if err != nil {
		return s.barrierDiag(who, in, b, 0, err)
	}
	b.open().TxBytes += uint64(bytes)
	if res.Completed {
		s.completePhase(now, b, res, -1)
	}
	s.progress(now)
	return nil
}

func (s *SM) progress(now sim.Cycle) { s.lastProg = now }

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
