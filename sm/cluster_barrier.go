package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// waitCluster is the wait kind of a split blocked in barrier.cluster.wait.
const waitCluster = 5

// execClusterArrive is barrier.cluster.arrive: the warp's active threads
// arrive at their cluster's barrier. A .release arrival (the default)
// counts once the CTA's earlier memory operations are visible to the
// cluster (cluster.release); a .relaxed one at once.
func (s *SM) execClusterArrive(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if wc.cbarArmed&mask != 0 {
		return s.diag(wc, in, DiagMisuse, "cluster-barrier", mask,
			"barrier.cluster.arrive twice without a barrier.cluster.wait in between (PTX ISA: each arrive is followed by a wait)")
	}
	cl, c, spec := wc.c.cl, wc.c, s.cfg.GPU
	at := max(now, wc.lastUpdate)
	if in.Sem != isa.SemRelaxed {
		// The CTA's warps wait for visibility one after another.
		at = max(at, c.releaseFree)
		c.releaseFree = at + sim.Cycle(spec.ReleaseInterval)
		// The release also orders the warp's operations on other CTAs'
		// barriers: they are applied before its arrival counts.
		rel := s.releasedAt(wc, at)
		wc.heldUntil = max(wc.heldUntil, rel)
		at = max(rel, wc.remoteAt)
	}
	at = max(at, c.arriveFree)
	c.arriveFree = at + sim.Cycle(spec.ArriveInterval)
	cb := &cl.cbar
	cb.arrived += popcount(mask)
	cb.last = max(cb.last, at)
	wc.cbarArmed |= mask
	wc.cbarGen = cb.gen + 1
	s.clusterBarrierCheck(now, cl)
	wc.w.Advance()
	return nil
}

// execClusterWait is barrier.cluster.wait: the warp waits until the
// generation it arrived in has completed and been released.
func (s *SM) execClusterWait(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if mask&^wc.cbarArmed != 0 {
		return s.diag(wc, in, DiagMisuse, "cluster-barrier", mask,
			"barrier.cluster.wait without a barrier.cluster.arrive before it (PTX ISA: a wait follows the thread's arrive)")
	}
	wc.cbarArmed &^= mask
	cb := &wc.c.cl.cbar
	if cb.gen >= wc.cbarGen && cb.release <= now {
		wc.w.Advance()
		return nil
	}
	sp := wc.w.Block()
	s.tickets++
	sp.WaitKind, sp.WaitArg, sp.WaitSince, sp.WaitAddr = waitCode(waitCluster, ReasonBarrier), s.tickets, uint64(now), 1 // advance when released
	ref := waiterRef{slot: wc.slot, ticket: s.tickets}
	if cb.gen >= wc.cbarGen { // complete, released later
		s.eng.Schedule(cb.release, sim.PhaseDeliver, timerHandler{s}, uint64(ref.slot)<<48|ref.ticket)
		return nil
	}
	cb.waiting = append(cb.waiting, clusterWaiter{s: s, ref: ref, gen: wc.cbarGen})
	return nil
}

// clusterBarrierCheck completes the cluster barrier's generation once every
// non-exited thread of the cluster has arrived, and releases its waiters,
// on whichever SM they run, cluster.barrier_latency after the last arrival.
func (s *SM) clusterBarrierCheck(now sim.Cycle, cl *Cluster) {
	cb := &cl.cbar
	if cb.arrived == 0 || cb.arrived < cl.live {
		return
	}
	cb.release = max(cb.last, now) + sim.Cycle(s.cfg.GPU.BarrierLatency)
	cb.gen++
	cb.arrived = 0
	k := 0
	for _, w := range cb.waiting {
		if w.gen > cb.gen {
			cb.waiting[k] = w
			k++
			continue
		}
		w.s.eng.Schedule(cb.release, sim.PhaseDeliver, timerHandler{w.s}, uint64(w.ref.slot)<<48|w.ref.ticket)
		w.s.progress(now)
	}
	cb.waiting = cb.waiting[:k]
}

// clusterWaitWhat describes a split blocked in barrier.cluster.wait.
func clusterWaitWhat(c *cta) string {
	cb := &c.cl.cbar
	return fmt.Sprintf("waiting in barrier.cluster.wait (%d of the cluster's %d non-exited threads arrived, cluster of %d CTAs)",
		cb.arrived, c.cl.live, len(c.cl.ctas))
}
