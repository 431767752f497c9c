package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// execDSMEMCopy is cp.async.bulk.shared::cluster.shared::cta: each active
// lane copies size bytes of its CTA's shared memory into another CTA of the
// cluster and completes them on a barrier of that CTA. The bytes are moved
// at issue (a reader that waits on the barrier sees them at completion);
// the completion comes after the bytes' turn on the SM's link and the
// SM-to-SM trip (dsmem.bytes_per_cycle, dsmem.latency).
func (s *SM) execDSMEMCopy(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		val := func(i int) uint64 { return wc.w.Operand(in.Src(i), 0, 1<<l, t)[l] }
		if err := s.dsmemCopyLane(now, wc, in, l, val(0), val(1), val(2), val(3)); err != nil {
			return err
		}
	}
	wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[isa.ClassTMA])
	wc.w.Advance()
	return nil
}

// dsmemCopyLane is lane l's copy of size bytes from src (own shared
// memory) to dst, completing on the barrier at mbar (both shared::cluster
// addresses of one other CTA).
func (s *SM) dsmemCopyLane(now sim.Cycle, wc *wctx, in *isa.Instr, l int, dst, src, size, mbar uint64) error {
	lane := uint32(1) << l
	_, dv := space(in.Space, dst)
	_, sv := space(in.Space2, src)
	_, mv := space(isa.Cluster, mbar)
	dc, doff, err := s.remoteCTA(wc, in, dv, lane, false)
	if err != nil {
		return err
	}
	mc, moff, err := s.remoteCTA(wc, in, mv, lane, false)
	if err != nil {
		return err
	}
	switch {
	case dc == wc.c:
		return s.diag(wc, in, DiagMisuse, "dsmem-copy", lane, fmt.Sprintf(
			"%s.shared::cluster.shared::cta into the issuing CTA's own shared memory (0x%x): the destination must be another CTA's of the cluster", in.Op, dst))
	case mc != dc:
		return s.diag(wc, in, DiagMisuse, "dsmem-copy", lane, fmt.Sprintf(
			"%s.shared::cluster.shared::cta completes on a barrier of CTA rank %d, not of the destination's (rank %d)", in.Op, mc.rank, dc.rank))
	case size == 0 || size%16 != 0 || sv%16 != 0 || doff%16 != 0:
		return s.diag(wc, in, DiagMisuse, "misaligned", lane, fmt.Sprintf(
			"%s of %d bytes from 0x%x to 0x%x: the size and both addresses must be multiples of 16", in.Op, size, sv, doff))
	}
	if err := s.sharedCheck(wc, in, wc.c, sv, size, l); err != nil {
		return err
	}
	if err := s.sharedCheck(wc, in, dc, doff, size, l); err != nil {
		return err
	}
	b := s.laneBuf[:16]
	for k := uint64(0); k < size; k += 16 {
		_ = wc.c.smem.Read(uint32(sv+k), b)
		_ = dc.smem.Write(uint32(doff+k), b)
	}
	at := now + s.dsmemLatency(now, in, true, int(size))
	d := dc.sm
	i, op := d.inbox.get()
	*op = syncsOp{in: in, wc: wc, slot: wc.slot, addr: uint32(moff), tx: size, issued: now, at: at, target: dc, landed: true}
	dc.pending++
	d.eng.Schedule(at, sim.PhaseDeliver, remoteHandler{d}, uint64(i))
	return nil
}
