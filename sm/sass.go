package sm

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// The SM's part of SASS programs (frontend/sass, docs/sass.md): convergence
// barriers, jumps to computed addresses, the branch forms that look at the
// whole warp, DEPBAR, and the uniform datapath's copies, issued once per
// warp instruction on behalf of the warp (its lane 0's thread owns the
// bulk groups).

// execSASS executes the SASS-only control and copy operations.
func (s *SM) execSASS(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	w := wc.w
	t := uint64(now - s.start)
	wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[in.Class])
	switch in.Op {
	case isa.OpBssy:
		b := int(in.Src(0).Imm)
		w.Advance()
		w.AddToBarrier(b, mask)
	case isa.OpBsync:
		w.Bsync(int(in.Src(0).Imm))
	case isa.OpBreak:
		b := int(in.Src(0).Imm)
		w.Advance()
		w.Break(b, mask)
	case isa.OpBmov:
		return s.execBmov(wc, in, mask, t)
	case isa.OpJmx:
		return s.execJmx(now, wc, in, mask, t)
	case isa.OpDepbar:
		return s.execDepbar(now, wc, in, mask, t)
	case isa.OpUBlkCp, isa.OpUTma:
		return s.execCopy(now, wc, in, mask)
	case isa.OpYield:
		s.execYield(now, wc)
	case isa.OpUTmaFlush:
		if s.copy != nil && mask != 0 {
			id := s.threadID(wc, 0)
			s.copy.Commit(id)
			s.commits[id]++
			wc.c.committed = true
		}
		w.Advance()
	default:
		return s.diag(wc, in, DiagInput, "unsupported", mask, fmt.Sprintf("instruction %s is not supported by the simulator", in.Op))
	}
	return nil
}

// execYield hands the warp to its next path, if it has another. The switch
// holds the warp branch.yield_switch cycles (to a path that can run, or
// one parked at a WARPSYNC that tries its sync again and hands back), or
// branch.yield_bsync to one parked at a BSYNC (yield_div.cu, yield_park.cu:
// a warp of one path, or whose other lanes have exited, pays nothing).
func (s *SM) execYield(now sim.Cycle, wc *wctx) {
	st, ok := wc.w.Yield()
	if !ok {
		return
	}
	cost := s.cfg.Branch.YieldSwitch
	if st == warp.AtBsync {
		cost = s.cfg.Branch.YieldBsync
	}
	wc.yieldUntil = now + sim.Cycle(cost)
}

// execBmov moves a convergence barrier to a register (clearing it with
// Mode 1) or (Mode 2) a register's value (its first active lane's) to one.
func (s *SM) execBmov(wc *wctx, in *isa.Instr, mask uint32, t uint64) error {
	w := wc.w
	if in.Mode == 2 {
		b := int(in.Dst(0).Imm)
		v := uint32(w.Scalar(in.Src(0), mask, t))
		w.Advance()
		w.SetBarrier(b, v)
		return nil
	}
	b := int(in.Src(0).Imm)
	var r warp.Vec
	for l := range r {
		r[l] = uint64(w.Barrier(b))
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	w.Advance()
	if in.Mode == 1 {
		w.SetBarrier(b, 0)
	}
	return nil
}

// execJmx jumps each active lane to the instruction at its byte address: a
// register pair plus the displacement (RET), also plus the next
// instruction's address (BRX).
func (s *SM) execJmx(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32, t uint64) error {
	w := wc.w
	step := uint64(s.prog.AddrStep)
	if step == 0 {
		return s.diag(wc, in, DiagInput, "unsupported", mask, "a jump to a computed address in a program without instruction addresses")
	}
	pc := uint64(w.Current().PC)
	v := w.Operand(in.Src(0), 0, mask, t)
	var target [warp.Lanes]int32
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		a := v[l] + in.Src(1).Imm
		if in.Mode == 1 {
			a += (pc + 1) * step
		}
		if a%step != 0 || a/step >= uint64(len(s.prog.Instrs)) {
			return s.diag(wc, in, DiagMisuse, "jump-target", 1<<l,
				fmt.Sprintf("%s to address 0x%x, which is not an instruction of the function", in.Op, a))
		}
		target[l] = int32(a / step)
	}
	w.Jump(mask, &target)
	wc.busyUntil = now + sim.Cycle(s.cfg.Branch.Taken)
	return nil
}

// execDepbar waits until at most n of the warp's cp.async groups (each
// active lane's) and bulk groups (its lane 0's) are pending: DEPBAR.LE SB0, n.
func (s *SM) execDepbar(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32, t uint64) error {
	n := int(wc.w.Scalar(in.Src(0), mask, t))
	ready := s.cpGroupsReady(wc, mask, n, now)
	if s.copy != nil && mask != 0 {
		id := s.threadID(wc, 0)
		ready = max(ready, s.copy.WaitGroup(now, id, n, false))
		s.bulkWaited(id, n)
	}
	if ready > now {
		s.blockUntil(now, wc, waitCode(waitBulk, ReasonLongScoreboard), ready, true)
		return nil
	}
	wc.w.Advance()
	return nil
}

// braTaken is the lanes a SASS branch form (isa.Instr.Mode) takes, of the
// lanes whose guard holds.
func (s *SM) braTaken(wc *wctx, in *isa.Instr, mask uint32, t uint64) uint32 {
	w := wc.w
	switch in.Mode {
	case isa.BraAny:
		if mask != 0 {
			return w.Current().Mask
		}
		return 0
	case isa.BraDiv, isa.BraConv:
		div := w.Diverged(uint32(w.Scalar(in.Src(0), mask, t)))
		if div == (in.Mode == isa.BraDiv) {
			return mask
		}
		return 0
	case isa.BraAnd:
		return mask & w.PredOperand(in.Src(0))
	}
	return mask
}

// sassCopyRequest decodes a uniform copy (UBLKCP, UTMALDG) for lane l, whose
// uniform registers hold the warp's operands.
func (s *SM) sassCopyRequest(wc *wctx, in *isa.Instr, l int, t uint64, r *CopyRequest,
	smem func(uint64, isa.Space) (uint32, error)) error {
	w := wc.w
	val := func(i int) uint64 { return w.Operand(in.Src(i), 0, 1<<l, t)[l] }
	var err error
	if in.Op == isa.OpUBlkCp {
		word := val(2) & 0xffffffff
		if word>>16 != 0 && !in.Flags.Has(isa.FMulticast) {
			return s.diag(wc, in, DiagInput, "unsupported", 1<<l,
				fmt.Sprintf("bulk copy with size word 0x%x: the high half (cache hints) is not supported", word))
		}
		if r.Multicast, err = s.multicastMask(wc, in, l, word>>16); err != nil {
			return err
		}
		r.Size = uint32(word&0xffff) * 16
		d, src := val(0), val(1)
		if in.Mode == 1 { // shared -> global
			r.Kind, r.Global = CopyBulkStore, d
			r.Shared, err = smem(src&0xffffffff, isa.Shared)
			return err
		}
		r.Kind, r.Global = CopyBulkLoad, src
		if r.Shared, err = smem(d&0xffffffff, isa.Shared); err != nil {
			return err
		}
		r.Mbar, err = smem(d>>32, isa.Shared)
		return err
	}
	base := in.Src(0).Reg
	reg := func(k int32) uint64 { return w.Reg(base + k)[l] & 0xffffffff }
	r.Kind, r.Dim = CopyTensorLoad, int(in.Dim)
	r.MapAt = val(1)
	if r.Map, err = s.readMap(wc, in, r.MapAt, l); err != nil {
		return err
	}
	for d := 0; d < r.Dim && d < 5; d++ {
		r.Coords[d] = int32(uint32(reg(int32(2 + d))))
	}
	if r.Shared, err = smem(reg(0), isa.Shared); err != nil {
		return err
	}
	r.Mbar, err = smem(reg(1), isa.Shared)
	return err
}

// sassInitCount decodes the barrier word SYNCS.EXCH.64 stores to initialise
// an mbarrier: as the corpus's inits build it from count n, the low word
// is (2^20 - n) << 1 and the high word (2^20 - n) << 11 (docs/sass.md).
func sassInitCount(word uint64) (uint64, bool) {
	lo, hi := word&0xffffffff, word>>32
	k := lo >> 1 & 0xfffff
	if lo&^(0xfffff<<1) != 0 || hi != k<<11 {
		return 0, false
	}
	return 1<<20 - k, true
}

// sassToken is the state word a SASS arrive returns (a register pair): the
// phase parity in bit 63, where SYNCS.PHASECHK reads it.
func sassToken(phase uint64) uint64 { return (phase & 1) << 63 }

// launchBanks returns the constant banks a launch's program reads: the
// program's own (or the launch's, Launch.Banks), bank 0 laid out for the
// launch (isa.BuildBank0).
func launchBanks(l *Launch) [][]byte {
	src := l.Prog.Banks
	if l.Banks != nil {
		src = l.Banks
	}
	b := make([][]byte, max(len(src), 1))
	copy(b, src)
	b[0] = isa.BuildBank0(l.Block, l.Grid, l.Cluster, l.Prog.LocalBytes, l.Params)
	return b
}
