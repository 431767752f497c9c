package ptx

import (
	"github.com/smsim/smsim/isa"
)

// Property tests of testp (isa.Instr.Mode of OpTestp), in the order isa documents.
const (
	testpFinite = iota
	testpInfinite
	testpNumber
	testpNotANumber
	testpNormal
	testpSubnormal
)

// compare lowers setp, set, selp, slct and testp.
func (l *lowerer) compare(in *Instr, m *mods) error {
	switch in.Op {
	case "setp":
		return l.setp(in, m)
	case "set":
		return l.set(in, m)
	case "selp":
		return l.selp(in, m)
	case "slct":
		return l.slct(in, m)
	}
	return l.testp(in, m)
}

// setp lowers `setp.cmp[.bool][.ftz].type p[|q], a, b[, c]`.
func (l *lowerer) setp(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpSetp, Cmp: cmp(m), Bool: boolOp(m)}
	if x.Cmp == isa.CmpNone {
		return l.unsupported("missing comparison")
	}
	if m.take("ftz") {
		x.Flags |= isa.FFtz
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	x.Type = t
	n := 3
	if x.Bool != isa.BoolNone {
		n = 4
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	if err := l.predPair(in.Operands[0], &x, t == isa.F16x2 || t == isa.BF16x2); err != nil {
		return err
	}
	return l.emitCompare(in, x, t)
}

// emitCompare lowers a comparison's sources — a and b of type t, then the
// predicate c of a .bool combination — into x, and emits it.
func (l *lowerer) emitCompare(in *Instr, x isa.Instr, t isa.Type) error {
	for _, o := range in.Operands[1:3] {
		v, err := l.val(o, t)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	if x.Bool != isa.BoolNone {
		c, err := l.psrc(in.Operands[3])
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, c)
	}
	l.emit(x)
	return nil
}

// predPair converts a `p` or `p|q` destination into x's destinations;
// packed comparisons need both.
func (l *lowerer) predPair(o Operand, x *isa.Instr, both bool) error {
	var ds []Operand
	if p, ok := o.(*Pair); ok {
		ds = []Operand{p.A, p.B}
	} else {
		if both {
			return l.errf("%s needs two predicate destinations p|q", l.cur.Opcode())
		}
		ds = []Operand{o}
	}
	for _, d := range ds {
		pd, err := l.pdst(d)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, pd)
	}
	x.NDst = uint8(len(ds))
	return nil
}

// set lowers `set.cmp[.bool][.ftz].dtype.stype d, a, b[, c]`.
func (l *lowerer) set(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpSet, Cmp: cmp(m), Bool: boolOp(m), NDst: 1}
	if x.Cmp == isa.CmpNone {
		return l.unsupported("missing comparison")
	}
	if m.take("ftz") {
		x.Flags |= isa.FFtz
	}
	dt, st, err := l.typ2(m)
	if err != nil {
		return err
	}
	packed := st == isa.F16x2 || st == isa.BF16x2
	okDst := dt == isa.U32 || dt == isa.S32 || dt == isa.F16x2 || dt == isa.BF16x2
	if !packed {
		okDst = dt == isa.U32 || dt == isa.S32 || dt == isa.F32 || dt == isa.F16 || dt == isa.BF16
	}
	if !okDst {
		return l.unsupported("set.%s with comparison type .%s", dt, st)
	}
	x.Type, x.Type2 = st, dt
	if dt == isa.F32 {
		x.Flags |= isa.FF32Result
	}
	n := 3
	if x.Bool != isa.BoolNone {
		n = 4
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	return l.emitCompare(in, x, st)
}

// selp lowers `selp.type d, a, b, c` (d = c ? a : b).
func (l *lowerer) selp(in *Instr, m *mods) error {
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if err := l.nops(in, 4); err != nil {
		return err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	a, err := l.val(in.Operands[1], t)
	if err != nil {
		return err
	}
	b, err := l.val(in.Operands[2], t)
	if err != nil {
		return err
	}
	c, err := l.psrc(in.Operands[3])
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpSelp, Type: t, NDst: 1, Ops: []isa.Operand{d, a, b, c}})
	return nil
}

// slct lowers `slct[.ftz].dtype.ctype d, a, b, c` (d = c >= 0 ? a : b).
func (l *lowerer) slct(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpSlct, NDst: 1}
	if m.take("ftz") {
		x.Flags |= isa.FFtz
	}
	dt, ct, err := l.typ2(m)
	if err != nil {
		return err
	}
	if ct != isa.S32 && ct != isa.F32 {
		return l.unsupported("slct with comparison type .%s", ct)
	}
	x.Type, x.Type2 = dt, ct
	if x.Ops, err = l.dstVals(in, dt, dt, ct); err != nil {
		return err
	}
	l.emit(x)
	return nil
}

// testp lowers `testp.op.type p, a`.
func (l *lowerer) testp(in *Instr, m *mods) error {
	modes := map[string]uint8{"finite": testpFinite, "infinite": testpInfinite, "number": testpNumber,
		"notanumber": testpNotANumber, "normal": testpNormal, "subnormal": testpSubnormal}
	x := isa.Instr{Op: isa.OpTestp, NDst: 1}
	found := false
	for name, mode := range modes {
		if m.take(name) {
			x.Mode, found = mode, true
			break
		}
	}
	if !found {
		return l.unsupported("missing property")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if t != isa.F32 && t != isa.F64 {
		return l.unsupported("testp on .%s", t)
	}
	x.Type = t
	if err := l.nops(in, 2); err != nil {
		return err
	}
	p, err := l.pdst(in.Operands[0])
	if err != nil {
		return err
	}
	a, err := l.val(in.Operands[1], t)
	if err != nil {
		return err
	}
	x.Ops = []isa.Operand{p, a}
	l.emit(x)
	return nil
}
