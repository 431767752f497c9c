package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

type syncsHandler struct{ s *SM }

// queueUpdates marks an update event (arg); a check event's arg is
// checkFlag | its slot in the check pool.
const (
	queueUpdates = 0
	checkFlag    = 1 << 62
)

// Handle applies the barrier unit's oldest update (update events fire in
// FIFO order: their cycles never decrease), or the check named by arg.
func (h syncsHandler) Handle(now sim.Cycle, arg uint64) error {
	s := h.s
	var op syncsOp
	if arg&checkFlag != 0 {
		i := int(arg &^ checkFlag)
		op = s.syncs.checks.ops[i]
		s.syncs.checks.put(i)
	} else {
		op = *s.syncs.updates.pop()
	}
	if op.at != now {
		return fmt.Errorf("sm: barrier unit out of order (op for cycle %d at %d)", op.at, now)
	}
	defer s.opDone(op.cta())
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
	b := op.cta().bars[op.addr]
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
	if op.target == nil && b.initWarp != op.wc.slot && b.initEpoch == op.epoch && s.launch.Mode == mbarrier.Strict {
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
	op.cta().markBarrier(op.addr, false)
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
		if op.target != nil && op.wc.c != op.target {
			a.Remote, a.CTA = true, op.wc.c.id
			ph.RemoteArrivals += uint64(u.Count)
			ph.RemoteRanks |= 1 << op.wc.c.rank
		}
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
		completer := op.slot
		if op.target != nil {
			completer = -1 // a warp of another SM: no waiter here is the arriving warp
		}
		s.completePhase(now, b, res, completer)
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
		// The unit answers the suspended try_waits one at a time; each
		// warp's scheduler then resumes it when its port is free
		// (wakeHandler).
		wake := s.syncs.wakeAt(now, w.slot != completer)
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

func (s *SM) progress(now sim.Cycle) { s.watch.progress(now) }
