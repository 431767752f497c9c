package sm

import (
	"fmt"
	"math/bits"
	"slices"
	"sort"

	"github.com/smsim/smsim/warp"
)

// result0 captures a retiring warp's accounting.
// (folded with the warps of its index in the block for CTAs past ReportCTAs).
func (s *SM) result0(wc *wctx) {
	wr := WarpReport{Warp: wc.slot, CTA: wc.c.id, InCTA: wc.w.InCTA, Instructions: wc.instr,
		Start: uint64(wc.c.started - s.start), End: uint64(wc.doneAt - s.start), Stalls: wc.stall, Warps: 1, SM: s.smid}
	if wc.c.id >= s.limits.ctas {
		s.reports.foldWarp(wr)
		return
	}
	s.retired = append(s.retired, wr)
}

// result assembles the report of the launch (also after an error).
func (s *SM) result() *Result {
	now := s.eng.Now()
	r := &Result{Kernel: s.prog.Name, Cycles: s.stats.Cycles, Stats: s.stats, Warnings: s.warnings,
		Copies: s.copyStats().Sub(s.copyStats0)}
	if !s.done {
		r.Cycles = uint64(now - s.start)
		r.Stats.Cycles = r.Cycles
	}
	r.Warps = append(r.Warps, s.retired...)
	folded := slices.Clone(s.reports.warps)
	rep := reports{warps: folded}
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		s.account(wc, now)
		wr := WarpReport{Warp: wc.slot, CTA: wc.c.id, InCTA: wc.w.InCTA, Instructions: wc.instr,
			Start: uint64(wc.c.started - s.start), End: uint64(now - s.start), Stalls: wc.stall, Warps: 1, SM: s.smid}
		if wc.c.id >= s.limits.ctas {
			rep.foldWarp(wr)
			continue
		}
		r.Warps = append(r.Warps, wr)
	}
	sort.SliceStable(r.Warps, func(i, j int) bool {
		if r.Warps[i].CTA != r.Warps[j].CTA {
			return r.Warps[i].CTA < r.Warps[j].CTA
		}
		return r.Warps[i].InCTA < r.Warps[j].InCTA
	})
	for _, w := range rep.warps {
		if w.Warps > 0 {
			r.Warps = append(r.Warps, w)
		}
	}
	r.Barriers = s.barrierReports()
	return r
}

// warnOnce records a lint warning, once per distinct message.
func (s *SM) warnOnce(_ *barrier, msg string) {
	for _, w := range s.warnings {
		if w == msg {
			return
		}
	}
	if len(s.warnings) < 100 {
		s.warnings = append(s.warnings, msg)
	}
}

// deadlock is called when nothing is left to happen but warps remain: every
// live warp is blocked and nothing in flight can release any of them.
func (s *SM) deadlock() error {
	return s.stuck(DiagDeadlock, "deadlock", "%d warps blocked and nothing in flight can release them")
}

// stuck describes every live warp and the first barrier one waits on; head
// is the message's start, formatted with the number of live warps.
func (s *SM) stuck(kind DiagKind, code, head string) *Diag {
	d := &Diag{Kind: kind, Code: code, Warp: -1, Phase: -1, Cycle: uint64(s.eng.Now() - s.start)}
	var first *barrier
	blocked := 0
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		blocked++
		for i := range wc.w.Splits() {
			sp := wc.w.Split(i)
			line := fmt.Sprintf("warp %d (CTA %d, warp %d of the block) lanes %s: %s", wc.slot, wc.c.id, wc.w.InCTA,
				LaneList(sp.Mask), s.splitWhat(wc, sp))
			d.Detail = append(d.Detail, line)
			// The message points at the first barrier wait, else at the
			// first blocked path (bar.sync, bar.warp.sync).
			b := s.waitingOn(wc)
			if b != nil && first == nil || d.Warp < 0 {
				if b != nil {
					first = b
				}
				d.Warp = wc.slot
				d.Lanes = sp.Mask
				if int(sp.PC) < len(s.prog.Instrs) {
					d.Pos = s.prog.Instrs[sp.PC].Pos
				}
			}
		}
	}
	d.Msg = fmt.Sprintf(head, blocked)
	if first != nil {
		st := first.mb.State()
		d.Barrier, d.Phase = first.name, int64(st.Phase)
		d.Msg += fmt.Sprintf("; barrier %s phase %d is missing %d of %d arrivals and %d tx bytes",
			first.name, st.Phase, st.Pending, st.Expected, st.Tx)
		d.Detail = append(d.Detail, first.describe(s)...)
	}
	d.Detail = append(d.Detail, s.stuckHints(first)...)
	return d
}

// stuckHints says what commonly causes the hang the waits show: a wait for a
// fresh barrier's first phase (the wrong initial parity), bytes with no
// arrival (expect_tx is not an arrive), bytes no copy will deliver, or
// participants that exited without arrive_drop.
func (s *SM) stuckHints(first *barrier) []string {
	var out []string
	seen := map[*barrier]bool{}
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		b := s.waitingOn(wc)
		if b == nil || seen[b] || len(b.phases) == 0 {
			continue
		}
		seen[b] = true
		st, op := b.mb.State(), b.phases[len(b.phases)-1]
		switch {
		case st.Pending == st.Expected && op.TxBytes > 0:
			out = append(out, fmt.Sprintf("hint: %d bytes completed on barrier %s phase %d but no thread arrived: expect_tx "+
				"is not an arrival; the producer should use arrive.expect_tx (or also arrive)", op.TxBytes, b.name, st.Phase))
		case st.Phase == 0 && st.Pending == st.Expected && b.recentN == 0 && op.TxBytes == 0 && st.Tx == 0:
			out = append(out, fmt.Sprintf("hint: nothing has arrived on barrier %s since its init; if its waiters should pass "+
				"first (a producer acquiring an empty stage), wait with parity 1: a fresh barrier counts the phase before "+
				"phase 0 as complete [§5.7]", b.name))
		}
	}
	if first == nil {
		return out
	}
	if w, sp := s.pathInBarSync(); sp != nil {
		id, _ := s.barSyncOf(w, sp)
		out = append(out, fmt.Sprintf("hint: warp %d waits in bar.sync %d, where it arrives on no mbarrier until the bar.sync "+
			"is released, while warps it waits for spin on barrier %s: arrive before the bar.sync, or wait only after it",
			w.slot, id, first.name))
	}
	st := first.mb.State()
	live := 0
	for _, wc := range first.c.warps {
		for _, sp := range wc.w.Splits() {
			live += bits.OnesCount32(sp.Mask)
		}
	}
	switch {
	case st.Pending == 0 && st.Tx > 0:
		out = append(out, fmt.Sprintf("hint: every arrival on barrier %s is in but %d bytes are still expected and no copy "+
			"in flight will deliver them: the expect_tx total must equal the bytes the copies deliver (a tensor copy "+
			"credits its whole box)", first.name, st.Tx))
	case st.Pending == 0 && st.Tx < 0:
		out = append(out, fmt.Sprintf("hint: barrier %s received %d bytes more than expected: the phase completes only "+
			"when the expectations catch up (expect_tx the copies' full size)", first.name, -st.Tx))
	case uint64(st.Expected) > uint64(live):
		out = append(out, fmt.Sprintf("hint: barrier %s expects %d arrivals a phase but only %d threads of its CTA are "+
			"still running; a thread that stops taking part must leave with arrive_drop", first.name, st.Expected, live))
	}
	return out
}

// pathInBarSync returns the first path blocked in bar.sync, if any.
func (s *SM) pathInBarSync() (*wctx, *warp.Split) {
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		for i := range wc.w.Splits() {
			if sp := wc.w.Split(i); sp.State == warp.Blocked && sp.WaitKind&0xf == waitBarSync {
				return wc, sp
			}
		}
	}
	return nil, nil
}

// waitingOn returns the barrier a warp last saw incomplete, if any.
func (s *SM) waitingOn(wc *wctx) *barrier {
	if n := len(wc.openWaits); n > 0 {
		return wc.openWaits[n-1].b
	}
	return nil
}

func (s *SM) splitWhat(wc *wctx, sp *warp.Split) string {
	pos := ""
	if int(sp.PC) < len(s.prog.Instrs) {
		pos = " at " + s.prog.Instrs[sp.PC].Pos.String()
	}
	switch sp.State {
	case warp.Blocked:
		switch sp.WaitKind & 0xf {
		case waitBarSync:
			if id, bs := s.barSyncOf(wc, sp); bs != nil {
				return fmt.Sprintf("waiting in bar.sync %d (%d of %d threads arrived)%s", id, bs.arrived, bs.expect, pos)
			}
			return "waiting in bar.sync" + pos
		case waitCluster:
			return clusterWaitWhat(wc.c) + pos
		case waitSleep:
			return "sleeping" + pos
		case waitBulk:
			return "waiting for bulk copies" + pos
		}
	case warp.AtWarpSync:
		return "waiting in bar.warp.sync for lanes that never arrive" + pos
	case warp.AtReconv:
		return "waiting to reconverge" + pos
	case warp.AtBsync:
		return fmt.Sprintf("waiting at BSYNC B%d for lanes that never arrive%s", sp.Bar, pos)
	}
	if b := s.waitingOn(wc); b != nil {
		ow := wc.openWaits[len(wc.openWaits)-1]
		return fmt.Sprintf("spinning on barrier %s phase %d%s", b.name, ow.phase, pos)
	}
	return "runnable" + pos
}

// dumpState lists every live warp and barrier (for --max-cycles stops).
func (s *SM) dumpState() []string {
	var out []string
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		for i := range wc.w.Splits() {
			sp := wc.w.Split(i)
			out = append(out, fmt.Sprintf("warp %d lanes %s: %s", wc.slot, LaneList(sp.Mask), s.splitWhat(wc, sp)))
		}
	}
	for _, b := range s.barList {
		if b.mb.Valid() {
			out = append(out, b.describe(s)[0])
		}
	}
	return out
}

// barSyncOf returns the CTA barrier (its id and state) a split blocked in
// bar.sync waits on.
func (s *SM) barSyncOf(wc *wctx, sp *warp.Split) (int, *barSync) {
	for id := range wc.c.bsync {
		for _, w := range wc.c.bsync[id].waiting {
			if w.slot == wc.slot && w.ticket == sp.WaitArg {
				return id, &wc.c.bsync[id]
			}
		}
	}
	return -1, nil
}
