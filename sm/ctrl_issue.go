package sm

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Issue by the compiler's schedule. A program with isa.Program.Scheduled
// set (SASS) carries in every instruction the control bits ptxas wrote
// (isa.Ctrl), and the hardware obeys them instead of tracking register
// dependences itself (docs/sass-timing.md gives each rule's source):
//
//   - Stall: the warp's next instruction issues no sooner than Stall cycles
//     after this one; 0 counts as 1 (Volta and later do not dual-issue).
//   - Yield: at the sub-partition's next issue another eligible warp goes
//     first; the yielding warp issues only when no other can.
//   - Scoreboards: six per warp. WriteSB k counts the instruction on
//     scoreboard k from its issue until its result is written (the time the
//     SM's models give it: memory, shared-memory wavefronts, the barrier
//     unit's answer, the class latency of MUFU, conversions, S2R...); ReadSB
//     k until it has read its source registers (sass.read_scoreboard). An
//     instruction whose Wait mask names a scoreboard still counting does not
//     issue. Fixed-latency results are not tracked: the register scoreboard
//     of PTX programs (computeDeps) is not used.
//   - A taken branch issues its target branch.taken cycles after itself when
//     its stall count is shorter (branch.csv).
//   - Structural limits stay: a busy pipe (interval.<class>), the shared
//     memory's MIO queue, the barrier unit's queue and its per-warp issue
//     interval, the copy engine's acceptance.
//
// The cycles a warp waits are named as Nsight Compute names them: its stall
// count "wait", a taken branch's redirect "branch_resolving", a scoreboard of
// a global or local memory access "long_scoreboard", of shared memory and
// the other variable-latency units "short_scoreboard", of a barrier wait's
// answer "mbarrier".

// sbItem is one count on a warp's dependency scoreboard: one instruction
// whose result (or source read) is outstanding.
type sbItem struct {
	at   sim.Cycle // its release as known at issue
	ents [4]int32  // scoreboard entries of its destinations (-1: none): an answer delivered later moves their ready time
	why  Reason
}

// scoreboards are a warp's dependency scoreboards, each the list of the
// counts it holds (released ones are dropped when seen).
type scoreboards [isa.NumSB][]sbItem

// release returns when item x is released: when all its destinations are
// written, as far as known now (sim.Never: an answer still to come).
func (wc *wctx) release(x *sbItem) (sim.Cycle, Reason) {
	r, why := x.at, x.why
	for _, e := range x.ents {
		if e < 0 {
			break
		}
		if t := wc.ent[e].at; t > r {
			r, why = t, variableReason(wc.ent[e].why)
		}
	}
	return r, why
}

// sbReady returns when scoreboard k is released (its count is zero) and what
// holds it longest; it forgets the counts released by now.
func (wc *wctx) sbReady(now sim.Cycle, k int) (sim.Cycle, Reason) {
	var r sim.Cycle
	why := ReasonShortScoreboard
	items := wc.sb[k][:0]
	for i := range wc.sb[k] {
		x := wc.sb[k][i]
		t, w := wc.release(&x)
		if t <= now {
			continue
		}
		items = append(items, x)
		if t > r {
			r, why = t, w
		}
	}
	wc.sb[k] = items
	return r, why
}

// sbCount returns how many counts scoreboard k holds at cycle now:
// instructions issued that set it and whose results, or source reads, are
// still outstanding.
func (wc *wctx) sbCount(now sim.Cycle, k int) int {
	n := 0
	for i := range wc.sb[k] {
		if t, _ := wc.release(&wc.sb[k][i]); t > now {
			n++
		}
	}
	return n
}

// variableReason names a wait on a scoreboard for the reason its result
// was produced: a fixed-latency reason (a class latency: MUFU, conversions,
// special registers, constants) is a short scoreboard when a scoreboard
// tracks it.
func variableReason(r Reason) Reason {
	if r == ReasonWait {
		return ReasonShortScoreboard
	}
	return r
}

// readReason names a wait on an instruction's read scoreboard: a long one
// for the L1TEX path (global and local memory), a short one otherwise.
func readReason(c isa.Class) Reason {
	if c == isa.ClassGlobal || c == isa.ClassLocal {
		return ReasonLongScoreboard
	}
	return ReasonShortScoreboard
}

// ctrlReadyAt is readyAt for a Scheduled program: the stall count of the
// warp's last issue, a taken branch's redirect, the copy engine's
// acceptance, the scoreboards the instruction (whose uop is u) waits on,
// then the pipes and queues as for any program (unitsReady, written out for
// an instruction only a pipe can hold). The latest decides the reason.
func (s *SM) ctrlReadyAt(now sim.Cycle, wc *wctx, sp *warp.Split, in *isa.Instr, u *uop) (sim.Cycle, Reason) {
	r, why := wc.stallUntil, ReasonWait
	if wc.branchUntil > r {
		r, why = wc.branchUntil, ReasonBranchResolving
	}
	if wc.acceptAt > r {
		r, why = wc.acceptAt, throttleReason(isa.ClassTMA)
	}
	if wc.heldUntil > r {
		r, why = wc.heldUntil, ReasonMembar
	}
	// The scoreboards it waits on, in order: only those of its wait mask.
	for m := uint(in.Ctrl.Wait) & (1<<isa.NumSB - 1); m != 0; m &= m - 1 {
		k := bits.TrailingZeros(m)
		if len(wc.sb[k]) == 0 {
			continue
		}
		if t, w := wc.sbReady(now, k); t > r {
			r, why = t, w
		}
	}
	if u.syncs {
		return s.unitsReady(wc, sp.PC, u, r, why)
	}
	if pf := s.sched[wc.sp].pipeReady(u.pipes); pf > r {
		r, why = pf, u.throttle
	}
	return r, why
}

// ctrlIssue resets what ctrlIssued reads of the instruction's execution.
func (wc *wctx) ctrlIssue() { wc.resultAt, wc.resultWhy = 0, ReasonWait }

// ctrlIssued applies the control bits of in, issued at now by wc with the
// active lanes mask (0: guarded off).
func (s *SM) ctrlIssued(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) {
	c := in.Ctrl
	wc.stallUntil = now + sim.Cycle(max(c.Stall, 1))
	if c.WriteSB >= isa.NumSB {
		// A fixed-latency instruction has no scoreboard to hold its
		// readers: a constant operand that missed the immediate cache
		// holds the warp until its line is there (bar_defer.cu: a ULDC
		// missing after a barrier delays the LDS and LDC behind it by
		// about const.l1_5 on the H200).
		wc.stallUntil += s.constExtra
	}
	wc.branchUntil = 0
	if in.Op == isa.OpBra && mask != 0 {
		wc.branchUntil = wc.busyUntil // execute's redirect: branch.taken (+ branch.diverge)
	}
	if in.Op == isa.OpYield && wc.yieldUntil > now {
		wc.branchUntil = wc.yieldUntil // the switch to another path (execYield)
	}
	if in.Op == isa.OpBsync && mask != 0 {
		wc.branchUntil = max(wc.branchUntil, now+sim.Cycle(s.cfg.SASS.Bsync)) // the reconvergence's redirect
	}
	if k := int(c.WriteSB); k < isa.NumSB {
		s.sbSet(now, wc, k, s.writeItem(now, wc, in, mask))
	}
	if k := int(c.ReadSB); k < isa.NumSB {
		s.sbSet(now, wc, k, sbItem{at: s.readReleaseAt(now, wc, in, mask), ents: noEnts, why: readReason(in.Class)})
	}
	s.sched[wc.sp].setYield(wc.slot, c.Yield)
}

var noEnts = [4]int32{-1, -1, -1, -1}

// sbSet counts item on scoreboard k, dropping the counts released by now.
func (s *SM) sbSet(now sim.Cycle, wc *wctx, k int, it sbItem) {
	wc.sbReady(now, k)
	wc.sb[k] = append(wc.sb[k], it)
}

// writeItem is the count an instruction's WriteSB holds until its result is
// written: its destinations' ready times (a later answer moves them), or
// for an instruction without one the completion its execution reported
// (dstReady), else its class latency. A guarded-off instruction sets its
// scoreboard too (the maxas notes: predication does not change the control
// bits) and releases it the next cycle, a guarded-off barrier wait when it
// has passed the barrier unit (probe.csv hint_ns0).
func (s *SM) writeItem(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) sbItem {
	it := sbItem{at: wc.resultAt, ents: noEnts, why: variableReason(wc.resultWhy)}
	if mask == 0 {
		it.at, it.why = now+1, ReasonShortScoreboard
		if in.Op == isa.OpMbarTryWait || in.Op == isa.OpMbarTestWait {
			it.at = s.syncs.passedAt(now)
			it.why = ReasonMbarrier
		}
		return it
	}
	n := 0
	for i := 0; i < int(in.NDst); i++ {
		e := int32(-1)
		switch d := in.Dst(i); d.Kind {
		case isa.KReg:
			e = d.Reg
		case isa.KPred:
			e = wc.predEntry(d.Reg)
		}
		if e < 0 {
			continue
		}
		if n < len(it.ents) {
			it.ents[n] = e
			n++
		} else if t := wc.ent[e].at; t > it.at {
			it.at, it.why = t, variableReason(wc.ent[e].why)
		}
	}
	if n == 0 && it.at == 0 {
		it.at, it.why = now+sim.Cycle(s.cfg.Pipes.Latency[in.Class]), ReasonShortScoreboard
	}
	return it
}

// readReleaseAt is when in, issued at now, releases its read scoreboard:
// sass.read_scoreboard after issue, or for a CTA-scope memory barrier
// (MEMBAR.ALL.CTA: fence.proxy.async, __threadfence_block) sass.fence_read
// after issue and no sooner than the warp's earlier shared stores are in
// the data array (fence.csv: the FENCE.VIEW.ASYNC.S behind it waits on that
// scoreboard).
func (s *SM) readReleaseAt(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) sim.Cycle {
	if in.Op != isa.OpFence || mask == 0 || in.Scope >= isa.ScopeCluster || in.Flags.Has(isa.FProxyAsync) {
		return now + sim.Cycle(s.cfg.SASS.ReadScoreboard)
	}
	return max(now+sim.Cycle(s.cfg.SASS.FenceRead), wc.smemWrote)
}
