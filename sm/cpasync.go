package sm

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Ampere-style asynchronous copies (cp.async): each thread copies 4, 8 or 16
// bytes from global to shared memory; the bytes land after the global
// access's latency. A thread's copies form groups (commit_group) it waits on
// (wait_group, wait_all), and cp.async.mbarrier.arrive makes an mbarrier
// arrival once all of the thread's earlier copies have landed.

// cpLanding is one warp instruction's copies in flight: the event that
// lands them. Landed ones go back to the SM's free list (cpFree), so the
// copies of a loop allocate nothing once the first few are in flight.
type cpLanding struct {
	s     *SM
	c     *cta
	lanes uint32
	dst   [warp.Lanes]uint32
	src   [warp.Lanes]uint64
	size  [warp.Lanes]uint8
	fill  [warp.Lanes]uint8 // bytes to read from global; the rest are zero (src-size operand)
	in    *isa.Instr
	wc    *wctx
}

// cpThreads is a warp's per-lane cp.async bookkeeping.
type cpThreads struct {
	open   [warp.Lanes]sim.Cycle   // landing of the uncommitted copies (latest)
	groups [warp.Lanes][]sim.Cycle // committed groups, oldest first: their landing cycles
	last   [warp.Lanes]sim.Cycle   // latest landing of any copy of the lane
}

func (s *SM) execCpAsync(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	switch in.Op {
	case isa.OpCpAsyncCommit:
		for l := 0; l < warp.Lanes; l++ {
			if mask>>l&1 != 0 {
				wc.cp.groups[l] = append(wc.cp.groups[l], wc.cp.open[l])
				wc.cp.open[l] = 0
			}
		}
		wc.w.Advance()
		return nil
	case isa.OpCpAsyncWait:
		n := -1 // wait_all
		if in.NSrc() > 0 {
			n = int(wc.w.Scalar(in.Src(0), mask, t))
		}
		ready := s.cpGroupsReady(wc, mask, n, now)
		if ready > now {
			s.blockUntil(now, wc, waitCode(waitBulk, ReasonLongScoreboard), ready, true)
			return nil
		}
		wc.w.Advance()
		return nil
	case isa.OpCpAsyncMbarArrive:
		return s.cpAsyncArrive(now, wc, in, mask)
	}
	return s.cpAsyncCopy(now, wc, in, mask, t)
}

// cpGroupsReady returns when at most n of the cp.async groups of each lane
// of mask are pending (n < 0: every copy has landed), and forgets the
// groups waited for.
func (s *SM) cpGroupsReady(wc *wctx, mask uint32, n int, now sim.Cycle) sim.Cycle {
	ready := now
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		g := wc.cp.groups[l]
		keep := max(n, 0)
		if n < 0 {
			ready = max(ready, wc.cp.last[l])
			wc.cp.groups[l], wc.cp.open[l] = g[:0], 0
			continue
		}
		if len(g) > keep {
			for _, c := range g[:len(g)-keep] {
				ready = max(ready, c)
			}
			wc.cp.groups[l] = append(g[:0], g[len(g)-keep:]...)
		}
	}
	return ready
}

// cpAsyncCopy issues one cp.async per active lane: [dst shared], [src global], size [, src-size].
func (s *SM) cpAsyncCopy(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32, t uint64) error {
	dv := *wc.w.Operand(in.Src(0), 0, mask, t)
	sv := *wc.w.Operand(in.Src(1), 1, mask, t)
	size := int(wc.w.Scalar(in.Src(2), mask, t))
	if size != 4 && size != 8 && size != 16 {
		return s.diag(wc, in, DiagMisuse, "cp-async-size", mask, fmt.Sprintf("cp.async size %d is not 4, 8 or 16", size))
	}
	var fv *warp.Vec
	if in.NSrc() > 3 {
		fv = wc.w.Operand(in.Src(3), 2, mask, t)
	}
	ld := s.newCpLanding()
	ld.c, ld.lanes, ld.in, ld.wc = wc.c, mask, in, wc
	var worst sim.Cycle
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		sp, off := space(in.Space, dv[l])
		if sp != isa.Shared {
			return s.diag(wc, in, DiagMisuse, "not-shared", 1<<l, fmt.Sprintf("cp.async destination 0x%x is not shared memory", dv[l]))
		}
		if err := s.sharedCheck(wc, in, wc.c, off, uint64(size), l); err != nil {
			return err
		}
		if sv[l]%uint64(size) != 0 {
			return s.diag(wc, in, DiagMisuse, "misaligned", 1<<l, fmt.Sprintf("cp.async source 0x%x is not %d-byte aligned", sv[l], size))
		}
		ld.dst[l], ld.src[l], ld.size[l], ld.fill[l] = uint32(off), sv[l], uint8(size), uint8(size)
		if fv != nil && fv[l] < uint64(size) {
			ld.fill[l] = uint8(fv[l])
		}
		worst = max(worst, s.lsu.access(now, sv[l], size, in.Flags.Has(isa.FBypassL1), false))
	}
	at := now + worst
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 != 0 {
			wc.cp.open[l] = max(wc.cp.open[l], at)
			wc.cp.last[l] = max(wc.cp.last[l], at)
		}
	}
	s.cpInFlight++
	wc.c.pending++
	s.eng.Schedule(at, sim.PhaseDeliver, ld, 0)
	wc.w.Advance()
	return nil
}

// newCpLanding takes a landing from the free list, or a new one.
func (s *SM) newCpLanding() *cpLanding {
	if n := len(s.cpFree); n > 0 {
		ld := s.cpFree[n-1]
		s.cpFree = s.cpFree[:n-1]
		return ld
	}
	return &cpLanding{s: s}
}

// Handle writes the landed bytes into shared memory.
func (ld *cpLanding) Handle(now sim.Cycle, _ uint64) error {
	s := ld.s
	s.cpInFlight--
	defer func() {
		s.opDone(ld.c)
		s.cpFree = append(s.cpFree, ld)
	}()
	span, base := ld.srcSpan()
	for l := 0; l < warp.Lanes; l++ {
		if ld.lanes>>l&1 == 0 {
			continue
		}
		b := s.laneBuf[:ld.size[l]] // a local array would escape through the GlobalMemory interface
		clear(b)
		if span != nil {
			copy(b[:ld.fill[l]], span[ld.src[l]-base:])
		} else if err := s.gmem.Read(ld.src[l], b[:ld.fill[l]]); err != nil {
			err = s.globalErr(ld.wc, ld.in, l, err)
			s.fail(err)
			return err
		}
		if err := ld.c.smem.Write(ld.dst[l], b); err != nil {
			s.fail(err)
			return err
		}
	}
	return nil
}

// srcSpan is the global bytes every lane of the landing reads, from base,
// when they lie in one region and a span the memory lends (memory.Global's
// Span: one check and one copy or generation for the warp); nil when they do
// not, and each lane reads its own, as before.
func (ld *cpLanding) srcSpan() ([]byte, uint64) {
	s := ld.s
	lo, hi := ^uint64(0), uint64(0)
	for m := ld.lanes; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		end := ld.src[l] + uint64(ld.fill[l])
		if ld.fill[l] == 0 || end < ld.src[l] { // a lane's Read checks even an empty range
			return nil, 0
		}
		lo, hi = min(lo, ld.src[l]), max(hi, end)
	}
	if s.gspan == nil || s.laneByLane || hi <= lo {
		return nil, 0
	}
	b, ok := s.gspan.Span(lo, hi, s.spanBuf[:])
	if !ok {
		return nil, 0
	}
	return b, lo
}

// cpAsyncArrive: without .noinc the pending count rises by one per thread
// at once, and each thread's arrival follows when its earlier copies have
// landed; with .noinc only the later arrivals happen.
func (s *SM) cpAsyncArrive(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	var gs [warp.Lanes]group
	n, err := s.groupLanes(wc, in, mask, now, &gs)
	if err != nil {
		return err
	}
	var at sim.Cycle = now
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 != 0 {
			at = max(at, wc.cp.last[l])
		}
	}
	for k := 0; k < n; k++ {
		if !in.Flags.Has(isa.FNoInc) {
			op := s.syncs.updates.push()
			*op = syncsOp{in: in, wc: wc, slot: wc.slot, addr: gs[k].addr, lanes: gs[k].lanes, count: gs[k].count,
				last: true, groups: 1, epoch: wc.c.bsyncEpoch(), inc: true}
			wc.c.pending++
			op.at = s.syncs.scheduleUpdate(now, in)
			s.eng.Schedule(op.at, sim.PhaseDeliver, syncsHandler{s}, 0)
		}
		s.cpInFlight++
		wc.c.pending++
		g := gs[k]
		s.eng.Schedule(at, sim.PhaseDeliver, cpArriveHandler{s: s, wc: wc, in: in, g: g}, 0)
	}
	wc.w.Advance()
	return nil
}

type cpArriveHandler struct {
	s  *SM
	wc *wctx
	in *isa.Instr
	g  group
}

// Handle enqueues the asynchronous arrivals once the copies have landed.
func (h cpArriveHandler) Handle(now sim.Cycle, _ uint64) error {
	s := h.s
	s.cpInFlight--
	op := s.syncs.updates.push()
	*op = syncsOp{in: h.in, wc: h.wc, slot: h.wc.slot, addr: h.g.addr, lanes: h.g.lanes, count: h.g.count,
		last: true, groups: 1, epoch: h.wc.c.bsyncEpoch()}
	// The landing's count passes to the arrival it enqueues (opDone when applied).
	op.at = s.syncs.scheduleUpdate(now, h.in)
	s.eng.Schedule(op.at, sim.PhaseDeliver, syncsHandler{s}, 0)
	return nil
}
