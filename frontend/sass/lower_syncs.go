package sass

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// The barrier unit (SYNCS), the uniform datapath's bulk and tensor copies, and
// the waits and fences around asynchronous copies.

// lowerLdgsts: LDGSTS.E[.BYPASS][.64|.128] [dst shared], [src global]:
// cp.async of 4, 8 or 16 bytes.
func lowerLdgsts(l *lowerer) error {
	if err := l.mods("E", "BYPASS", "64", "128", "LTC64B", "LTC128B", "LTC256B", "EF", "EL", "LU", "EN", "NA"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	d, err := l.mem(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.mem(l.op(1), l.has("E"))
	if err != nil {
		return err
	}
	size := uint64(4)
	switch {
	case l.has("64"):
		size = 8
	case l.has("128"):
		size = 16
	}
	l.set(isa.OpCpAsync, isa.B8, 0, d, s, isa.Imm(size))
	l.out.Space = isa.Shared
	if l.has("BYPASS") {
		l.out.Flags |= isa.FBypassL1
	}
	return nil
}

// lowerLdgdepbar: LDGDEPBAR: cp.async.commit_group.
func lowerLdgdepbar(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	l.set(isa.OpCpAsyncCommit, isa.TNone, 0)
	return nil
}

// lowerArrives: ARRIVES.LDGSTSBAR.64.TRANSCNT [addr]: an arrival on the
// mbarrier once the thread's cp.async copies have landed
// (cp.async.mbarrier.arrive.noinc, or without .noinc when the SYNCS ...
// RED.A0T1 that raises the pending count went just before).
func lowerArrives(l *lowerer) error {
	if err := l.mods("LDGSTSBAR", "64", "TRANSCNT"); err != nil {
		return err
	}
	if err := l.nops(1); err != nil {
		return err
	}
	a, err := l.mem(l.op(0), false)
	if err != nil {
		return err
	}
	l.set(isa.OpCpAsyncMbarArrive, isa.B64, 0, a)
	l.out.Space = isa.Shared
	if !l.pairedInc[l.idx] {
		l.out.Flags |= isa.FNoInc
	}
	return nil
}

// lowerDepbar: DEPBAR.LE SB0, n: wait until at most n of the warp's
// cp.async and bulk groups are pending. Waits on the other scoreboards
// only order register results, which the functional model has at issue.
func lowerDepbar(l *lowerer) error {
	if err := l.mods("LE"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	sb, n := l.op(0), l.op(1)
	if !sb.IsReg(Scoreboard) || n.Kind != KindInt {
		return l.unsupported("this DEPBAR form")
	}
	if !l.has("LE") {
		return l.unsupported("DEPBAR without .LE")
	}
	if sb.Reg.Num != 0 {
		l.set(isa.OpNop, isa.TNone, 0)
		l.out.Class = isa.ClassBranch
		return nil
	}
	l.set(isa.OpDepbar, isa.TNone, 0, isa.Imm(uint64(n.Int)))
	l.out.Class = isa.ClassShared
	return nil
}

// lowerFence: MEMBAR, FENCE.VIEW.ASYNC.{S,G,...}, CCTL.IVALL, ERRBAR:
// ordering only (a sequentially consistent functional model), except that
// FENCE.VIEW.ASYNC is fence.proxy.async, which the hazard checker follows.
func lowerFence(l *lowerer) error {
	l.set(isa.OpFence, isa.TNone, 0)
	if l.in.Op == "FENCE" && l.has("VIEW") && l.has("ASYNC") {
		l.out.Flags |= isa.FProxyAsync
	}
	if l.in.Op == "MEMBAR" && (l.has("GPU") || l.has("SYS")) {
		l.out.Scope = isa.ScopeGPU // fence.acq_rel/.sc at .cluster, .gpu or .sys scope: the SM holds the warp (sm/membar.go)
	}
	if len(l.in.Operands) != 0 {
		return l.unsupported("%s with operands", l.in.Op)
	}
	l.out.Class = isa.ClassFence
	return nil
}

// lowerSyncs: the barrier (SYNCS) unit's mbarrier operations, as the PTX
// twins of the corpus show them:
//
//	SYNCS.EXCH.64 URZ, [a], UR          mbarrier.init (UR pair: the barrier word, count in it)
//	SYNCS.ARRIVE.TRANS64.A1T0 d, [a], RZ    mbarrier.arrive (d: the state, a pair)
//	SYNCS.ARRIVE.TRANS64.ART0 d, [a], R     mbarrier.arrive with count R
//	SYNCS.ARRIVE.TRANS64 d, [a], R          mbarrier.arrive.expect_tx R bytes
//	SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [a], R    mbarrier.expect_tx
//	SYNCS.ARRIVE.TRANS64.RED.A0TX RZ, [a], R    mbarrier.complete_tx
//	SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [a], RZ   the pending-count increment of cp.async.mbarrier.arrive
//	SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [a], RZ   mbarrier.arrive.shared::cluster (lower_cluster.go)
//	SYNCS.PHASECHK.TRANS64[.TRYWAIT] p, [a], R  test_wait / try_wait.parity, the parity in R's bit 31
//	SYNCS.CCTL.IV [a]                       mbarrier.inval
func lowerSyncs(l *lowerer) error {
	form := strings.Join(l.in.Mods, ".")
	ops := l.in.Operands
	switch form {
	case "CCTL.IV":
		if err := l.nops(1); err != nil {
			return err
		}
		a, err := l.mem(&ops[0], false)
		if err != nil {
			return err
		}
		l.set(isa.OpMbarInval, isa.B64, 0, a)
	case "EXCH.64":
		if err := l.nops(3); err != nil {
			return err
		}
		if d := &ops[0]; !(d.Kind == KindReg && d.Reg.IsZero()) {
			return l.unsupported("SYNCS.EXCH.64 that returns the old word")
		}
		a, err := l.mem(&ops[1], false)
		if err != nil {
			return err
		}
		w, err := l.src(&ops[2], wPair)
		if err != nil {
			return err
		}
		if w.Kind == isa.KReg {
			w.Mod |= isa.MPair
		} else {
			return l.unsupported("SYNCS.EXCH.64 of a non-register word")
		}
		l.set(isa.OpMbarInit, isa.B64, 0, a, w)
	case "ARRIVE.TRANS64.A1T0", "ARRIVE.TRANS64.ART0", "ARRIVE.TRANS64":
		if err := l.nops(3); err != nil {
			return err
		}
		tok, err := l.dst(&ops[0], true)
		if err != nil {
			return err
		}
		a, err := l.mem(&ops[1], false)
		if err != nil {
			return err
		}
		v, err := l.src(&ops[2], wInt)
		if err != nil {
			return err
		}
		switch form {
		case "ARRIVE.TRANS64.A1T0":
			l.set(isa.OpMbarArrive, isa.B64, 1, tok, a)
		case "ARRIVE.TRANS64.ART0":
			l.set(isa.OpMbarArrive, isa.B64, 1, tok, a, v)
		default:
			l.set(isa.OpMbarArrive, isa.B64, 1, tok, a, v)
			l.out.Flags |= isa.FExpectTx
		}
	case "ARRIVE.TRANS64.RED.A0TR", "ARRIVE.TRANS64.RED.A0TX":
		if err := l.nops(3); err != nil {
			return err
		}
		a, err := l.mem(&ops[1], false)
		if err != nil {
			return err
		}
		v, err := l.src(&ops[2], wInt)
		if err != nil {
			return err
		}
		op := isa.OpMbarExpectTx
		if form == "ARRIVE.TRANS64.RED.A0TX" {
			op = isa.OpMbarCompleteTx
		}
		l.set(op, isa.B64, 0, a, v)
	case "ARRIVE.TRANS64.RED.A0T1":
		return l.pendingIncrement()
	case "ARRIVE.TRANS64.RED.A1T0":
		return l.remoteArrive()
	case "PHASECHK.TRANS64.TRYWAIT", "PHASECHK.TRANS64":
		if err := l.nops(3); err != nil {
			return err
		}
		p, err := l.predDst(&ops[0])
		if err != nil {
			return err
		}
		a, err := l.mem(&ops[1], false)
		if err != nil {
			return err
		}
		v, err := l.src(&ops[2], wInt)
		if err != nil {
			return err
		}
		v.Mod |= isa.MSign
		if v.Kind == isa.KImm {
			v = isa.Imm(v.Imm >> 31 & 1)
		}
		op := isa.OpMbarTestWait
		if form == "PHASECHK.TRANS64.TRYWAIT" {
			op = isa.OpMbarTryWait
		}
		l.set(op, isa.B64, 1, p, a, v)
		l.out.Flags |= isa.FParity
	default:
		return l.unsupported("barrier-unit operation SYNCS.%s", form)
	}
	l.out.Space = isa.Shared
	l.out.Class = isa.ClassSyncs
	return nil
}

// pendingIncrement lowers SYNCS.ARRIVE.TRANS64.RED.A0T1 RZ, [a], RZ, the
// pending-count increment cp.async.mbarrier.arrive makes before its
// asynchronous arrival: it must be followed by that ARRIVES, with the same
// guard and address, and the two run as the isa's one operation.
func (l *lowerer) pendingIncrement() error {
	next := l.idx + 1
	ins := l.fn.Instructions
	ok := next < len(ins) && ins[next].Op == "ARRIVES" && ins[next].Guard == l.in.Guard &&
		len(ins[next].Operands) == 1 && len(l.in.Operands) == 3 &&
		ins[next].Operands[0].String() == l.in.Operands[1].String()
	if !ok {
		return l.unsupported("a pending-count increment not followed by its ARRIVES.LDGSTSBAR")
	}
	l.pairedInc[next] = true
	l.set(isa.OpNop, isa.TNone, 0)
	l.out.Class = isa.ClassSyncs
	return nil
}

// lowerUBlkCp: UBLKCP.S.G [dst, mbar], [src], size and UBLKCP.G.S [dst],
// [src], size: a bulk copy issued once for the warp (the uniform
// datapath), the size word in units of 16 bytes. UBLKCP.S.G.MULTICAST is
// .multicast::cluster, the CTA mask in the size word's high half (0xf0100:
// 4 KiB to ranks 0-3, as cluster_probe's k_cluster_func<4> shows).
func lowerUBlkCp(l *lowerer) error {
	mode := uint8(0)
	switch strings.Join(l.in.Mods, ".") {
	case "S.G":
	case "S.G.MULTICAST":
		l.out.Flags |= isa.FMulticast
	case "G.S":
		mode = 1
	default:
		return l.unsupported("bulk copy form")
	}
	if err := l.nops(3); err != nil {
		return err
	}
	d, s, n := l.op(0), l.op(1), l.op(2)
	if d.Kind != KindMem || s.Kind != KindMem || !d.Reg.IsReg(UGPR) || !s.Reg.IsReg(UGPR) || d.Int != 0 || s.Int != 0 ||
		d.Index.Valid() || s.Index.Valid() {
		return l.unsupported("bulk copy addresses other than [URn]")
	}
	dp := isa.RPair(regIndex(d.Reg))
	sp := isa.RPair(regIndex(s.Reg))
	if mode == 1 {
		sp = isa.R(regIndex(s.Reg))
	}
	size, err := l.src(n, wInt)
	if err != nil {
		return err
	}
	l.set(isa.OpUBlkCp, isa.B8, 0, dp, sp, size)
	l.out.Mode = mode
	l.out.Class = isa.ClassTMA
	return nil
}

// IsReg reports whether r is a register of file f other than the zero one.
func (r Reg) IsReg(f RegFile) bool { return r.File == f && !r.IsZero() }

// lowerUTma: UTMALDG.nD [dst, mbar, c0, ...], [map]: a tensor copy issued
// once for the warp; the first uniform register and those after it hold
// the destination, the barrier and the coordinates.
func lowerUTma(l *lowerer) error {
	if len(l.in.Mods) != 1 || len(l.in.Mods[0]) != 2 || l.in.Mods[0][1] != 'D' || l.in.Mods[0][0] < '1' ||
		l.in.Mods[0][0] > '5' {
		return l.unsupported("tensor copy form")
	}
	dim := int(l.in.Mods[0][0] - '0')
	if err := l.nops(2); err != nil {
		return err
	}
	d, m := l.op(0), l.op(1)
	if d.Kind != KindMem || m.Kind != KindMem || !d.Reg.IsReg(UGPR) || !m.Reg.IsReg(UGPR) || d.Int != 0 || m.Int != 0 {
		return l.unsupported("tensor copy addresses other than [URn]")
	}
	if int(d.Reg.Num)+2+dim > URZ {
		return l.bad("%s leaves no room for %d coordinates", d.Reg.String(), dim)
	}
	l.set(isa.OpUTma, isa.B8, 0, isa.R(regIndex(d.Reg)), isa.RPair(regIndex(m.Reg)))
	l.out.Dim = uint8(dim)
	l.out.Class = isa.ClassTMA
	return nil
}

// lowerUTmaFlush: UTMACMDFLUSH: close the warp's bulk group (commit_group).
func lowerUTmaFlush(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	l.set(isa.OpUTmaFlush, isa.TNone, 0)
	l.out.Class = isa.ClassTMA
	return nil
}
