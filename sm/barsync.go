package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// barSync is one of a CTA's 16 named barriers (bar.sync / barrier.sync).
type barSync struct {
	expect  int         // threads expected (from the instruction's count or the CTA size)
	arrived int         // threads arrived in this generation
	waiting []waiterRef // blocked splits (bar.sync; bar.arrive does not wait)
	free    sim.Cycle   // next cycle the barrier accepts a warp arrival
	gen     uint64      // completed generations
	// A BAR.RED generation's reduction: the arriving threads whose
	// predicate held, and the threads that gave one.
	redTrue, redGiven int
}

// barRedResult is what the warp's last BAR.RED reduced, for its B2R.RESULT.
type barRedResult struct {
	count uint32     // threads whose predicate held
	all   bool       // every thread that gave one
	op    isa.AtomOp // the warp's BAR.RED: .POPC, .AND or .OR
}

// bsyncEpoch counts completed generations of barrier 0 (__syncthreads): the
// ordering point that makes an mbarrier.init visible to other warps.
// A cluster barrier orders the same way.
func (c *cta) bsyncEpoch() uint64 { return c.bsync[0].gen + c.cl.cbar.gen }

func (s *SM) execBarSync(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	t := uint64(now - s.start)
	id := int(wc.w.Scalar(in.Src(0), mask, t))
	if id < 0 || id >= 16 {
		return s.diag(wc, in, DiagMisuse, "bad-barrier-id", mask, fmt.Sprintf("bar.sync barrier id %d is outside 0..15", id))
	}
	c := wc.c
	bs := &c.bsync[id]
	expect := c.threads
	if in.NSrc() > 1 && (in.Op != isa.OpBarRed || in.NSrc() > 2) { // BAR.RED's last operand is its predicate
		expect = int(wc.w.Scalar(in.Src(1), mask, t))
		if expect%warp.Lanes != 0 || expect <= 0 {
			return s.diag(wc, in, DiagMisuse, "bad-barrier-count", mask,
				fmt.Sprintf("bar.sync thread count %d is not a positive multiple of 32", expect))
		}
	}
	bs.expect = expect
	if in.Op == isa.OpBarRed {
		wc.barRed.op = in.Atom
		p := wc.w.PredOperand(in.Src(in.NSrc()-1)) & wc.w.Current().Mask
		bs.redTrue += popcount(p)
		bs.redGiven += popcount(wc.w.Current().Mask)
	}
	// bar.sync orders the warp's earlier memory operations, barrier
	// updates included (an mbarrier.init before __syncthreads is visible
	// after it), so the arrival counts once they are applied. The barrier
	// unit takes one warp arrival every BarPerWarp cycles.
	at := max(now, wc.lastUpdate)
	if bs.free > at {
		at = bs.free
	}
	bs.free = at + sim.Cycle(s.cfg.Bar.PerWarp)
	// bar.sync counts the threads of the warp (PTX: all non-exited threads of
	// the warp when executed convergently).
	bs.arrived += popcount(wc.w.Current().Mask)
	if in.Op == isa.OpBarSync || in.Op == isa.OpBarRed {
		sp := s.blockUntilReleased(now, wc)
		bs.waiting = append(bs.waiting, waiterRef{slot: wc.slot, ticket: sp.WaitArg})
	} else {
		wc.w.Advance()
	}
	s.barSyncCheckAt(at, c, id)
	return nil
}

func (s *SM) blockUntilReleased(now sim.Cycle, wc *wctx) *warp.Split {
	sp := wc.w.Block()
	s.tickets++
	sp.WaitKind, sp.WaitArg, sp.WaitSince, sp.WaitAddr = waitCode(waitBarSync, ReasonBarrier), s.tickets, uint64(now), 1
	return sp
}

// barSyncCheck releases barrier id of c if enough threads have arrived.
// Exited threads count as arrived at a barrier for all the CTA's threads
// (PTX ISA, exit: "barriers waiting on all threads are checked to see if
// the exiting threads are the only threads that have not yet made it"),
// not at one with a smaller thread count: a warp-specialised kernel's
// consumers synchronise among themselves with `bar.sync 1, N` after its
// producer warp has exited.
func (s *SM) barSyncCheck(now sim.Cycle, c *cta, id int) { s.barSyncCheckAt(now, c, id) }

func (s *SM) barSyncCheckAt(at sim.Cycle, c *cta, id int) {
	bs := &c.bsync[id]
	if bs.arrived == 0 && len(bs.waiting) == 0 {
		return
	}
	exited := 0
	if bs.expect >= c.threads {
		for _, w := range c.warps {
			exited += popcount(w.w.Exited & w.w.Live)
		}
	}
	if bs.arrived+exited < bs.expect && !(bs.expect == c.threads && bs.arrived+exited >= c.threads) {
		return
	}
	release := at + sim.Cycle(s.cfg.Bar.Latency)
	red := barRedResult{count: uint32(bs.redTrue), all: bs.redTrue == bs.redGiven}
	for _, w := range bs.waiting {
		s.eng.Schedule(release, sim.PhaseDeliver, timerHandler{s}, uint64(w.slot)<<48|w.ticket)
		if wc := s.warps[w.slot]; wc != nil {
			wc.barRed.count, wc.barRed.all = red.count, red.all // what its B2R.RESULT reads
		}
	}
	bs.redTrue, bs.redGiven = 0, 0
	bs.waiting = bs.waiting[:0]
	bs.arrived = 0
	bs.gen++
	s.progress(at)
}

// execBarResult executes B2R.RESULT d[, p]: the count of true predicates of
// the warp's last BAR.RED into d, and into p its reduction: whether every
// thread's held after a .AND, whether any did after a .OR or .POPC.
func (s *SM) execBarResult(wc *wctx, in *isa.Instr, mask uint32) {
	w, r := wc.w, wc.barRed
	var v warp.Vec
	for l := range v {
		v[l] = uint64(r.count)
	}
	w.Write(in.Dst(0), mask, &v, isa.U32)
	if in.NDst > 1 {
		held := r.count > 0
		if r.op == isa.AtomAnd {
			held = r.all
		}
		var p uint32
		if held {
			p = mask
		}
		w.SetPred(in.Dst(1).Reg, mask, p)
	}
	w.Advance()
}
