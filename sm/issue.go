package sm

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Wait kinds of a blocked split (low 4 bits of Split.WaitKind; the high 4
// bits hold the stall Reason reported while it waits).
const (
	waitBarSync = 2 // bar.sync
	waitSleep   = 3 // nanosleep
	waitBulk    = 4 // cp.async.bulk.wait_group, cp.async.wait_group
)

func waitCode(kind uint8, r Reason) uint8 { return kind | uint8(r)<<4 }

// issue executes the current instruction of wc's current split at cycle now.
func (s *SM) issue(now sim.Cycle, wc *wctx) {
	w := wc.w
	sp := w.Current()
	pc := sp.PC
	if int(pc) >= len(s.prog.Instrs) || pc < 0 {
		s.fail(s.diag(wc, nil, DiagInput, "fell-off-end", sp.Mask, "execution ran past the last instruction (missing exit or ret)"))
		return
	}
	in := &s.prog.Instrs[pc]
	if pw := wc.mma.pending; pw != nil && pw.any && in.Op != isa.OpWgmma && pw.touches(in) {
		pw.join() // it reads or writes accumulators a wgmma has not computed yet
	}
	wc.hold = -1 // a suspending try_wait has answered: the warp issues again
	s.constExtra = 0
	mask := w.GuardMask(in, sp.Mask)
	wc.instr++
	s.advanceStatic(now, wc, pc)
	s.stats.WarpInstructions++
	s.stats.ThreadInstrs += uint64(bits.OnesCount32(mask))
	sc := &s.sched[wc.sp]
	u := &s.uops[pc]
	wc.issuePath = pipePaths[sc.occupy(now, u.pipes, u.interval)]
	wc.depPC = -1
	if s.obs != nil {
		s.obs.Issue(uint64(now-s.start), wc.slot, int(pc), mask)
	}
	if mask == 0 && in.Op != isa.OpCompute {
		if in.Op.IsBranch() {
			w.Branch(in, 0)
			wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[isa.ClassBranch]) // the branch's stall, taken or not
		} else {
			w.Advance()
		}
		if in.Op == isa.OpMbarTryWait && in.Flags.Has(isa.FHint) && s.cfg.Model.TryWaitHold == HoldNone {
			// A guarded-off hinted try_wait: its TRYWAIT still passes
			// through the barrier pipe, and the NANOSLEEP.SYNCS after it
			// waits for that (hwprobe.cu's SASS: try_wait_incomplete_phase
			// hint_ns0 runs the hinted form guarded off). With
			// syncs.try_wait_hold open_phase the effective model's hold of the
			// un-hinted form that follows stands for it.
			wc.busyUntil = max(wc.busyUntil, s.syncs.passedAt(now))
		}
		if in.Sched.Has(isa.SchedConverge) {
			wc.busyUntil = max(wc.busyUntil, now+sim.Cycle(s.cfg.Ptxas.Bsync))
		}
		if s.prog.Scheduled {
			s.ctrlIssued(now, wc, in, 0)
		}
		return
	}
	if s.prog.Scheduled {
		wc.ctrlIssue()
	}
	if u.consts {
		s.constExtra = s.constReads(now, wc, in, mask)
		if in.Class == isa.ClassConst && !in.Flags.Has(isa.FUniform) && s.prog.Scheduled {
			s.constExtra += s.syncs.ldcDelay(now) // an LDC: the barrier unit's port
		}
	}
	if k := &s.kernels[pc]; k.Resolved() && w.Exec(k, mask) {
		// An ALU operation with a lane kernel goes to its lanes at once.
		s.kernelIssued(now, wc, in, u.aluLat+s.constExtra)
	} else if err := s.execute(now, wc, in, mask); err != nil {
		s.fail(err)
		return
	}
	if in.Sched.Has(isa.SchedConverge) && in.Op != isa.OpBra {
		wc.busyUntil = max(wc.busyUntil, now+sim.Cycle(s.cfg.Ptxas.Bsync))
	}
	if s.prog.Scheduled {
		s.ctrlIssued(now, wc, in, mask)
	}
	if w.Done() && !wc.done {
		s.warpDone(now, wc)
	}
}

// execute executes instruction in for the lanes of mask.
func (s *SM) execute(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	w := wc.w
	lat := sim.Cycle(s.cfg.Pipes.Latency[in.Class])
	switch {
	case in.Op.IsMbarrier():
		return s.execMbarrier(now, wc, in, mask)
	}
	switch in.Op {
	case isa.OpBra:
		all := w.Current().Mask
		if in.Mode != 0 {
			mask = s.braTaken(wc, in, mask, uint64(now-s.start))
		}
		w.Branch(in, mask)
		if mask != 0 {
			lat = sim.Cycle(s.cfg.Branch.Taken)
		}
		if mask != 0 && mask != all {
			lat += sim.Cycle(s.cfg.Branch.Diverge) // the paths split: reconvergence bookkeeping (BSSY/BSYNC)
		}
		wc.busyUntil = now + lat
		return nil
	case isa.OpExit, isa.OpRet:
		if in.NSrc() > 0 { // SASS EXIT P: where the guard and P hold
			mask &= w.PredOperand(in.Src(0))
		}
		w.Exit(mask)
		s.exitLanes(now, wc, mask)
		return nil
	case isa.OpTrap, isa.OpBrkpt:
		switch in.Mode {
		case isa.TrapCluster:
			return s.diag(wc, in, DiagInput, "cluster", mask,
				"mapa names another CTA of the cluster: smsim simulates one SM, whose CTAs are clusters of one [§4 #16]")
		case isa.TrapRecursion:
			return s.diag(wc, in, DiagInput, "recursion", mask, "a call nested deeper than the PTX frontend inlines")
		}
		return s.diag(wc, in, DiagMisuse, "trap", mask, "the kernel executed trap")
	case isa.OpLd, isa.OpSt, isa.OpAtom, isa.OpRed, isa.OpCast:
		return s.execMemory(now, wc, in, mask)
	case isa.OpBssy, isa.OpBsync, isa.OpBreak, isa.OpBmov, isa.OpJmx, isa.OpDepbar, isa.OpUBlkCp, isa.OpUTma,
		isa.OpUTmaFlush, isa.OpYield:
		return s.execSASS(now, wc, in, mask)
	case isa.OpBarSync, isa.OpBarArrive, isa.OpBarRed:
		return s.execBarSync(now, wc, in, mask)
	case isa.OpBarResult:
		s.execBarResult(wc, in, mask)
		wc.busyUntil = now + lat
		return nil
	case isa.OpMapa:
		return s.execMapa(now, wc, in, mask)
	case isa.OpClusterArrive:
		return s.execClusterArrive(now, wc, in, mask)
	case isa.OpClusterWait:
		return s.execClusterWait(now, wc, in, mask)
	case isa.OpBarWarpSync:
		w.WarpSync(uint32(w.Scalar(in.Src(0), mask, uint64(now-s.start))))
		wc.busyUntil = now + lat
		return nil
	case isa.OpVote, isa.OpShfl, isa.OpActivemask, isa.OpElect, isa.OpMatch, isa.OpRedux:
		return s.execCollective(now, wc, in, mask)
	case isa.OpNanosleep:
		return s.execSleep(now, wc, in, mask)
	case isa.OpCompute:
		return s.execCompute(now, wc, in)
	case isa.OpDelay:
		d := sim.Cycle(in.Src(0).Imm)
		switch {
		case in.Sched.Has(isa.SchedReloadWindow):
			d = sim.Cycle(s.cfg.Ptxas.WindowReload)
		case in.Sched.Has(isa.SchedReadWindow):
			d = sim.Cycle(s.cfg.Ptxas.WindowRead)
		case in.Sched.Has(isa.SchedMoveUniform):
			d = sim.Cycle(s.cfg.Ptxas.CopyR2UR)
		case in.Sched.Has(isa.SchedMoveUniformLoop):
			d = sim.Cycle(s.cfg.Ptxas.CopyR2URLoop)
		}
		wc.busyUntil = now + d
		w.Advance()
		return nil
	case isa.OpFence:
		if in.Flags.Has(isa.FProxyAsync) {
			wc.c.fenceProxy()
		}
		if in.Flags.Has(isa.FProxyTensormap) {
			s.tensormapFenced()
		}
		wc.busyUntil = now + lat
		if gpuMembar(in) {
			wc.heldUntil = max(wc.heldUntil, s.membar(wc, now))
		}
		w.Advance()
		return nil
	case isa.OpBulkCopy, isa.OpBulkTensor, isa.OpBulkPrefetch, isa.OpBulkReduce, isa.OpBulkCommit, isa.OpBulkWait:
		return s.execCopy(now, wc, in, mask)
	case isa.OpCpAsync, isa.OpCpAsyncCommit, isa.OpCpAsyncWait:
		return s.execCpAsync(now, wc, in, mask)
	case isa.OpTensormapReplace, isa.OpTensormapCopy:
		return s.execTensormap(now, wc, in, mask)
	case isa.OpWgmma, isa.OpWgmmaFence, isa.OpWgmmaCommit, isa.OpWgmmaWait:
		return s.execWgmma(now, wc, in, mask)
	case isa.OpLdmatrix, isa.OpStmatrix:
		return s.execMatrix(now, wc, in, mask)
	case isa.OpMovmatrix:
		return s.execMovmatrix(now, wc, in, mask)
	case isa.OpCall, isa.OpBrx:
		return s.diag(wc, in, DiagInput, "unsupported", mask, fmt.Sprintf("instruction %s is not supported by the simulator", in.Op))
	}
	if err := w.ExecALU(in, mask, uint64(now-s.start)); err != nil {
		return s.diag(wc, in, DiagInput, "unsupported", mask, err.Error())
	}
	s.aluIssued(now, wc, in)
	return nil
}

// aluIssued books the results of an ALU operation the warp executed at
// cycle now on the scoreboard and moves the warp past it; constant
// operands whose lines missed the immediate constant cache (constExtra)
// delay them.
func (s *SM) aluIssued(now sim.Cycle, wc *wctx, in *isa.Instr) {
	s.dstReady(wc, in, now+aluLatency(in, &s.cfg, s.prog.Scheduled)+s.constExtra, ReasonWait)
	if in.Op == isa.OpSetp { // predicates are ready sooner than general registers
		for i := 0; i < int(in.NDst); i++ {
			s.setReady(wc, in.Dst(i), now+sim.Cycle(s.cfg.Ptxas.PredLatency), ReasonWait)
			if in.Dst(i).Kind == isa.KPred {
				s.notePredicate(wc, in.Dst(i))
			}
		}
	}
	wc.setPaths(in, wc.issuePath)
	wc.w.Advance()
}

// execCompute issues one slot of a compute pseudo-op; the warp stays on it
// until all of its issue slots are used.
func (s *SM) execCompute(now sim.Cycle, wc *wctx, in *isa.Instr) error {
	n := int(in.Src(0).Imm)
	if wc.computeLeft == 0 {
		wc.computeLeft = n
	}
	wc.computeLeft--
	if wc.computeLeft > 0 {
		return nil
	}
	lat := sim.Cycle(in.Src(1).Imm)
	if lat == 0 {
		lat = sim.Cycle(s.cfg.Pipes.Latency[isa.ClassCompute])
	}
	wc.busyUntil = now + lat
	wc.w.Advance()
	return nil
}

// exitLanes handles lanes leaving the kernel: they count as arrived at CTA barriers.
func (s *SM) exitLanes(now sim.Cycle, wc *wctx, mask uint32) {
	s.clusterExit(now, wc.c, popcount(mask))
	for id := range wc.c.bsync {
		s.barSyncCheck(now, wc.c, id)
	}
}

func (s *SM) execSleep(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if in.Flags.Has(isa.FSyncs) {
		// NANOSLEEP.SYNCS sleeps until the barrier unit answers the warp's
		// try_wait, at most its time: ptxas makes it wait on the TRYWAIT's
		// scoreboard, so it issues with the answer in and does not sleep.
		// probe.csv's hinted try_waits on a phase that never completes
		// answer false 7,838 cycles after issue for hints of 100 ns to
		// 100 µs: the TRYWAIT's own time limit, no sleep after it.
		wc.busyUntil = now + sim.Cycle(s.cfg.Pipes.Latency[isa.ClassSleep])
		wc.w.Advance()
		return nil
	}
	ns := wc.w.Scalar(in.Src(0), mask, uint64(now-s.start))
	cyc := sim.Cycle(float64(ns) * s.cfg.ClockMHz / 1000)
	if min := sim.Cycle(s.cfg.NanosleepMin); cyc < min {
		cyc = min
	}
	s.blockUntil(now, wc, waitCode(waitSleep, ReasonSleeping), now+cyc, true)
	return nil
}

// blockUntil blocks the current split until cycle at, then moves it on
// (advance) or lets it re-issue the same instruction.
func (s *SM) blockUntil(now sim.Cycle, wc *wctx, code uint8, at sim.Cycle, advance bool) *warp.Split {
	sp := wc.w.Block()
	s.tickets++
	sp.WaitKind = code
	sp.WaitArg = s.tickets
	sp.WaitSince = uint64(now)
	sp.WaitUntil = uint64(at)
	if advance {
		sp.WaitAddr = 1
	} else {
		sp.WaitAddr = 0
	}
	s.eng.Schedule(at, sim.PhaseDeliver, timerHandler{s}, uint64(wc.slot)<<48|s.tickets)
	return sp
}

type timerHandler struct{ s *SM }

// Handle wakes the split whose ticket is in arg (if it still waits on it).
func (t timerHandler) Handle(now sim.Cycle, arg uint64) error {
	s := t.s
	slot, ticket := int(arg>>48), arg&(1<<48-1)
	if slot >= len(s.warps) || s.warps[slot] == nil {
		return nil
	}
	wc := s.warps[slot]
	for i := range wc.w.Splits() {
		sp := wc.w.Split(i)
		if sp.State == warp.Blocked && sp.WaitArg == ticket {
			s.account(wc, now)
			wc.w.Unblock(sp, sp.WaitAddr == 1)
			wc.checkAt, wc.depPC, wc.readyDeps = now, -1, false
			s.sched[wc.sp].q.woken(wc.pos, wc.curGroup, now)
			s.wakeWarp(now)
			return nil
		}
	}
	return nil
}

func popcount(m uint32) int { return bits.OnesCount32(m) }

// diag builds a diagnostic about warp wc at instruction in.
func (s *SM) diag(wc *wctx, in *isa.Instr, kind DiagKind, code string, lanes uint32, msg string) *Diag {
	d := &Diag{Kind: kind, Code: code, Warp: -1, Phase: -1, Msg: msg, Cycle: uint64(s.eng.Now() - s.start)}
	if in != nil {
		d.Pos = in.Pos
	}
	if wc != nil {
		d.Warp = wc.slot
		d.Lanes = lanes
	}
	return d
}

// aluLatency is the latency of the results of ALU operation in, of a
// program Scheduled by its control bits or not, under configuration cfg.
func aluLatency(in *isa.Instr, cfg *Config, scheduled bool) sim.Cycle {
	if in.Sched.Has(isa.SchedFoldedAddr) {
		return 0 // SASS adds it in the access's address (compiler.FoldSharedAddressAdds)
	}
	if in.Class == isa.ClassSpecial && scheduled && in.Ctrl.WriteSB < isa.NumSB {
		return sim.Cycle(cfg.SASS.SpecialRead) // S2R / S2UR: a variable-latency read (CS2R sets no scoreboard)
	}
	return sim.Cycle(cfg.Pipes.Latency[in.Class])
}

// kernelIssuedPred is aluIssued of a setp executed by its kernel into
// predicate d: the predicate ready at the predicate latency (and noted
// for the static clock), the warp's latest result lat after now.
func (s *SM) kernelIssuedPred(now sim.Cycle, wc *wctx, d *isa.Operand, lat sim.Cycle) {
	wc.ent[wc.predEntry(d.Reg)] = sbEntry{at: now + sim.Cycle(s.cfg.Ptxas.PredLatency), why: ReasonWait, path: wc.issuePath}
	s.notePredicate(wc, d)
	wc.depPC = -1
	if at := now + lat; at > wc.resultAt {
		wc.resultAt, wc.resultWhy = at, ReasonWait
	}
	wc.w.Advance()
}

// kernelIssued is aluIssued of an instruction executed by its kernel,
// whose first destination is a plain register or a pair (warp.DecodeKernel)
// and whose results are ready lat cycles after now: dstReady and setPaths
// of those entries (setPaths marks a pair's first), and of a carry out's
// predicate (LEA's second destination).
func (s *SM) kernelIssued(now sim.Cycle, wc *wctx, in *isa.Instr, lat sim.Cycle) {
	d := &in.Ops[0]
	if d.Kind == isa.KPred {
		s.kernelIssuedPred(now, wc, d, lat)
		return
	}
	at := now + lat
	wc.ent[d.Reg] = sbEntry{at: at, why: ReasonWait, path: wc.issuePath}
	if d.Mod != 0 { // MPair: IMAD.WIDE
		wc.ent[d.Reg+1] = sbEntry{at: at, why: ReasonWait, path: pathNone}
	}
	if in.NDst > 1 {
		if co := in.Dst(1); co.Kind == isa.KPred {
			s.setReady(wc, co, at, ReasonWait)
			wc.ent[wc.predEntry(co.Reg)].path = wc.issuePath
		}
	}
	wc.depPC = -1
	if at > wc.resultAt {
		wc.resultAt, wc.resultWhy = at, ReasonWait
	}
	wc.w.Advance()
}
