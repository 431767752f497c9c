package sass

import (
	"github.com/smsim/smsim/isa"
)

// Warp collectives and control flow.

// lowerShfl: SHFL.{UP,DOWN,BFLY,IDX} p, d, a, b, c (c: PTX's clamp and
// segment mask word).
func lowerShfl(l *lowerer) error {
	if len(l.in.Mods) != 1 {
		return l.unsupported("SHFL needs one mode")
	}
	var mode uint8
	switch l.in.Mods[0] {
	case "UP":
		mode = 0
	case "DOWN":
		mode = 1
	case "BFLY":
		mode = 2
	case "IDX":
		mode = 3
	default:
		return l.unsupported("SHFL mode .%s", l.in.Mods[0])
	}
	if err := l.nops(5); err != nil {
		return err
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	d, err := l.dst(l.op(1), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(2), l.op(3), l.op(4))
	if err != nil {
		return err
	}
	l.set(isa.OpShfl, isa.B32, 2, d, p, s[0], s[1], s[2])
	l.out.Mode = mode
	return nil
}

// lowerVote: VOTE.{ALL,ANY,EQ} [d,] p, a and VOTEU.{ALL,ANY} [UR,] UP, a: d
// the ballot, p the vote.
func lowerVote(l *lowerer) error {
	if len(l.in.Mods) != 1 {
		return l.unsupported("VOTE needs one mode")
	}
	var mode uint8
	switch l.in.Mods[0] {
	case "ALL":
		mode = isa.SVoteAll
	case "ANY":
		mode = isa.SVoteAny
	case "EQ":
		mode = isa.SVoteEq
	default:
		return l.unsupported("VOTE mode .%s", l.in.Mods[0])
	}
	ops := l.in.Operands
	if len(ops) != 2 && len(ops) != 3 {
		return l.bad("%d operands", len(ops))
	}
	d := isa.Sink()
	k := 0
	if len(ops) == 3 {
		var err error
		if d, err = l.dst(&ops[0], false); err != nil {
			return err
		}
		k = 1
	}
	p, err := l.predDst(&ops[k])
	if err != nil {
		return err
	}
	a, err := l.predSrc(&ops[k+1])
	if err != nil {
		return err
	}
	l.set(isa.OpSVote, isa.B32, 2, d, p, a)
	l.out.Mode = mode
	l.out.Class = isa.ClassWarpSync
	return nil
}

// lowerMatch: MATCH.ANY[.U64] d, a and MATCH.ALL PT, d, a.
func lowerMatch(l *lowerer) error {
	if err := l.mods("ANY", "ALL", "U64", "U32"); err != nil {
		return err
	}
	ops := l.in.Operands
	k := 0
	if l.has("ALL") {
		if len(ops) != 3 || !isPred(&ops[0]) || !ops[0].Reg.IsTrue() {
			return l.unsupported("MATCH.ALL with a predicate result")
		}
		k = 1
	} else if len(ops) != 2 {
		return l.bad("%d operands", len(ops))
	}
	wide := l.has("U64")
	d, err := l.dst(&ops[k], false)
	if err != nil {
		return err
	}
	kind, t := wInt, isa.B32
	if wide {
		kind, t = wPair, isa.B64
	}
	a, err := l.src(&ops[k+1], kind)
	if err != nil {
		return err
	}
	l.set(isa.OpMatch, t, 1, d, a)
	if l.has("ALL") {
		l.out.Mode = 1
	}
	return nil
}

// lowerRedux: REDUX[.SUM|.MIN|.MAX|.OR|.XOR][.S32] UR, a (no operation:
// AND); the result is uniform.
func lowerRedux(l *lowerer) error {
	if err := l.mods("SUM", "MIN", "MAX", "AND", "OR", "XOR", "S32", "U32"); err != nil {
		return err
	}
	atom := isa.AtomAnd
	switch {
	case l.has("SUM"):
		atom = isa.AtomAdd
	case l.has("MIN"):
		atom = isa.AtomMin
	case l.has("MAX"):
		atom = isa.AtomMax
	case l.has("OR"):
		atom = isa.AtomOr
	case l.has("XOR"):
		atom = isa.AtomXor
	}
	t := isa.U32
	if l.has("S32") {
		t = isa.S32
	}
	if err := l.unary(isa.OpRedux, t, wInt); err != nil {
		return err
	}
	l.out.Atom = atom
	return nil
}

// lowerElect: ELECT p, d, a: p in the first active lane with a; d (a
// uniform register) its lane number.
func lowerElect(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(3); err != nil {
		return err
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	d, err := l.dst(l.op(1), false)
	if err != nil {
		return err
	}
	a, err := l.predSrc(l.op(2))
	if err != nil {
		return err
	}
	l.set(isa.OpSElect, isa.Pred, 2, p, d, a)
	l.out.Class = isa.ClassWarpSync
	return nil
}

// target sets the branch target from a target operand.
func (l *lowerer) target(o *Operand) error {
	if o.Kind != KindTarget {
		return l.bad("operand %s: want a branch target", o.String())
	}
	if o.Int < 0 || o.Int%instrLen != 0 || o.Int/instrLen >= int64(len(l.fn.Instructions)) {
		return l.unsupported("a branch to 0x%x, outside the function", o.Int)
	}
	l.out.Target = int32(o.Int / instrLen)
	return nil
}

// lowerBra: BRA target, BRA.U.ANY (taken by the whole path when any lane's
// guard holds), BRA.DIV UR, target (taken when a lane of the mask UR is
// not on the path: the warp is diverged), BRA.CONV (the opposite), BRA P,
// target (taken where the guard and P hold).
func lowerBra(l *lowerer) error {
	if err := l.mods("U", "ANY", "DIV", "CONV", "INC", "DEC"); err != nil {
		return err
	}
	ops := l.in.Operands
	l.set(isa.OpBra, isa.TNone, 0)
	l.out.Class = isa.ClassBranch
	switch {
	case l.has("ANY"):
		l.out.Mode = isa.BraAny
	case l.has("DIV"), l.has("CONV"):
		if len(ops) != 2 {
			return l.bad("%d operands", len(ops))
		}
		m, err := l.src(&ops[0], wInt)
		if err != nil {
			return err
		}
		l.out.Ops = []isa.Operand{m}
		l.out.Mode = isa.BraDiv
		if l.has("CONV") {
			l.out.Mode = isa.BraConv
		}
	case len(ops) == 2:
		p, err := l.predSrc(&ops[0])
		if err != nil {
			return err
		}
		l.out.Ops = []isa.Operand{p}
		l.out.Mode = isa.BraAnd
	}
	return l.target(&ops[len(ops)-1])
}

// lowerCall: CALL.REL.NOINC target: a jump; the return address is in the
// registers the program set (MOV R20, 0x...) for its RET.
func lowerCall(l *lowerer) error {
	if err := l.mods("REL", "NOINC", "ABS"); err != nil {
		return err
	}
	if err := l.nops(1); err != nil {
		return err
	}
	l.set(isa.OpBra, isa.TNone, 0)
	l.out.Mode = isa.BraCall
	l.out.Class = isa.ClassBranch
	return l.target(l.op(0))
}

// lowerJmx: RET.REL.NODEC R, disp jumps to the function address in the pair
// R plus disp; BRX R, disp to R plus disp plus the address of the next
// instruction (its jump tables hold addresses relative to that).
func lowerJmx(l *lowerer) error {
	if err := l.mods("REL", "NODEC", "ABS"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	r, disp := l.op(0), l.op(1)
	if r.Kind != KindReg || r.Reg.File != GPR || disp.Kind != KindInt {
		return l.unsupported("this %s form", l.in.Op)
	}
	a, err := l.src(r, wPair)
	if err != nil {
		return err
	}
	l.set(isa.OpJmx, isa.TNone, 0, a, isa.Imm(uint64(disp.Int)))
	if l.in.Op == "BRX" {
		l.out.Mode = 1
	}
	l.out.Class = isa.ClassBranch
	return nil
}

// lowerExit: EXIT [P]: the lanes where the guard (and P) hold exit.
func lowerExit(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	l.set(isa.OpExit, isa.TNone, 0)
	l.out.Class = isa.ClassBranch
	switch len(l.in.Operands) {
	case 0:
	case 1:
		p, err := l.predSrc(l.op(0))
		if err != nil {
			return err
		}
		l.out.Ops = []isa.Operand{p}
	default:
		return l.bad("%d operands", len(l.in.Operands))
	}
	return nil
}

// barrierReg reads a convergence barrier operand Bn.
func (l *lowerer) barrierReg(o *Operand) (isa.Operand, error) {
	if !o.IsReg(Barrier) {
		return isa.Operand{}, l.bad("operand %s: want a convergence barrier", o.String())
	}
	return isa.Imm(uint64(o.Reg.Num)), nil
}

// lowerBssy: BSSY Bn, target: Bn = the path's lanes; target is where they
// reconverge (after the BSYNC).
func lowerBssy(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	b, err := l.barrierReg(l.op(0))
	if err != nil {
		return err
	}
	l.set(isa.OpBssy, isa.TNone, 0, b)
	l.out.Class = isa.ClassBranch
	return l.target(l.op(1))
}

// lowerBsync: BSYNC Bn.
func lowerBsync(l *lowerer) error { return lowerOnBarrier(l, isa.OpBsync) }

// lowerBreak: BREAK Bn: the lanes leave Bn (a loop's early exit).
func lowerBreak(l *lowerer) error { return lowerOnBarrier(l, isa.OpBreak) }

// lowerOnBarrier lowers an instruction whose one operand is a convergence
// barrier Bn (BSYNC, BREAK) to op.
func lowerOnBarrier(l *lowerer, op isa.Op) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(1); err != nil {
		return err
	}
	b, err := l.barrierReg(l.op(0))
	if err != nil {
		return err
	}
	l.set(op, isa.TNone, 0, b)
	l.out.Class = isa.ClassBranch
	return nil
}

// lowerBmov: BMOV.32[.CLEAR] R, Bn (read the barrier, clearing it) and
// BMOV.32 Bn, R (set it): saving convergence barriers across a call.
func lowerBmov(l *lowerer) error {
	if err := l.mods("32", "CLEAR"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	if l.op(0).IsReg(Barrier) {
		b, _ := l.barrierReg(l.op(0))
		v, err := l.src(l.op(1), wInt)
		if err != nil {
			return err
		}
		l.set(isa.OpBmov, isa.B32, 0, b, v)
		l.out.Mode = 2
	} else {
		d, err := l.dst(l.op(0), false)
		if err != nil {
			return err
		}
		b, err := l.barrierReg(l.op(1))
		if err != nil {
			return err
		}
		l.set(isa.OpBmov, isa.B32, 1, d, b)
		if l.has("CLEAR") {
			l.out.Mode = 1
		}
	}
	l.out.Class = isa.ClassBranch
	return nil
}

// lowerWarpsync: WARPSYNC mask, WARPSYNC.ALL, WARPSYNC.COLLECTIVE mask,
// target (the start of a collective that ENDCOLLECTIVE ends; the lanes of
// the mask meet here first): bar.warp.sync.
func lowerWarpsync(l *lowerer) error {
	if err := l.mods("ALL", "COLLECTIVE"); err != nil {
		return err
	}
	ops := l.in.Operands
	var m isa.Operand
	switch {
	case l.has("ALL") && len(ops) <= 1:
		m = isa.Imm(0xffffffff)
	case len(ops) >= 1:
		var err error
		if m, err = l.src(&ops[0], wInt); err != nil {
			return err
		}
	default:
		return l.bad("want a mask")
	}
	l.set(isa.OpBarWarpSync, isa.TNone, 0, m)
	l.out.Class = isa.ClassWarpSync
	return nil
}

// lowerNanosleep: NANOSLEEP[.SYNCS] [P,] t: sleep about t ns (the .SYNCS
// form sleeps until the barrier unit answers the warp's try_wait, at most t
// ns: isa.FSyncs; its predicate operand, the answer, only changes how long).
func lowerNanosleep(l *lowerer) error {
	if err := l.mods("SYNCS"); err != nil {
		return err
	}
	ops := l.in.Operands
	if len(ops) < 1 || len(ops) > 2 {
		return l.bad("%d operands", len(ops))
	}
	t, err := l.src(&ops[len(ops)-1], wInt)
	if err != nil {
		return err
	}
	l.set(isa.OpNanosleep, isa.U32, 0, t)
	l.out.Class = isa.ClassSleep
	if l.has("SYNCS") {
		l.out.Flags |= isa.FSyncs
	}
	return nil
}

// lowerBar: BAR.SYNC[.DEFER_BLOCKING] id [, count], BAR.ARV id, count,
// BAR.RED.{POPC,AND,OR}[.DEFER_BLOCKING] id [, count], {!}p.
func lowerBar(l *lowerer) error {
	if err := l.mods("SYNC", "DEFER_BLOCKING", "ARV", "SYNCALL", "RED", "POPC", "AND", "OR"); err != nil {
		return err
	}
	if l.has("RED") {
		return lowerBarRed(l)
	}
	op := isa.OpBarSync
	if l.has("ARV") {
		op = isa.OpBarArrive
	}
	ops := l.in.Operands
	if len(ops) < 1 || len(ops) > 2 {
		return l.bad("%d operands", len(ops))
	}
	s, err := l.srcs(wInt, l.ops(ops)...)
	if err != nil {
		return err
	}
	l.set(op, isa.TNone, 0, s...)
	l.out.Flags |= isa.FAligned
	l.out.Class = isa.ClassBar
	return nil
}

// lowerBarRed: BAR.RED.{POPC,AND,OR}[.DEFER_BLOCKING] id [, count], {!}p
// (barrier.red, __syncthreads_count/and/or): a bar.sync at which each
// thread also gives p; the barrier unit counts the true ones, and the
// warp's B2R.RESULT reads the count and the reduction afterwards
// (testdata/cuda/scan.sass, syncthreads_reduce_i32).
func lowerBarRed(l *lowerer) error {
	var op isa.AtomOp
	switch {
	case l.has("POPC"):
		op = isa.AtomPopc
	case l.has("AND"):
		op = isa.AtomAnd
	case l.has("OR"):
		op = isa.AtomOr
	default:
		return l.unsupported("BAR.RED needs .POPC, .AND or .OR")
	}
	ops := l.in.Operands
	if len(ops) < 2 || len(ops) > 3 || !isPred(&ops[len(ops)-1]) {
		return l.bad("want id [, count], predicate")
	}
	s, err := l.srcs(wInt, l.ops(ops[:len(ops)-1])...)
	if err != nil {
		return err
	}
	p, err := l.predSrc(&ops[len(ops)-1])
	if err != nil {
		return err
	}
	l.set(isa.OpBarRed, isa.TNone, 0, append(s, p)...)
	l.out.Atom = op
	l.out.Flags |= isa.FAligned
	l.out.Class = isa.ClassBar
	return nil
}

// lowerB2R: B2R.RESULT d [, p]: the count of true predicates of the warp's
// last BAR.RED into d, its reduction into p.
func lowerB2R(l *lowerer) error {
	if err := l.mods("RESULT"); err != nil {
		return err
	}
	if !l.has("RESULT") {
		return l.unsupported("B2R without .RESULT")
	}
	ops := l.in.Operands
	if len(ops) < 1 || len(ops) > 2 {
		return l.bad("%d operands", len(ops))
	}
	d, err := l.dst(&ops[0], false)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if len(ops) == 2 {
		p, err := l.predDst(&ops[1])
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	l.set(isa.OpBarResult, isa.U32, len(out), out...)
	l.out.Class = isa.ClassSpecial
	return nil
}

// ops returns pointers to the operands.
func (l *lowerer) ops(ops []Operand) []*Operand {
	out := make([]*Operand, len(ops))
	for i := range ops {
		out[i] = &ops[i]
	}
	return out
}
