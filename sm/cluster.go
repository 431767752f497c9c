package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Cluster is one thread-block cluster of a launch: CTAs that run at the same
// time on distinct SMs of one GPC and reach each other's shared memory and
// barriers (PTX ISA, thread block clusters). The GPU's dispatcher builds it
// and starts every rank at once; the SMs share it.
type Cluster struct {
	ID       [3]uint32 // %clusterid
	implicit bool      // a CTA of a launch without clusters: a cluster of one
	ctas     []*cta    // by rank
	live     int       // threads of the cluster not yet exited
	cbar     clusterBarrier
}

// NewCluster returns a cluster of n CTAs with cluster index id.
func NewCluster(id [3]uint32, n int) *Cluster {
	return &Cluster{ID: id, ctas: make([]*cta, n)}
}

// clusterBarrier is the cluster's barrier.cluster: every non-exited thread
// of the cluster arrives, then waits for the others (PTX ISA, barrier.cluster).
type clusterBarrier struct {
	arrived int             // threads arrived in the open generation
	last    sim.Cycle       // when the latest arrival counts
	gen     uint64          // completed generations
	release sim.Cycle       // when the latest completed generation releases its waiters
	waiting []clusterWaiter // blocked splits, on any SM of the cluster
}

type clusterWaiter struct {
	s   *SM
	ref waiterRef
	gen uint64 // the generation the split waits for
}

// CTASource hands CTAs to the SMs of a GPU: the SM asks it to refill the
// GPU whenever one of its CTAs retires.
type CTASource interface {
	Refill(now sim.Cycle) error
	Exhausted() bool // no CTA of the grid is left to start
}

// SetPlace makes the SM number smid of nsm, taking its CTAs from src (the
// GPU's dispatcher) rather than running the whole grid itself.
func (s *SM) SetPlace(smid, nsm int, src CTASource) {
	s.smid, s.nsm, s.source = smid, nsm, src
}

// CanStart reports whether a CTA of the current launch fits beside the
// SM's resident ones.
func (s *SM) CanStart() bool {
	l := s.launch
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	return s.fits((threads+warp.Lanes-1)/warp.Lanes, threads, s.prog.DynSmemBase()+l.DynSmem)
}

// StartCTA starts CTA id of the grid on the SM at now, as rank rank of cl
// (nil: a launch without clusters).
func (s *SM) StartCTA(now sim.Cycle, id int, cl *Cluster, rank int) error {
	l := s.launch
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	nw := (threads + warp.Lanes - 1) / warp.Lanes
	s.pendingCluster, s.pendingRank = cl, rank
	err := s.startCTA(now, id, nw, threads, s.prog.DynSmemBase()+l.DynSmem)
	s.pendingCluster = nil
	if err != nil {
		return err
	}
	if cl != nil {
		c := s.ctas[len(s.ctas)-1]
		cl.ctas[rank] = c
		cl.live += threads
	}
	// A CTA started when another's retired issues from the next cycle, as
	// on the SM that runs the whole grid itself (fillCTAs from warpDone).
	if now > s.start {
		now++
	}
	s.clk.WakeAt(now)
	return nil
}

// Resident is the number of CTAs resident on the SM.
func (s *SM) Resident() int { return len(s.ctas) }

// clusterEnv is where CTA c sits in its cluster: a launch without clusters
// runs each CTA as a cluster of one.
func (s *SM) clusterEnv(c *cta) warp.ClusterEnv {
	l := s.launch
	if c.cl.implicit {
		e := warp.ClusterEnv{NRank: 1, ID: c.idx, NCTAID: [3]uint32{1, 1, 1}}
		for i := range e.NID {
			e.NID[i] = uint32(l.Grid[i])
		}
		return e
	}
	e := warp.ClusterEnv{Rank: uint32(c.rank), NRank: uint32(len(c.cl.ctas)), ID: c.cl.ID, Explicit: true}
	for i := 0; i < 3; i++ {
		e.NCTAID[i] = uint32(l.Cluster[i])
		e.NID[i] = uint32(l.Grid[i] / l.Cluster[i])
		e.CTAID[i] = c.idx[i] % uint32(l.Cluster[i])
	}
	return e
}

// clusterExit notes that threads of c exited: a cluster barrier waits for
// the cluster's non-exited threads only.
func (s *SM) clusterExit(now sim.Cycle, c *cta, threads int) {
	if threads == 0 {
		return
	}
	c.cl.live -= threads
	s.clusterBarrierCheck(now, c.cl)
}

// Shared addresses of a cluster (measured, calibration/h200/cluster.csv sreg):
// mapa gives rank<<24 | offset, and a CTA's own shared::cta addresses carry
// its rank the same way. smsim's own addresses are the bare offset in every
// rank, so an address whose rank bits are 0 is the CTA's own, and mapa
// marks a mapping to rank 0 from another rank with mappedRank0.
const (
	rankShift   = 24
	offsetMask  = 1<<rankShift - 1
	mappedRank0 = 1 << 28
)

// mapAddr is mapa: offset off (of any CTA of the cluster) in the CTA of
// rank r, as CTA c addresses it.
func mapAddr(c *cta, off uint64, r int) uint64 {
	off &= offsetMask
	switch {
	case r == 0 && c.rank == 0:
		return off
	case r == 0:
		return mappedRank0 | off
	}
	return uint64(r)<<rankShift | off
}

// peerOf resolves a shared address of CTA c to the CTA it names and the
// offset there. ok is false for a rank outside the cluster; a CTA of a
// launch without clusters names only itself (the offset then carries the
// bits, which the bounds check refuses). ranked: the address names rank 0
// with zero rank bits, as the hardware's shared::cluster addresses do
// (isa.Program.RankedShared); otherwise zero rank bits are the CTA's own.
func peerOf(c *cta, v uint64, ranked bool) (*cta, uint64, int, bool) {
	hi := v >> rankShift
	if (hi == 0 && !ranked) || c.cl.implicit {
		return c, v, c.rank, true
	}
	rank := int(hi & 0xf)
	switch {
	case hi == mappedRank0>>rankShift:
		rank = 0
	case hi > 0xf:
		return nil, 0, -1, false
	}
	if rank >= len(c.cl.ctas) {
		return nil, 0, rank, false
	}
	return c.cl.ctas[rank], v & offsetMask, rank, true
}

// remoteCTA resolves lane l's shared address v for instruction in: the CTA
// it names, live, and the offset there; misuse (a rank outside the
// cluster, a CTA that has exited, .shared::cta naming another CTA) is a
// located diagnostic.
func (s *SM) remoteCTA(wc *wctx, in *isa.Instr, v uint64, lanes uint32, cta bool) (*cta, uint64, error) {
	// A .shared::cta access (LDS, STS) reaches the CTA's own memory without
	// its rank bits too; a shared::cluster or generic one of a SASS program
	// names rank 0 by zero rank bits.
	t, off, rank, ok := peerOf(wc.c, v, s.prog.RankedShared && !cta)
	if !ok && cta {
		return wc.c, v, nil // a .shared::cta address past the window: the bounds check says so
	}
	if !ok {
		return nil, 0, s.diag(wc, in, DiagMisuse, "cluster-rank", lanes,
			fmt.Sprintf("%s at shared::cluster address 0x%x names CTA rank %d, outside the cluster of %d CTAs", in.Op, v, rank, len(wc.c.cl.ctas)))
	}
	if t == wc.c {
		return t, off, nil
	}
	if cta {
		return nil, 0, s.diag(wc, in, DiagMisuse, "shared-cta-remote", lanes,
			fmt.Sprintf("%s.shared::cta at address 0x%x names CTA rank %d of the cluster, not the executing CTA (rank %d): use .shared::cluster", in.Op, v, rank, wc.c.rank))
	}
	if t.live == 0 {
		return nil, 0, s.diag(wc, in, DiagMisuse, "remote-exited", lanes,
			fmt.Sprintf("%s at shared::cluster address 0x%x reaches CTA rank %d of the cluster, which has exited: a CTA's shared memory lives only while it runs (keep it with barrier.cluster before exit)", in.Op, v, rank))
	}
	return t, off, nil
}
