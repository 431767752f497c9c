package sm

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// openWait is a barrier phase a warp has seen incomplete and not yet seen complete.
type openWait struct {
	b     *barrier
	phase uint64
	since sim.Cycle
}

// waitsOn reports whether the warp is waiting on (has seen open) a phase of
// the barrier at shared offset addr.
func (wc *wctx) waitsOn(addr uint32) bool {
	for i := range wc.openWaits {
		if wc.openWaits[i].b.addr == addr {
			return true
		}
	}
	return false
}

// tryRec is a try_wait in progress for one split.
type tryRec struct {
	ticket uint64
	in     *isa.Instr
	mask   uint32
	addrs  [warp.Lanes]uint32
	vals   warp.Vec
	on     *barrier  // the barrier it is suspended on
	issued sim.Cycle // when the try_wait was issued
	one    uint32    // the barrier of every lane when single (addrs is then unused)
	single bool      // the try_wait's lanes came in one group
}

// laneAddrs are the try_wait's lanes' barrier addresses.
func (r *tryRec) laneAddrs() laneAddrs {
	if r.single {
		return laneAddrs{one: r.one}
	}
	return laneAddrs{each: &r.addrs}
}

// awaited returns the phase a wait operand of warp viewer refers to, and
// whether it is complete as the viewer sees it at cycle now: a completion by
// another warp (or a copy) reaches it SyncsVisibility cycles late.
func (s *SM) awaited(now sim.Cycle, viewer int, b *barrier, in *isa.Instr, v uint64) (phase uint64, done bool, known bool, err error) {
	phase, done, known, err = s.awaitedNow(b, in, v)
	if err != nil || !done || !known {
		return
	}
	st := b.mb.State()
	seen := s.syncs.visibleAt(b.completedAt, in.Op == isa.OpMbarTestWait, b.completer >= 0)
	if phase == st.Phase-1 && b.completer != viewer && now < seen {
		return st.Phase - 1, false, true, nil // the latest completion has not reached this warp yet
	}
	return
}

// awaitedNow evaluates a wait operand against the barrier's current state.
func (s *SM) awaitedNow(b *barrier, in *isa.Instr, v uint64) (phase uint64, done bool, known bool, err error) {
	st := b.mb.State()
	if in.Flags.Has(isa.FParity) {
		p := uint32(v & 0xffffffff)
		done, err = b.mb.TestParity(p, s.launch.Mode)
		if err != nil {
			return 0, false, false, err
		}
		if !done {
			return st.Phase, false, true, nil
		}
		if st.Phase == 0 {
			return 0, true, false, nil // the phase "before phase 0" of a fresh barrier
		}
		return st.Phase - 1, true, true, nil
	}
	tok := mbarrier.Token(v)
	done, err = b.mb.TestToken(tok, s.launch.Mode)
	if err != nil {
		return 0, false, false, err
	}
	ph := tok.Phase()
	if st.Phase >= 1<<40 { // tokens hold the phase modulo 2^40
		ph |= st.Phase &^ (1<<40 - 1)
	}
	if s.launch.Mode == mbarrier.Faithful && st.Phase >= ph+2 {
		s.warnOnce(b, fmt.Sprintf("%s: wait on barrier %s with a token of phase %d while phase %d is open: compared by parity only, as the hardware does [UB #8]",
			in.Pos, b.name, ph, st.Phase))
	}
	return ph, done, true, nil
}

// noteWait records, for the per-phase report, that a wait of warp wc issued
// at cycle issued saw phase ph of b incomplete, or complete with its answer
// reaching the warp at cycle now. A warp's wait on a phase runs from the
// issue of its first wait instruction on that phase to the answer of the
// first one that finds it complete.
//
// A warp has at most one wait per phase: polls of a phase it has already
// been answered complete on (a test_wait or try_wait loop that goes on
// polling, or a second path of the warp) record nothing, so a warp polling
// a completed phase for the whole run costs no memory.
func (s *SM) noteWait(now, issued sim.Cycle, wc *wctx, b *barrier, ph uint64, done bool) {
	for i := range wc.openWaits {
		ow := &wc.openWaits[i]
		if ow.b != b || ow.phase != ph {
			continue
		}
		if done {
			b.addWait(ph, wc.slot, uint64(now-ow.since))
			wc.openWaits = append(wc.openWaits[:i], wc.openWaits[i+1:]...)
			wc.seenB, wc.seenPhase = b, ph
		}
		return
	}
	if done {
		if wc.seenB == b && wc.seenPhase == ph {
			return // the common case: the same phase polled again
		}
		wc.seenB, wc.seenPhase = b, ph
		if now > issued && !b.hasWait(ph, wc.slot) {
			b.addWait(ph, wc.slot, uint64(now-issued))
		}
		return
	}
	wc.openWaits = append(wc.openWaits, openWait{b: b, phase: ph, since: issued})
}

// addWait records a warp's wait for phase ph: in the phase's record, or in
// the barrier's totals when the phase is not listed.
func (b *barrier) addWait(ph uint64, warp int, cycles uint64) {
	if p := b.phaseRec(ph); p != nil {
		p.Waits = append(p.Waits, WaitReport{Warp: warp, Cycles: cycles})
	} else if len(b.phases) > 0 && ph < b.open().Phase {
		b.unlisted.addWait(cycles)
	}
}

// hasWait reports whether the warp's wait for phase ph is recorded (never,
// for a phase not listed: those keep no record of who waited).
func (b *barrier) hasWait(ph uint64, warp int) bool {
	if p := b.phaseRec(ph); p != nil {
		for _, w := range p.Waits {
			if w.Warp == warp {
				return true
			}
		}
	}
	return false
}

// phaseRec returns the record of phase ph: one of the listed phases
// (phases 0, 1, ... in order) or the open one; nil for a phase counted in
// the totals only.
func (b *barrier) phaseRec(ph uint64) *PhaseReport {
	n := uint64(len(b.phases))
	switch {
	case n == 0:
		return nil
	case ph < n-1:
		return &b.phases[ph]
	case b.phases[n-1].Phase == ph:
		return &b.phases[n-1]
	}
	return nil
}

// applyWait evaluates a test_wait group, or the last group of a try_wait.
func (s *SM) applyWait(now sim.Cycle, op *syncsOp) error {
	if _, err := s.lookup(op); err != nil {
		return err
	}
	wc := op.wc
	if op.in.Op == isa.OpMbarTryWait {
		rec := wc.tryFor(op.ticket, op.in)
		rec.issued = op.issued
		if rec.mask == 0 && op.last {
			// One group: one barrier for every lane (groupLanes).
			rec.mask, rec.vals, rec.one, rec.single = op.lanes, op.vals, op.addr, true
			return s.tryEvaluate(now, wc, rec, false)
		}
		rec.single = false
		for l := 0; l < warp.Lanes; l++ {
			if op.lanes>>l&1 != 0 {
				rec.addrs[l] = op.addr
				rec.vals[l] = op.vals[l]
				rec.mask |= 1 << l
			}
		}
		if !op.last {
			return nil
		}
		return s.tryEvaluate(now, wc, rec, false)
	}
	res, _, err := s.evalLanes(now, now, op.issued, wc, op.in, op.lanes, laneAddrs{one: op.addr}, &op.vals)
	if err != nil {
		return err
	}
	wc.w.SetPred(op.in.Dst(0).Reg, op.lanes, res)
	if res != 0 && op.last {
		// test_wait holds its warp until the answer; a true one carries the
		// wait's acquire (syncs.acquire after issue, as for try_wait).
		if at := s.syncs.acquiredAt(op.issued); at > now {
			s.setReady(wc, op.in.Dst(0), at, ReasonMbarrier)
			wc.busyUntil = max(wc.busyUntil, at)
			wc.depPC = -1
			s.wakeWarp(at)
		}
	}
	return nil
}

// laneAddrs are the barrier addresses of a wait's lanes: one for every
// lane (each nil), or each lane's own.
type laneAddrs struct {
	one  uint32
	each *[warp.Lanes]uint32
}

// at is lane l's address.
func (a laneAddrs) at(l int) uint32 {
	if a.each == nil {
		return a.one
	}
	return a.each[l]
}

// uniformOn reports whether every address of mask's lanes is the first one's.
func (a laneAddrs) uniformOn(mask uint32) bool {
	if a.each == nil {
		return true
	}
	x := a.each[bits.TrailingZeros32(mask)&(warp.Lanes-1)]
	for m := mask; m != 0; m &= m - 1 {
		if a.each[bits.TrailingZeros32(m)] != x {
			return false
		}
	}
	return true
}

// uniformOn reports whether every lane of mask holds the first one's value.
func uniformOn(v *warp.Vec, mask uint32) bool {
	if mask == 0 {
		return true
	}
	x := v[bits.TrailingZeros32(mask)]
	if mask == ^uint32(0) {
		var d uint64 // without a branch a lane: converged warps' lanes all match
		for i := 0; i < warp.Lanes; i += 4 {
			d |= v[i] ^ x | v[i+1] ^ x | v[i+2] ^ x | v[i+3] ^ x
		}
		return d == 0
	}
	for m := mask; m != 0; m &= m - 1 {
		if v[bits.TrailingZeros32(m)] != x {
			return false
		}
	}
	return true
}

// evalLanes tests every lane of mask at cycle check; it returns the lanes
// whose phase is complete and the first barrier of a lane whose phase is
// not. answer is when the warp gets the result (for the per-phase report).
// A barrier is looked up, and checked, at the first lane that names it
// (converged lanes name one: one lookup).
func (s *SM) evalLanes(check, answer, issued sim.Cycle, wc *wctx, in *isa.Instr, mask uint32, addr laneAddrs, vals *warp.Vec) (uint32, *barrier, error) {
	var res uint32
	var firstOpen *barrier
	var lastB *barrier
	var lastV uint64
	var lastDone bool
	var b *barrier
	var bAddr uint32
	// Lanes that all name one barrier and one phase get one answer: the
	// first lane's, tested alone (the loop below would copy it lane by lane).
	lanes, uniform := mask, addr.uniformOn(mask) && uniformOn(vals, mask)
	if uniform {
		lanes = mask & -mask
	}
	for m := lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		if a := addr.at(l); b == nil || a != bAddr {
			b, bAddr = wc.c.bars[a], a
			if b == nil || !b.mb.Valid() {
				return 0, nil, s.diag(wc, in, DiagMisuse, "uninitialized-barrier", 1<<l,
					fmt.Sprintf("%s on %s, which is not an initialised mbarrier [UB #1]", in.Op, s.barrierName(a)))
			}
		}
		if b == lastB && vals[l] == lastV { // converged lanes: same answer
			if lastDone {
				res |= 1 << l
			}
			continue
		}
		ph, done, known, err := s.awaited(check, wc.slot, b, in, vals[l])
		if err != nil {
			return 0, nil, s.barrierDiag(wc, in, b, 1<<l, err)
		}
		lastB, lastV, lastDone = b, vals[l], done
		if known {
			s.noteWait(answer, issued, wc, b, ph, done)
		}
		if done {
			res |= 1 << l
		} else if firstOpen == nil {
			firstOpen = b
		}
	}
	if uniform && res != 0 {
		res = mask
	}
	return res, firstOpen, nil
}

func (wc *wctx) tryFor(ticket uint64, in *isa.Instr) *tryRec {
	for i := range wc.tries {
		if wc.tries[i].ticket == ticket {
			return &wc.tries[i]
		}
	}
	wc.tries = append(wc.tries, tryRec{ticket: ticket, in: in})
	return &wc.tries[len(wc.tries)-1]
}

func (wc *wctx) dropTry(ticket uint64) {
	for i := range wc.tries {
		if wc.tries[i].ticket == ticket {
			wc.tries = append(wc.tries[:i], wc.tries[i+1:]...)
			return
		}
	}
}

// tryEvaluate checks a try_wait's lanes. If all are complete, or final is
// set (wake-up or time limit), the predicate gets its value and becomes
// ready; otherwise the try_wait stays suspended on the first incomplete
// barrier until the phase completes (plus the wake latency) or its time
// limit, counted from issue, passes.
func (s *SM) tryEvaluate(now sim.Cycle, wc *wctx, rec *tryRec, final bool) error {
	in := rec.in
	answer := now // when the warp gets the answer: after the barrier unit's result latency, or at once on wake-up
	if !final {
		answer = s.syncs.resultAt(now)
	}
	res, open, err := s.evalLanes(now, answer, rec.issued, wc, in, rec.mask, rec.laneAddrs(), &rec.vals)
	if err != nil {
		return err
	}
	deadline := s.syncs.deadline(rec.issued, in.Flags.Has(isa.FHint))
	if !final && s.prog.Scheduled && wc.w.ParkedAtWarpSync() {
		deadline = answer
	}
	if res == rec.mask || open == nil || final || deadline <= answer {
		if res != 0 {
			// A true answer carries the wait's acquire: it reaches the warp
			// no sooner than syncs.acquire after the try_wait's issue,
			// however long ago the phase completed (steps.csv).
			answer = max(answer, s.syncs.acquiredAt(rec.issued))
		}
		wc.w.SetPred(in.Dst(0).Reg, rec.mask, res)
		if res != 0 && !final && s.sched[wc.sp].resumesThroughPort() {
			// A true answer resumes the warp through its scheduler's
			// port, like a suspended waiter's wake-up (resumeHandler).
			rec.on = nil
			s.eng.Schedule(answer, sim.PhaseDeliver, resumeHandler{s}, uint64(wc.slot)<<48|rec.ticket)
			return nil
		}
		s.answer(wc, rec, answer)
		return nil
	}
	rec.on = open
	if seen := s.syncs.visibleAt(open.completedAt, false, true); seen > now && open.completer != wc.slot {
		// The phase is complete but the completion has not reached this
		// warp: it wakes when it does (or at the deadline).
		s.eng.Schedule(s.syncs.lateWakeAt(seen, deadline), sim.PhaseDeliver, wakeHandler{s}, uint64(wc.slot)<<48|rec.ticket)
		return nil
	}
	open.waiters = append(open.waiters, waiterRef{slot: wc.slot, ticket: rec.ticket})
	s.eng.Schedule(deadline, sim.PhaseDeliver, wakeHandler{s}, uint64(wc.slot)<<48|rec.ticket)
	return nil
}

// answer makes a try_wait's predicate usable at cycle at and forgets the try_wait.
func (s *SM) answer(wc *wctx, rec *tryRec, at sim.Cycle) {
	s.setReady(wc, rec.in.Dst(0), at, ReasonMbarrier)
	wc.depPC = -1
	if s.checkAtOf(wc) > at {
		wc.checkAt = at
		s.sched[wc.sp].q.lowered(wc.pos, at)
	}
	s.wakeWarp(at)
	wc.dropTry(rec.ticket)
}

// takePort reports whether the warp's scheduler can resume it at cycle now
// (its port, scheduler.takePort) and, if not, schedules handler h again for
// when the port is free.
func (s *SM) takePort(now sim.Cycle, wc *wctx, h sim.Handler, arg uint64) bool {
	free, ok := s.sched[wc.sp].takePort(now)
	if !ok {
		s.eng.Schedule(free, sim.PhaseDeliver, h, arg)
	}
	return ok
}

// resumeHandler delivers a try_wait's true answer (the ticket in arg) when
// the warp's scheduler takes it.
type resumeHandler struct{ s *SM }

func (h resumeHandler) Handle(now sim.Cycle, arg uint64) error {
	s := h.s
	wc, rec := s.tryOf(arg)
	if rec == nil || rec.on != nil {
		return nil
	}
	if s.takePort(now, wc, h, arg) {
		s.answer(wc, rec, now)
	}
	return nil
}

// tryOf finds the try_wait named by arg (warp slot << 48 | ticket).
func (s *SM) tryOf(arg uint64) (*wctx, *tryRec) {
	slot, ticket := int(arg>>48), arg&(1<<48-1)
	if slot >= len(s.warps) || s.warps[slot] == nil {
		return nil, nil
	}
	wc := s.warps[slot]
	for i := range wc.tries {
		if wc.tries[i].ticket == ticket {
			return wc, &wc.tries[i]
		}
	}
	return wc, nil
}

// wakeHandler ends a suspended try_wait: its phase completed, or its time limit passed.
type wakeHandler struct{ s *SM }

// Handle re-evaluates the try_wait with the ticket in arg, if it is still suspended.
func (h wakeHandler) Handle(now sim.Cycle, arg uint64) error {
	s := h.s
	wc, rec := s.tryOf(arg)
	if rec == nil || rec.on == nil {
		return nil
	}
	if !s.takePort(now, wc, h, arg) {
		return nil
	}
	rec.on.dropWaiter(wc.slot, rec.ticket)
	rec.on = nil
	if err := s.tryEvaluate(now, wc, rec, true); err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// Stale reports that the try_wait of arg has ended: its ticket is gone from
// its warp for good (tickets are never reused), so the event will do nothing.
func (h wakeHandler) Stale(arg uint64) bool {
	_, rec := h.s.tryOf(arg)
	return rec == nil
}

func (b *barrier) dropWaiter(slot int, ticket uint64) {
	for i, w := range b.waiters {
		if w.slot == slot && w.ticket == ticket {
			b.waiters = append(b.waiters[:i], b.waiters[i+1:]...)
			return
		}
	}
}
