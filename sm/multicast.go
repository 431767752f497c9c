package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// multicastMask reads a .multicast::cluster copy's CTA mask (v, its last
// operand): bit r names rank r of the cluster, each a CTA that exists.
func (s *SM) multicastMask(wc *wctx, in *isa.Instr, l int, v uint64) (uint16, error) {
	if !in.Flags.Has(isa.FMulticast) {
		return 0, nil
	}
	m := uint16(v)
	n := len(wc.c.cl.ctas)
	if m == 0 || int(m)>>n != 0 {
		return 0, s.diag(wc, in, DiagMisuse, "cluster-rank", 1<<l, fmt.Sprintf(
			"multicast to CTA mask 0x%04x: the cluster has %d CTAs (ranks 0..%d), and the mask names none or others", m, n, n-1))
	}
	return m, nil
}

// copyShared resolves a bulk copy's shared address (destination, barrier
// or source) to an offset in the issuing CTA: an address of another CTA of
// the cluster is refused (multicast loads reach other CTAs through their
// mask, at the same offsets).
func (s *SM) copyShared(wc *wctx, in *isa.Instr, l int, v uint64) (uint32, error) {
	t, off, err := s.remoteCTA(wc, in, v, 1<<l, false)
	if err != nil {
		return 0, err
	}
	if t != wc.c && !in.Flags.Has(isa.FMulticast) {
		return 0, s.diag(wc, in, DiagInput, "unsupported", 1<<l, fmt.Sprintf(
			"%s into shared address 0x%x of CTA rank %d of the cluster: smsim's bulk copies land in the issuing CTA, or through a multicast mask", in.Op, v, t.rank))
	}
	return uint32(off), nil
}

// issueMulticast issues a multicast load to every CTA of its mask: each
// destination's SM lands the bytes in that CTA's shared memory and
// completes that CTA's barrier, at the same offsets. Measured
// (calibration/h200/cluster.csv mcast): the issuing CTA's barrier completes
// after as many cycles as for a unicast copy of the same size, for 2 and 4
// destinations alike, so each destination is timed as its own load.
func (s *SM) issueMulticast(now sim.Cycle, wc *wctx, in *isa.Instr, l int, r CopyRequest) error {
	cl := wc.c.cl
	for rank := range cl.ctas {
		if r.Multicast>>rank&1 == 0 {
			continue
		}
		t := cl.ctas[rank]
		if t.live == 0 {
			return s.diag(wc, in, DiagMisuse, "remote-exited", 1<<l, fmt.Sprintf(
				"multicast to CTA rank %d of the cluster, which has exited: a CTA's shared memory lives only while it runs", rank))
		}
		d := t.sm
		if d.copy == nil {
			return s.diag(wc, in, DiagInput, "no-copy-engine", 1<<l, "bulk copies need a copy engine and none is attached")
		}
		x := r
		d.copyID++
		x.ID, x.CTA, x.Multicast = d.copyID, t.id, 0
		if err := d.copy.Issue(now, x); err != nil {
			return s.diag(wc, in, DiagMisuse, "bulk-copy", 1<<l, err.Error())
		}
		if n, ok := sharedBytes(x); ok {
			d.noteLanding(x, n)
		}
		d.copyIssued[x.ID] = copyInfo{at: uint64(now - d.start), bytes: int(x.Size), mbar: x.Mbar, in: in, warp: wc.slot, cta: t.id}
	}
	return nil
}
