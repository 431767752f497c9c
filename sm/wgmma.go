package sm

import (
	"errors"
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Warpgroup MMA (docs/wgmma.md). Each warp of a warpgroup executes its own
// wgmma.mma_async: its share, the 16 rows of D its rank names, is computed
// when it issues (its operands are read then: the ISA leaves a program that
// changes them before the wgmma completes undefined) and occupies its
// sub-partition's tensor pipe; its accumulators are complete
// tensor.latency cycles after the pipe is done with it. The warp's wgmma
// groups (commit_group) complete with their last share, and
// wgmma.wait_group N holds the warp until at most N of its groups are
// pending.

// waitMMA is the wait kind of a split held by wgmma.wait_group.
const waitMMA = 5

// mmaReader reads a CTA's shared memory for the descriptors of a wgmma,
// which reads it through the async proxy: bytes ordinary stores wrote with
// no fence.proxy.async since, or that a bulk copy is still writing, are a
// misuse (mbarrier-semantics.md §2.6). The SM keeps one (no allocation).
type mmaReader struct {
	s  *SM
	c  *cta
	in *isa.Instr
	wc *wctx
}

func (r *mmaReader) LoadShared(addr uint32, n int) (uint64, error) {
	if err := r.hazard(addr, n); err != nil {
		return 0, err
	}
	m := r.c.smem
	switch n {
	case 1:
		v, err := m.Load8(addr)
		return uint64(v), err
	case 2:
		v, err := m.Load16(addr)
		return uint64(v), err
	}
	v, err := m.Load32(addr)
	return uint64(v), err
}

// ReadChunks reads the 16-byte rows at addrs into b. Where the span from
// the lowest row to the end of the highest lies in the window with no
// granule ordinary stores left unfenced and no bulk load into it in
// flight, no row can fail, and the rows are copied without their checks;
// otherwise each row is checked in turn, as LoadShared does, and the first
// that fails is the error.
func (r *mmaReader) ReadChunks(addrs []uint32, b []byte) error {
	if len(addrs) == 0 {
		return nil
	}
	lo, hi := addrs[0], addrs[0]
	for _, a := range addrs[1:] {
		lo, hi = min(lo, a), max(hi, a)
	}
	if data := r.c.smem.Bytes(); uint64(hi)+16 <= uint64(len(data)) && r.clean(lo, hi+16) {
		for i, a := range addrs {
			*(*[16]byte)(b[16*i:]) = *(*[16]byte)(data[a:])
		}
		return nil
	}
	for i, a := range addrs {
		if err := r.hazard(a, 16); err != nil {
			return err
		}
		if err := r.c.smem.Read(a, b[16*i:16*i+16]); err != nil {
			return err
		}
	}
	return nil
}

// clean reports whether the async proxy may read shared [lo, hi): no
// 16-byte granule of it is unfenced, and no bulk load into the CTA that
// overlaps it is in flight.
func (r *mmaReader) clean(lo, hi uint32) bool {
	c := r.c
	if c.anyUnfenced {
		for g := uint64(lo) / 16; g < (uint64(hi)+15)/16 && g/64 < uint64(len(c.unfenced)); g++ {
			if c.unfenced[g/64]>>(g%64)&1 != 0 {
				return false
			}
		}
	}
	for _, ld := range r.s.landing {
		if ld.cta == c.id && lo < ld.hi && hi > ld.lo {
			return false
		}
	}
	return true
}

// hazard reports an async-proxy read of n bytes at addr that the generic
// proxy's writes or a bulk copy in flight make undefined.
func (r *mmaReader) hazard(addr uint32, n int) error {
	c := r.c
	if g := uint64(addr) / 16; c.anyUnfenced && g/64 < uint64(len(c.unfenced)) && c.unfenced[g/64]>>(g%64)&1 != 0 {
		return r.s.diag(r.wc, r.in, DiagMisuse, "wgmma-without-proxy-fence", warp.FullMask, fmt.Sprintf(
			"wgmma.mma_async reads shared 0x%x, written by ordinary stores with no fence.proxy.async since: the tensor cores read through the async proxy", addr))
	}
	for _, ld := range r.s.landing {
		if ld.cta == c.id && addr < ld.hi && addr+uint32(n) > ld.lo {
			return r.s.diag(r.wc, r.in, DiagMisuse, "wgmma-during-copy", warp.FullMask, fmt.Sprintf(
				"wgmma.mma_async reads shared 0x%x, which a bulk copy is still writing (shared [0x%x, 0x%x)): wait on its barrier first", addr, ld.lo, ld.hi))
		}
	}
	return nil
}

func (s *SM) execWgmma(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	w := wc.w
	switch in.Op {
	case isa.OpWgmma:
		if err := s.wgmma(now, wc, in, mask); err != nil {
			return err
		}
		if in.Flags.Has(isa.FCommitGroup) {
			s.commitMMA(wc)
		}
	case isa.OpWgmmaCommit:
		s.commitMMA(wc)
	case isa.OpWgmmaWait:
		if ready := wc.mma.waitFor(int(in.Src(0).Imm)); ready > now {
			s.blockUntil(now, wc, waitCode(waitMMA, ReasonMathPipeThrottle), ready, true)
			return nil
		}
	}
	wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[isa.ClassMMA])
	w.Advance()
	return nil
}

// commitMMA closes the warp's open wgmma group (commit_group).
func (s *SM) commitMMA(wc *wctx) {
	g := &wc.mma
	if s.obs != nil && g.openN > 0 {
		s.obs.MMAGroup(wc.slot, g.openN, uint64(g.openFrom-s.start), uint64(g.open-s.start))
	}
	g.committed = append(g.committed, g.open)
	g.open, g.openN = 0, 0
}

// waitFor returns when at most n of the warp's committed groups are
// pending, and forgets the groups it waits for.
func (g *mmaGroups) waitFor(n int) sim.Cycle {
	var ready sim.Cycle
	if k := len(g.committed) - n; k > 0 {
		for _, c := range g.committed[:k] {
			ready = max(ready, c)
		}
		g.committed = append(g.committed[:0], g.committed[k:]...)
	}
	return ready
}

// wgmma executes the warp's share of a wgmma.mma_async and books it on the
// sub-partition's tensor pipe.
func (s *SM) wgmma(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	w := wc.w
	if mask != warp.FullMask {
		return s.diag(wc, in, DiagMisuse, "wgmma-partial-warp", mask,
			fmt.Sprintf("wgmma.mma_async is .sync.aligned: all 32 threads of the warp must execute it (active %#08x)", mask))
	}
	if first := w.InCTA &^ 3; (first+4)*warp.Lanes > wc.c.threads {
		return s.diag(wc, in, DiagMisuse, "wgmma-partial-warpgroup", mask,
			fmt.Sprintf("wgmma.mma_async needs a whole warpgroup: warps %d-%d of the CTA, whose %d threads leave it short", first, first+3, wc.c.threads))
	}
	p := s.mmaWorkers()
	if pw := wc.mma.pending; pw != nil && pw.any && pw.touchesOperands(in, int(in.NDst)+int(in.NDst)) {
		pw.join() // A's registers or a descriptor written by an earlier wgmma not yet computed
	}
	g := p.frame()
	if err := w.DecodeWgmma(in, mask, uint64(now-s.start), g); err != nil {
		p.release(g)
		code := "wgmma-operand"
		if !errors.Is(err, warp.ErrWgmmaOperand) {
			code = "unsupported"
		}
		return s.diag(wc, in, DiagMisuse, code, mask, err.Error())
	}
	if g.NRegs == 0 { // SASS's group marker (xGMMA RZ, gdesc[URZ], RZ): no accumulators, nothing read
		s.bookTensor(now, wc, g)
		p.release(g)
		return nil
	}
	s.mmaRead = mmaReader{s: s, c: wc.c, in: in, wc: wc}
	if err := g.Load(w.InCTA&3, &s.mmaRead, &s.mmaModel); err != nil {
		p.release(g)
		var d *Diag
		if errors.As(err, &d) {
			return d
		}
		return s.diag(wc, in, DiagMisuse, "shared-out-of-bounds", mask,
			fmt.Sprintf("wgmma.mma_async reads a matrix outside the block's %d bytes of shared memory: %v", wc.c.smem.Size(), err))
	}
	s.bookTensor(now, wc, g) // before the job: a worker may reuse g once it is done
	s.submitMMA(p, wc, in, g)
	return nil
}

// mmaWorkers returns the workers that compute the SM's wgmmas: the GPU's
// (ShareMMAWorkers), else the SM's own, started at its first wgmma.
func (s *SM) mmaWorkers() *MMAWorkers {
	if s.mmaPool == nil {
		s.mmaPool, s.ownPool = NewMMAWorkers(s.threads), true
	}
	return s.mmaPool
}

// SetThreads bounds the host threads the SM alone may use (0: every core;
// MMAWorkers).
func (s *SM) SetThreads(n int) { s.threads = n }

// ShareMMAWorkers has the SM's wgmmas computed by p, which its owner
// closes.
func (s *SM) ShareMMAWorkers(p *MMAWorkers) { s.mmaPool, s.ownPool = p, false }

// submitMMA hands the accumulators' part of the warp's wgmma to the
// workers, noting the registers it reads and writes.
func (s *SM) submitMMA(p *MMAWorkers, wc *wctx, in *isa.Instr, g *warp.Wgmma) {
	pw := wc.mma.pending
	if pw == nil {
		pw = &mmaPending{}
		wc.mma.pending = pw
	}
	if p.queues != nil {
		for j := 0; j < g.NRegs; j++ {
			pw.mark(in.Src(j).Reg)
			if d := in.Dst(j); d.Kind == isa.KReg {
				pw.mark(d.Reg)
			}
		}
		pw.any = true
	}
	p.submit(s.smid*maxWarpSlots+wc.slot, mmaJob{g: g, w: wc.w, in: in, m: &s.mmaModel, pending: pw})
}

// joinMMA waits until the wgmmas of every warp of the SM are computed.
func (s *SM) joinMMA() {
	for _, wc := range s.warps {
		if wc != nil && wc.mma.pending != nil {
			wc.mma.pending.join()
		}
	}
}

// closeMMA joins the SM's warps and stops its own workers.
func (s *SM) closeMMA() {
	s.joinMMA()
	if s.ownPool && s.mmaPool != nil {
		s.mmaPool.Close()
		s.mmaPool = nil
	}
}

// bookTensor holds the warp's sub-partition's tensor pipe for its share and
// adds the share's completion to the warp's open group.
func (s *SM) bookTensor(now sim.Cycle, wc *wctx, g *warp.Wgmma) {
	if len(s.tensor) != s.cfg.Sched.Count {
		s.tensor = make([]tensorPipe, s.cfg.Sched.Count)
	}
	p := &s.tensor[wc.sp]
	start := max(now, p.free)
	p.free = start + s.cfg.Tensor.shareCycles(g.A, g.N, g.K, s.cfg.Sched.Count)
	if g.NRegs > 0 {
		s.lsu.shareArray(now, start, p.free, operandWavefronts(g), true)
	}
	if wc.mma.openN == 0 {
		wc.mma.openFrom = now
	}
	wc.mma.openN++
	wc.mma.open = max(wc.mma.open, p.free+sim.Cycle(s.cfg.Tensor.Latency))
}

// operandWavefronts is the shared-memory data array's cycles (128-byte
// wavefronts) that one warp's share of a wgmma takes reading its operands
// while it holds the tensor pipe: its 16 rows of A when A comes from a
// descriptor, and a quarter of B, which the warpgroup's four shares read
// once. calibration/h200/stg_wgmma.cu: beside a stream of wgmma
// m64n128k16 (6 KiB read a wgmma, 65 cycles) a warp's 256-byte STS takes 7.8
// cycles, 2.34 alone, and the wgmmas do not slow: their reads take the
// array first, 48 of every 65 cycles, and the warps get the rest.
func operandWavefronts(g *warp.Wgmma) int {
	bytes := g.N * g.K * g.B.Bits() / 8 / 4
	if g.ADesc {
		bytes += 16 * g.K * g.A.Bits() / 8
	}
	return (bytes + 127) / 128
}
