package sm

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// peerRead reads lane l's bytes from the shared memory of s.peer, another
// CTA of the warp's cluster (distributed shared memory).
func (s *SM) peerRead(wc *wctx, in *isa.Instr, off uint64, l int, b []byte) error {
	if err := s.sharedCheck(wc, in, s.peer, off, uint64(len(b)), l); err != nil {
		return err
	}
	_ = s.peer.smem.Read(uint32(off), b)
	return nil
}

// peerWrite writes lane l's bytes into the shared memory of s.peer.
func (s *SM) peerWrite(wc *wctx, in *isa.Instr, off uint64, l int, b []byte) error {
	if err := s.sharedCheck(wc, in, s.peer, off, uint64(len(b)), l); err != nil {
		return err
	}
	_ = s.peer.smem.Write(uint32(off), b)
	return nil
}

// sectorsTouched counts the distinct sectors of sector bytes that the
// lanes of mask touch, each size bytes at its offset in words. The
// SM-to-SM network moves whole 32-byte sectors, as the L1-to-L2 path does:
// a warp's 4-byte loads 32 bytes apart take a turn of 1 KiB on the link,
// not of 128 bytes (clusterphase.csv: k_cf's strided DSMEM load holds the
// CTA's last warp about 50 cycles a warp behind its first).
func sectorsTouched(words *[sharedmem.WarpSize]uint32, mask uint32, size, sector int) int {
	var seen [2 * warp.Lanes]uint32
	n := 0
	for m := mask; m != 0; m &= m - 1 {
		off := words[bits.TrailingZeros32(m)]
		for sec := off / uint32(sector); sec <= (off+uint32(size)-1)/uint32(sector); sec++ {
			if !slices.Contains(seen[:n], sec) && n < len(seen) {
				seen[n] = sec
				n++
			}
		}
	}
	return n
}

// dsmemLatency is what a shared-memory access of bytes bytes adds when it
// goes through the cluster's shared window: to another CTA's memory, the
// SM-to-SM trip (dsmem.latency) and the bytes' turn on the SM's link to
// the network (dsmem.bytes_per_cycle); through .shared::cluster to the
// CTA's own, dsmem.self_latency.
func (s *SM) dsmemLatency(now sim.Cycle, in *isa.Instr, remote bool, bytes int) sim.Cycle {
	switch {
	case remote:
		// The link's free time in 1/256 cycle, so that small transfers'
		// occupancy accumulates without rounding.
		start := max(uint64(now)*256, s.dsmemFree)
		s.dsmemFree = start + uint64(bytes)*256/uint64(s.cfg.GPU.DSMEMBytesPerCycle)
		done := sim.Cycle((s.dsmemFree + 255) / 256)
		return max(done-now, 1) - 1 + sim.Cycle(s.cfg.GPU.DSMEMLatency)
	case in.Space == isa.Cluster:
		return sim.Cycle(s.cfg.GPU.DSMEMSelf)
	}
	return 0
}

// execMapa is mapa (the address of a shared variable in the CTA of a given
// rank) and getctarank (the rank an address names, Mode MapaRank).
func (s *SM) execMapa(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	a := *wc.w.Operand(in.Src(0), 0, mask, t)
	var r *warp.Vec
	if in.Mode != isa.MapaRank {
		r = wc.w.Operand(in.Src(1), 1, mask, t)
	}
	n := len(wc.c.cl.ctas)
	var d warp.Vec
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		v, base := a[l], uint64(0)
		if in.Space == isa.Generic {
			if v < isa.SharedWindow || v >= isa.SharedWindow+isa.WindowSize {
				return s.diag(wc, in, DiagMisuse, "not-shared", 1<<l,
					fmt.Sprintf("%s of generic address 0x%x, which is not in shared memory", in.Op, v))
			}
			v, base = v-isa.SharedWindow, isa.SharedWindow
		}
		if in.Mode == isa.MapaRank {
			_, _, rank, ok := peerOf(wc.c, v, s.prog.RankedShared)
			if !ok {
				return s.diag(wc, in, DiagMisuse, "cluster-rank", 1<<l,
					fmt.Sprintf("getctarank of shared::cluster address 0x%x: rank %d is outside the cluster of %d CTAs", a[l], rank, n))
			}
			d[l] = uint64(rank)
			continue
		}
		rank := r[l] & 0xffffffff
		if rank >= uint64(n) {
			return s.diag(wc, in, DiagMisuse, "cluster-rank", 1<<l,
				fmt.Sprintf("mapa to CTA rank %d of a cluster of %d CTAs (ranks 0..%d)", rank, n, n-1))
		}
		d[l] = base + mapAddr(wc.c, v, int(rank))
	}
	wc.w.Write(in.Dst(0), mask, &d, in.Type)
	s.dstReady(wc, in, now+sim.Cycle(s.cfg.Pipes.Latency[in.Class]), ReasonWait)
	wc.w.Advance()
	return nil
}

// anyRemote reports whether a group of gs[:n] reaches a CTA other than own.
func (s *SM) anyRemote(gs *[warp.Lanes]group, n int, own *cta) bool {
	for k := 0; k < n; k++ {
		if gs[k].peer != own {
			return true
		}
	}
	return false
}

// remoteHandler applies, on the SM of the target CTA, a barrier operation
// another SM's warp sent through the cluster (arg: its slot in the inbox).
type remoteHandler struct{ s *SM }

func (h remoteHandler) Handle(now sim.Cycle, arg uint64) error {
	s := h.s
	op := s.inbox.ops[arg]
	s.inbox.put(int(arg))
	defer s.opDone(op.target)
	if op.target.live == 0 {
		err := s.diag(op.wc, op.in, DiagMisuse, "remote-exited", op.lanes, fmt.Sprintf(
			"%s reaches a barrier of CTA rank %d of the cluster, which has exited: a CTA's shared memory lives only while it runs (keep it with barrier.cluster before exit)",
			op.in.Op, op.target.rank))
		s.fail(err)
		return err
	}
	s.stats.SyncsUpdates++
	if op.landed {
		if err := s.completeTx(now, op.target, op.addr, uint32(op.tx), op.wc, op.in); err != nil {
			s.fail(err)
			return err
		}
		return nil
	}
	if err := s.applyUpdate(now, &op); err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// execRemoteMbarrier sends an mbarrier operation's groups to barriers of
// other CTAs of the cluster (mbarrier.arrive, expect_tx, complete_tx on
// .shared::cluster addresses): each is applied on the target's SM
// cluster.arrive_latency after the warp's earlier barrier updates. A wait,
// init or inval on another CTA's barrier is not defined (PTX ISA, mbarrier:
// only arrive and the tx operations take .shared::cluster).
func (s *SM) execRemoteMbarrier(now sim.Cycle, wc *wctx, in *isa.Instr, gs *[warp.Lanes]group, n int) error {
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx, isa.OpMbarCompleteTx:
	default:
		return s.diag(wc, in, DiagMisuse, "remote-barrier-op", gs[0].lanes,
			fmt.Sprintf("%s on a barrier of another CTA of the cluster: only arrive, expect_tx and complete_tx reach a remote mbarrier", in.Op))
	}
	if in.NDst > 0 && in.Dst(0).Kind == isa.KReg {
		return s.diag(wc, in, DiagMisuse, "remote-barrier-op", gs[0].lanes,
			fmt.Sprintf("%s on another CTA's barrier returns no state: its destination must be _", in.Op))
	}
	wc.syncsFree = s.syncs.warpNext(now)
	// A .release at cluster scope (mbarrier.arrive's default semantics at
	// .cluster) is a GPU membar before the SM-to-SM trip; the trip alone
	// is cluster.arrive_latency less cluster.release.
	at := max(now, wc.lastUpdate)
	if releasesAtCluster(in) {
		at = s.releasedAt(wc, at)
		wc.heldUntil = max(wc.heldUntil, at)
	} else {
		at += sim.Cycle(s.cfg.GPU.Release)
	}
	at += sim.Cycle(s.cfg.GPU.ArriveLatency - s.cfg.GPU.Release)
	for k := 0; k < n; k++ {
		g := &gs[k]
		op := syncsOp{in: in, wc: wc, slot: wc.slot, addr: g.addr, lanes: g.lanes, count: g.count, tx: g.tx,
			last: k == n-1, groups: uint8(n), epoch: wc.c.bsyncEpoch(), issued: now, at: at, target: g.peer}
		t := g.peer.sm
		i, slot := t.inbox.get()
		*slot = op
		g.peer.pending++
		t.eng.Schedule(at, sim.PhaseDeliver, remoteHandler{t}, uint64(i))
	}
	wc.remoteAt = max(wc.remoteAt, at)
	s.dstReady(wc, in, now+sim.Cycle(s.cfg.Pipes.Latency[in.Class]), ReasonMbarrier)
	wc.w.Advance()
	return nil
}
