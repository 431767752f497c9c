package ptx

import (
	"github.com/smsim/smsim/isa"
)

// cvt lowers conversions between integer and floating-point types,
// including the two-source packed forms cvt.rn.f16x2.f32 d, a, b.
func (l *lowerer) cvt(in *Instr, m *mods) error {
	if mode, dest := fp8Pair(in); mode != 0 {
		return l.cvtFP8(in, m, mode, dest)
	}
	x := isa.Instr{Op: isa.OpCvt, NDst: 1, Rnd: rounding(m)}
	if m.take("ftz") {
		x.Flags |= isa.FFtz
	}
	if m.take("sat") {
		x.Flags |= isa.FSat
	}
	relu := m.take("relu")
	dt, st, err := l.typ2(m)
	if err != nil {
		return err
	}
	x.Type, x.Type2 = dt, st
	if err := l.checkCvt(&x, relu); err != nil {
		return err
	}
	n := 2
	if dt == isa.F16x2 || dt == isa.BF16x2 {
		n = 3
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	for _, o := range in.Operands[1:] {
		v, err := l.val(o, st)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	if relu {
		l.emit(isa.Instr{Op: isa.OpMax, Type: dt, Flags: isa.FNaN, NDst: 1, Ops: []isa.Operand{d, d, isa.Imm(0)}})
	}
	// A narrow signed result is sign-extended to the width of its register.
	if w := l.regWidth(in.Operands[0]); dt.Signed() && dt.Bits() < w {
		ext := map[int]isa.Type{16: isa.S16, 32: isa.S32, 64: isa.S64}[w]
		l.emit(isa.Instr{Op: isa.OpCvt, Type: ext, Type2: dt, NDst: 1, Ops: []isa.Operand{d, d}})
	}
	return nil
}

// checkCvt rejects conversions the executor does not define.
func (l *lowerer) checkCvt(x *isa.Instr, relu bool) error {
	dt, st := x.Type, x.Type2
	if dt == isa.Pred || st == isa.Pred || dt == isa.B128 || st == isa.B128 {
		return l.unsupported("conversion .%s.%s", dt, st)
	}
	if st == isa.F16x2 || st == isa.BF16x2 || st == isa.TF32 {
		return l.unsupported("conversion from .%s", st)
	}
	if (dt == isa.F16x2 || dt == isa.BF16x2) && st != isa.F32 {
		return l.unsupported("packed conversion from .%s", st)
	}
	if dt == isa.TF32 && (st != isa.F32 || x.Rnd != isa.RNA) {
		return l.unsupported("conversion to .tf32 other than cvt.rna.tf32.f32")
	}
	if x.Rnd == isa.RNA && dt != isa.TF32 {
		return l.unsupported(".rna outside cvt.rna.tf32.f32")
	}
	if relu && dt != isa.F16 && dt != isa.BF16 && dt != isa.F16x2 && dt != isa.BF16x2 {
		return l.unsupported(".relu on a conversion to .%s", dt)
	}
	if st.Float() && !dt.Float() && x.Rnd != isa.RNone && x.Rnd < isa.RNI {
		return l.unsupported("float-to-integer conversion needs .rni, .rzi, .rmi or .rpi")
	}
	if !st.Float() && x.Rnd >= isa.RNI {
		return l.unsupported("integer rounding on a conversion from .%s", st)
	}
	return nil
}

// addrSpace lowers cvta, isspacep, mapa and getctarank.
func (l *lowerer) addrSpace(in *Instr, m *mods) error {
	switch in.Op {
	case "cvta":
		return l.cvta(in, m)
	case "isspacep":
		return l.isspacep(in, m)
	case "getctarank":
		return l.getctarank(in, m)
	}
	return l.mapa(in, m)
}

// window is the generic address of offset 0 of a state space.
func window(sp isa.Space) uint64 {
	switch sp {
	case isa.Shared, isa.Cluster:
		return isa.SharedWindow
	case isa.Local:
		return isa.LocalWindow
	case isa.ParamSpace:
		return isa.ParamWindow
	case isa.Const:
		return isa.ConstDataBase
	}
	return 0
}

// cvta lowers cvta.space (space to generic: add the space's window) and
// cvta.to.space (generic to space: subtract it). Global addresses are
// generic already, so those forms are moves.
func (l *lowerer) cvta(in *Instr, m *mods) error {
	to := m.take("to")
	sp, ok := space(m)
	if !ok {
		return l.unsupported("missing state space")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if t != isa.U32 && t != isa.U64 {
		return l.unsupported("size .%s", t)
	}
	if t == isa.U32 && !to && sp != isa.Global {
		return l.unsupported("32-bit generic addresses")
	}
	ops, err := l.dstVals(in, t)
	if err != nil {
		return err
	}
	d, a := ops[0], ops[1]
	w := window(sp)
	switch {
	case w == 0:
		l.emit(isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{d, a}})
	case to:
		l.emit(isa.Instr{Op: isa.OpSub, Type: t, NDst: 1, Ops: []isa.Operand{d, a, isa.Imm(w)}})
	default:
		l.emit(isa.Instr{Op: isa.OpAdd, Type: isa.U64, NDst: 1, Ops: []isa.Operand{d, a, isa.Imm(w)}})
	}
	return nil
}

// isspacep lowers `isspacep.space p, a` to comparisons of a with the
// space's generic window (global: outside every other window).
func (l *lowerer) isspacep(in *Instr, m *mods) error {
	sp, ok := space(m)
	if !ok {
		return l.unsupported("missing state space")
	}
	if err := l.nops(in, 2); err != nil {
		return err
	}
	p, err := l.pdst(in.Operands[0])
	if err != nil {
		return err
	}
	a, err := l.val(in.Operands[1], isa.U64)
	if err != nil {
		return err
	}
	setp := func(d isa.Operand, c isa.CmpOp, v uint64, b isa.BoolOp, q isa.Operand) {
		x := isa.Instr{Op: isa.OpSetp, Type: isa.U64, Cmp: c, Bool: b, NDst: 1, Ops: []isa.Operand{d, a, isa.Imm(v)}}
		if b != isa.BoolNone {
			x.Ops = append(x.Ops, q)
		}
		l.emit(x)
	}
	if sp != isa.Global {
		w := window(sp)
		setp(p, isa.CmpHs, w, isa.BoolNone, isa.Operand{})
		setp(p, isa.CmpLo, w+isa.WindowSize, isa.BoolAnd, p)
		return nil
	}
	q, err := l.ptemp()
	if err != nil {
		return err
	}
	qp := isa.P(int(q))
	setp(p, isa.CmpLo, isa.ConstDataBase, isa.BoolNone, isa.Operand{})
	setp(qp, isa.CmpHs, isa.ConstDataBase+isa.WindowSize, isa.BoolNone, isa.Operand{})
	setp(qp, isa.CmpLo, isa.ParamWindow, isa.BoolAnd, qp)
	l.emit(isa.Instr{Op: isa.OpOr, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{p, p, qp}})
	setp(p, isa.CmpHs, isa.LocalWindow+isa.WindowSize, isa.BoolOr, p)
	return nil
}

// mapa lowers `mapa[.shared::cluster].type d, a, rank`: the address of a's
// shared variable in the CTA of that rank (isa.OpMapa; the SM knows the
// cluster).
func (l *lowerer) mapa(in *Instr, m *mods) error {
	sp, _ := space(m)
	if sp != isa.Generic && sp != isa.Cluster {
		return l.unsupported("mapa in .%s", sp)
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	ops, err := l.dstVals(in, t, isa.U32)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMapa, Type: t, Space: sp, NDst: 1, Ops: ops})
	return nil
}

// getctarank lowers `getctarank[.shared::cluster].type d, a`: the rank of
// the CTA whose shared memory a addresses (isa.OpMapa, Mode MapaRank).
func (l *lowerer) getctarank(in *Instr, m *mods) error {
	sp, _ := space(m)
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	ops, err := l.dstVals(in, t)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMapa, Mode: isa.MapaRank, Type: t, Space: sp, NDst: 1, Ops: []isa.Operand{ops[0], ops[1]}})
	return nil
}
