package sm

import (
	"fmt"

	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// watchdog is the livelock detector. It stops a run in which no barrier
// has made progress for watchdog.spin_cycles cycles, nothing is in flight
// (barrier-unit operations, copies, cp.async landings) and every live warp
// is stuck:
//
//   - spinning: it saw a barrier phase incomplete and has not seen it
//     complete since (a try_wait or test_wait loop, a suspended try_wait,
//     a loop with nanosleep back-off);
//   - blocked: none of its paths can move without another warp (each is in
//     bar.sync / barrier.sync, in bar.warp.sync or parked at a
//     reconvergence point).
//
// A warp doing anything else — computing, sleeping outside a wait loop,
// waiting on a timer such as a bulk or cp.async group wait — may still make
// progress, and so may the warps it would release: no stop. Warps that
// have exited take no part (they count as arrived at CTA-wide bar.syncs).
// With spinning warps only it is a livelock; with a warp blocked as well
// (bar.sync waiting for a warp that spins on a phase only the blocked warp
// would complete, say) a deadlock.
type watchdog struct {
	spin     sim.Cycle // watchdog.spin_cycles
	lastProg sim.Cycle // the last cycle a barrier made progress
}

// progress records that a barrier made progress at now (a bar.sync's
// release counts when its waiters resume, which may be later than the
// cycle it is recorded in).
func (w *watchdog) progress(now sim.Cycle) { w.lastProg = now }

// due reports whether no barrier has made progress for spin cycles by now:
// then the warps are looked at.
func (w *watchdog) due(now sim.Cycle) bool { return w.lastProg <= now && now-w.lastProg >= w.spin }

// idle is how long no barrier has made progress, at now.
func (w *watchdog) idle(now sim.Cycle) sim.Cycle { return now - w.lastProg }

// verdict is what the watchdog decides of the live warps.
type verdict uint8

const (
	verdictRun      verdict = iota // some warp may still make progress
	verdictLivelock                // every live warp spins on a phase
	verdictDeadlock                // warps spin and are blocked on one another
)

// census counts what the live warps are doing.
type census struct {
	live, spinning int
	paths          int  // paths waiting for other warps in bar.sync or bar.warp.sync
	moving         bool // a warp that neither spins nor is blocked
}

// add counts a live warp: spinning on a phase, with paths paths waiting in
// CTA or warp barriers, blocked when none of its paths can move alone.
func (c *census) add(spinning bool, paths int, blocked bool) {
	c.live++
	c.paths += paths
	switch {
	case spinning:
		c.spinning++
	case !blocked:
		c.moving = true
	}
}

// verdict decides: nothing to stop while a warp may move (or none is
// live), a livelock when they only spin, a deadlock when some are blocked.
func (c *census) verdict() verdict {
	switch {
	case c.moving || c.live == 0:
		return verdictRun
	case c.paths == 0:
		return verdictLivelock
	}
	return verdictDeadlock
}

// watchdog stops a stuck run (see the watchdog type) with a diagnostic.
func (s *SM) watchdog(now sim.Cycle) error {
	if !s.watch.due(now) || s.inFlight() {
		return nil
	}
	var c census
	for _, wc := range s.warps {
		if wc == nil {
			continue
		}
		n, all := s.pathsInSyncs(wc)
		c.add(len(wc.openWaits) > 0, n, all)
		if c.moving {
			return nil
		}
	}
	switch c.verdict() {
	case verdictLivelock:
		head := fmt.Sprintf("%%d warps spin on barrier phases and no barrier made progress for %d cycles (watchdog.spin_cycles)",
			s.watch.idle(now))
		return s.stuck(DiagLivelock, "livelock", head)
	case verdictDeadlock:
		head := fmt.Sprintf("%%d warps wait on one another (%s in bar.sync or bar.warp.sync, %s spinning on mbarrier phases) "+
			"and no barrier made progress for %d cycles (watchdog.spin_cycles)", count(c.paths, "path"), count(c.spinning, "warp"), s.watch.idle(now))
		return s.stuck(DiagDeadlock, "deadlock", head)
	}
	return nil
}

// count writes n things: "1 path", "2 paths".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// pathsInSyncs counts the warp's paths waiting for other threads in a CTA
// barrier (bar.sync, barrier.sync, bar.red) or in bar.warp.sync, and reports
// whether no path can move without another warp (the others are parked at
// a reconvergence point, waiting for those).
func (s *SM) pathsInSyncs(wc *wctx) (int, bool) {
	n, all := 0, true
	for i := range wc.w.Splits() {
		sp := wc.w.Split(i)
		switch {
		case sp.State == warp.AtWarpSync:
			n++
		case sp.State == warp.Blocked && sp.WaitKind&0xf == waitBarSync:
			if _, bs := s.barSyncOf(wc, sp); bs == nil {
				all = false // released: it resumes when the barrier's latency has passed
				continue
			}
			n++
		case sp.State == warp.AtReconv, sp.State == warp.AtBsync:
		default:
			all = false
		}
	}
	return n, all
}
