package sm

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// barrier is one mbarrier object in a CTA's shared memory, with its history.
type barrier struct {
	mb        mbarrier.Barrier
	c         *cta
	addr      uint32
	name      string
	initCount uint32
	initWarp  int
	initEpoch uint64
	phases    []PhaseReport // completed phases, then the open one
	arrWarps  map[int]bool  // warps that arrived in the open phase
	waiters   []waiterRef
	recent    [4]Arriver // last arrivals, newest at recentN-1 (mod 4)
	recentN   int
	// The latest phase completion: when, and by which warp (-1: a copy).
	// Other warps' checks see it syncs.visibility later.
	completedAt sim.Cycle
	completer   int
	seq         int         // creation order in the launch (the report's order)
	unlisted    PhaseTotals // completed phases not kept in phases (ReportPhases, ReportPhaseBudget)
}

type waiterRef struct {
	slot   int
	ticket uint64
}

// barrierName names the barrier at shared offset addr after the program's
// symbols, as reports name them (isa.Symbol.At: full[1], smem+16384).
func (s *SM) barrierName(addr uint32) string {
	if y, ok := s.prog.SymbolAt(isa.Shared, uint64(addr)); ok {
		return y.At(uint64(addr) - y.Offset)
	}
	return fmt.Sprintf("smem+0x%x", addr)
}

func (b *barrier) open() *PhaseReport { return &b.phases[len(b.phases)-1] }

// group is the set of lanes of one warp instruction that address one barrier.
type group struct {
	peer  *cta // the CTA whose barrier it is (another of the cluster, or the warp's own)
	addr  uint32
	lanes uint32
	count uint64
	tx    uint64
}

// groupLanes gathers the active lanes by barrier address, in lane order. It
// checks addresses: 8-byte alignment and the shared window (catalogue #13).
func (s *SM) groupLanes(wc *wctx, in *isa.Instr, mask uint32, now sim.Cycle, gs *[warp.Lanes]group) (int, error) {
	t := uint64(now - s.start)
	var av warp.Vec
	uni := false
	if o := in.Src(0); o.Kind == isa.KAddr && o.Mod == 0 && o.Reg >= 0 && mask != 0 {
		// A register and an offset: the lanes agree where the register's do,
		// and only the first lane's address is needed then.
		if r, f := wc.w.Reg(o.Reg), bits.TrailingZeros32(mask); uniformOn(r, mask) {
			av[f], uni = r[f]+o.Imm, true
		}
	}
	if !uni {
		av = *wc.w.Operand(in.Src(0), 0, mask, t)
		uni = uniform(&av, mask)
	}
	var cnt, tx *warp.Vec
	switch in.Op {
	case isa.OpMbarArrive:
		if in.Flags.Has(isa.FExpectTx) {
			tx = wc.w.Operand(in.Src(1), 1, mask, t)
			if in.NSrc() > 2 {
				cnt = wc.w.Operand(in.Src(2), 2, mask, t)
			}
		} else if in.NSrc() > 1 {
			cnt = wc.w.Operand(in.Src(1), 1, mask, t)
		}
	case isa.OpMbarExpectTx, isa.OpMbarCompleteTx:
		tx = wc.w.Operand(in.Src(1), 1, mask, t)
	case isa.OpMbarInit:
		cnt = wc.w.Operand(in.Src(1), 1, mask, t)
		if in.Src(1).Mod.Has(isa.MPair) { // SASS SYNCS.EXCH.64: the barrier word, the count inside
			for l := 0; l < warp.Lanes; l++ {
				if mask>>l&1 == 0 {
					continue
				}
				n, ok := sassInitCount(cnt[l])
				if !ok {
					return 0, s.diag(wc, in, DiagInput, "unsupported", 1<<l,
						fmt.Sprintf("SYNCS.EXCH.64 of word 0x%016x, which is not an mbarrier's initial state", cnt[l]))
				}
				cnt[l] = n
			}
		}
	}
	if uni { // the common case: every lane names the same barrier
		first := bits.TrailingZeros32(mask)
		a, peer, err := s.sharedAddr(wc, in, av[first], 8, mask)
		if err != nil {
			return 0, err
		}
		g := group{peer: peer, addr: a, lanes: mask}
		switch {
		case in.Op == isa.OpMbarInit:
			g.count = cnt[first] & 0xffffffff
		case cnt == nil:
			g.count = uint64(bits.OnesCount32(mask))
		default:
			for l := first; l < warp.Lanes; l++ {
				if mask>>l&1 != 0 {
					g.count += cnt[l] & 0xffffffff
				}
			}
		}
		if tx != nil {
			for l := first; l < warp.Lanes; l++ {
				if mask>>l&1 != 0 {
					g.tx += tx[l] & 0xffffffff
				}
			}
		}
		gs[0] = g
		return 1, nil
	}
	n := 0
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		a, peer, err := s.sharedAddr(wc, in, av[l], 8, mask&(1<<l))
		if err != nil {
			return 0, err
		}
		k := 0
		for k < n && (gs[k].addr != a || gs[k].peer != peer) {
			k++
		}
		if k == n {
			gs[n] = group{peer: peer, addr: a}
			n++
		}
		g := &gs[k]
		g.lanes |= 1 << l
		c := uint64(1)
		if cnt != nil {
			c = cnt[l] & 0xffffffff
		}
		if in.Op == isa.OpMbarInit {
			g.count = c // init: every lane writes the same object; the count is not summed
		} else {
			g.count += c
		}
		if tx != nil {
			g.tx += tx[l] & 0xffffffff
		}
	}
	return n, nil
}

// uniform reports whether every lane of mask holds the same value.
func uniform(v *warp.Vec, mask uint32) bool {
	return mask != 0 && uniformOn(v, mask)
}

// sharedAddr converts an address operand value to a shared offset in the
// CTA it names (the warp's own, or another of its cluster), checking the
// window, the size of that CTA's shared memory and alignment.
func (s *SM) sharedAddr(wc *wctx, in *isa.Instr, v uint64, align uint64, lane uint32) (uint32, *cta, error) {
	if in.Space == isa.Generic {
		if v < isa.SharedWindow || v >= isa.SharedWindow+isa.WindowSize {
			return 0, nil, s.diag(wc, in, DiagMisuse, "not-shared", lane,
				fmt.Sprintf("%s on generic address 0x%x, which is not in shared memory", in.Op, v))
		}
		v -= isa.SharedWindow
	}
	c, v, err := s.remoteCTA(wc, in, v, lane, in.Space == isa.Shared)
	if err != nil {
		return 0, nil, err
	}
	if v%align != 0 {
		return 0, nil, s.diag(wc, in, DiagMisuse, "misaligned", lane,
			fmt.Sprintf("%s at shared address 0x%x is not %d-byte aligned", in.Op, v, align))
	}
	if v+align > uint64(c.smem.Size()) {
		return 0, nil, s.diag(wc, in, DiagMisuse, "shared-out-of-bounds", lane,
			fmt.Sprintf("%s at shared address 0x%x is outside the block's %d bytes of shared memory", in.Op, v, c.smem.Size()))
	}
	return uint32(v), c, nil
}

// execMbarrier issues an mbarrier instruction: one barrier-unit operation per
// group of lanes that address the same barrier.
func (s *SM) execMbarrier(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	switch in.Op {
	case isa.OpMbarPendingCount:
		return s.execPendingCount(now, wc, in, mask)
	case isa.OpCpAsyncMbarArrive:
		return s.execCpAsync(now, wc, in, mask)
	}
	gs := &s.groups // groupLanes writes the n it returns whole
	n, err := s.groupLanes(wc, in, mask, now, gs)
	if err != nil {
		return err
	}
	if gs[0].peer != wc.c || n > 1 && s.anyRemote(gs, n, wc.c) {
		return s.execRemoteMbarrier(now, wc, in, gs, n)
	}
	wc.syncsFree = s.syncs.warpNext(now)
	var last sim.Cycle
	var vals *warp.Vec
	if in.Op == isa.OpMbarTestWait || in.Op == isa.OpMbarTryWait {
		vals = wc.w.Operand(in.Src(1), 1, mask, uint64(now-s.start))
	}
	var ticket uint64
	if in.Op == isa.OpMbarTryWait {
		// try_wait does not stall the warp by itself: its predicate is
		// pending until the barrier unit answers (phase complete, or the
		// time limit passed), and what reads it waits (the scoreboard).
		s.tickets++
		ticket = s.tickets
		s.setReady(wc, in.Dst(0), sim.Never, ReasonMbarrier)
		// With a suspend-time hint the warp waits for the answer: ptxas
		// follows the TRYWAIT with a NANOSLEEP.SYNCS that waits for it
		// (hwprobe.cu's SASS). Without one the H200 holds nothing:
		// instructions that do not read the predicate issue behind it at
		// once (calibration/h200/trywait.cu, a clock read right behind a
		// try_wait on an open phase: 2 cycles). syncs.try_wait_hold open_phase holds
		// the warp anyway on a phase open at issue — the effective model
		// of earlier fits (with a short syncs.try_wait_timeout it stood for
		// a quick re-check; docs/model.md).
		hold := in.Flags.Has(isa.FHint)
		if !hold && s.cfg.Model.TryWaitHold == HoldOpenPhase {
			if b := wc.c.bars[gs[0].addr]; b == nil || !b.mb.Valid() {
				hold = true
			} else if _, d, _, err := s.awaitedNow(b, in, vals[bits.TrailingZeros32(gs[0].lanes)]); !d || err != nil {
				hold = true
			}
		}
		if hold {
			wc.hold = wc.predEntry(in.Dst(0).Reg)
		}
	}
	wait := vals != nil
	// An update with .release at cluster scope performs a GPU membar first,
	// on the warp's own barriers as on another CTA's: ptxas puts
	// MEMBAR.ALL.GPU before the arrive whatever rank its .shared::cluster
	// address names (clusterphase.sass), and the membar holds the warp.
	var released sim.Cycle
	if !wait && releasesAtCluster(in) {
		released = s.releasedAt(wc, max(now, wc.lastUpdate))
		wc.heldUntil = max(wc.heldUntil, released)
	}
	for k := 0; k < n; k++ {
		var op *syncsOp
		arg := uint64(queueUpdates)
		if wait {
			var i int
			i, op = s.syncs.checks.get()
			arg = checkFlag | uint64(i)
		} else {
			op = s.syncs.updates.push()
		}
		*op = syncsOp{in: in, wc: wc, slot: wc.slot, addr: gs[k].addr, lanes: gs[k].lanes, count: gs[k].count,
			tx: gs[k].tx, ticket: ticket, last: k == n-1, groups: uint8(n), epoch: wc.c.bsyncEpoch(), issued: now}
		wc.c.pending++
		if wait {
			op.vals = *vals
			op.at = s.syncs.scheduleCheck(now, in.Op, wc.lastUpdate, wc.waitsOn(gs[k].addr), in.Sched.Has(isa.SchedVecAddr))
		} else {
			op.at = max(s.syncs.scheduleUpdate(now, in), released)
			wc.lastUpdate = op.at
		}
		last = op.at
		s.eng.Schedule(op.at, sim.PhaseDeliver, syncsHandler{s}, arg)
	}
	switch in.Op {
	case isa.OpMbarTryWait:
	case isa.OpMbarTestWait:
		// test_wait holds the warp until it has its answer.
		ready := last
		s.dstReady(wc, in, ready, ReasonMbarrier)
		wc.busyUntil = max(wc.busyUntil, ready)
	default:
		s.dstReady(wc, in, s.syncs.resultAt(last), ReasonMbarrier)
	}
	wc.w.Advance()
	return nil
}

func (s *SM) execPendingCount(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	v := wc.w.Operand(in.Src(0), 0, mask, uint64(now-s.start))
	var r warp.Vec
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		c, err := mbarrier.PendingCount(mbarrier.Token(v[l]))
		if err != nil {
			return s.barrierDiag(wc, in, nil, 1<<l, err)
		}
		r[l] = uint64(c)
	}
	wc.w.Write(in.Dst(0), mask, &r, isa.U32)
	s.dstReady(wc, in, now+sim.Cycle(s.cfg.Pipes.Latency[isa.ClassALU]), ReasonWait)
	wc.w.Advance()
	return nil
}

// barrierDiag turns a barrier error into a diagnostic naming barrier, phase, warp and lanes.
func (s *SM) barrierDiag(wc *wctx, in *isa.Instr, b *barrier, lanes uint32, err error) error {
	d := s.diag(wc, in, DiagMisuse, "barrier", lanes, err.Error())
	var me *mbarrier.Error
	if errors.As(err, &me) {
		d.Code = strings.ReplaceAll(me.Code.String(), " ", "-")
		if me.Catalogue > 0 {
			d.Msg = fmt.Sprintf("%s [UB #%d]", me.Msg, me.Catalogue)
		}
	}
	if b != nil {
		d.Barrier = b.name
		d.Phase = int64(b.mb.State().Phase)
		d.Detail = b.describe(s)
	}
	return d
}

// describe lists a barrier's state and its last arrivals, for diagnostics.
func (b *barrier) describe(s *SM) []string {
	st := b.mb.State()
	out := []string{fmt.Sprintf("barrier %s (CTA %d, smem+0x%x): phase %d, pending %d of %d, tx-count %d",
		b.name, b.c.id, b.addr, st.Phase, st.Pending, st.Expected, st.Tx)}
	for k := 0; k < 4 && k < b.recentN; k++ {
		a := b.recent[(b.recentN-1-k)%4]
		out = append(out, fmt.Sprintf("  arrival at cycle %d by warp %d lanes %s (%s)", a.Cycle, a.Warp, LaneList(a.Lanes), a.Pos))
	}
	return out
}
