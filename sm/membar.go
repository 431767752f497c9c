package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// A GPU-scope memory barrier is what ptxas emits for fence.acq_rel (or .sc)
// at .cluster, .gpu or .sys scope and before every .release operation at
// cluster scope (barrier.cluster.arrive, mbarrier.arrive.release.cluster):
// MEMBAR.ALL.GPU (cluster_probe.sass, fencecost.sass). The H200 holds the
// issuing warp until the L2 has acknowledged the warp's earlier global
// writes and then for the barrier's own round trip, cluster.release
// (calibration/h200/fencecost.csv: fence.acq_rel.gpu alone 307 cycles clock
// to clock, after one st.global a thread 536, a remote release arrive alone
// 270 and after a st.global 512-562; a cluster barrier alone 335 and after
// a st.global 648: the ack and the round trip add up, they do not overlap).
// A bulk copy into the CTA's shared memory counts as such a write from the
// moment its bytes land until one L2 round trip later, for every warp of
// the CTA, the one that issued it or not: a cluster barrier right after a
// waited-for bulk copy costs 574 cycles against 335 alone, after a
// multicast issued by the other CTA 576, and both split 490/655 between
// rounds as a store's acknowledgement does between the L2's near and far
// partitions (fencecost.csv modes 7, 8, 5 and 1).

// gpuMembar reports whether in is a GPU-scope memory barrier: a fence at
// cluster scope or wider that is not only a proxy or mbarrier-init fence.
func gpuMembar(in *isa.Instr) bool {
	return in.Op == isa.OpFence && in.Scope >= isa.ScopeCluster &&
		!in.Flags.Has(isa.FProxyAsync) && !in.Flags.Has(isa.FProxyTensormap) && !in.Flags.Has(isa.FMbarInitFence)
}

// membar runs a GPU-scope memory barrier for wc issued at now and returns
// when it completes: the warp's global writes and the copies landed in its
// CTA acknowledged, then cluster.release. Until a later global write, the warp's next .release
// at cluster scope is covered by it (releasedAt).
func (s *SM) membar(wc *wctx, now sim.Cycle) sim.Cycle {
	done := max(now, wc.writeAck, wc.c.copyAck) + sim.Cycle(s.cfg.GPU.Release)
	wc.fencedAt, wc.fenced = done, true
	return done
}

// releasesAtCluster reports whether in, an mbarrier update, releases at
// cluster scope (mbarrier.arrive's default semantics is .release).
func releasesAtCluster(in *isa.Instr) bool {
	return in.Scope >= isa.ScopeCluster && (in.Sem == isa.SemNone || in.Sem == isa.SemRelease || in.Sem == isa.SemAcqRel)
}

// releasedAt is when a .release at cluster scope issued at cycle at has
// made the warp's earlier writes visible to the cluster: at the completion
// of the membar just before it (SASS: MEMBAR.ALL.GPU, then the arrive),
// else of the membar the release itself performs (a PTX operation carries
// it). Each release takes the membar before it once.
func (s *SM) releasedAt(wc *wctx, at sim.Cycle) sim.Cycle {
	if wc.fenced {
		wc.fenced = false
		return max(at, wc.fencedAt)
	}
	done := s.membar(wc, at)
	wc.fenced = false
	return done
}
