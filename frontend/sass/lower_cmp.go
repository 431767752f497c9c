package sass

import "github.com/smsim/smsim/isa"

// Comparisons, additions with a minimum or maximum, and selections.

// lowerSel: SEL / FSEL d, a, b, p: d = p ? a : b.
func lowerSel(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	k := wInt
	if l.in.Op == "FSEL" {
		k = wF32
	}
	s, err := l.srcs(k, l.op(1), l.op(2))
	if err != nil {
		return err
	}
	p, err := l.predSrc(l.op(3))
	if err != nil {
		return err
	}
	l.set(isa.OpSelp, isa.B32, 1, d, s[0], s[1], p)
	l.out.Class = isa.ClassALU
	return nil
}

// cmpOf maps a SASS comparison modifier.
func cmpOf(m string) (isa.CmpOp, bool) {
	switch m {
	case "EQ":
		return isa.CmpEq, true
	case "NE":
		return isa.CmpNe, true
	case "LT":
		return isa.CmpLt, true
	case "LE":
		return isa.CmpLe, true
	case "GT":
		return isa.CmpGt, true
	case "GE":
		return isa.CmpGe, true
	case "EQU":
		return isa.CmpEqu, true
	case "NEU":
		return isa.CmpNeu, true
	case "LTU":
		return isa.CmpLtu, true
	case "LEU":
		return isa.CmpLeu, true
	case "GTU":
		return isa.CmpGtu, true
	case "GEU":
		return isa.CmpGeu, true
	case "NUM":
		return isa.CmpNum, true
	case "NAN":
		return isa.CmpNan, true
	}
	return isa.CmpNone, false
}

func boolOf(m string) (isa.BoolOp, bool) {
	switch m {
	case "AND":
		return isa.BoolAnd, true
	case "OR":
		return isa.BoolOr, true
	case "XOR":
		return isa.BoolXor, true
	}
	return isa.BoolNone, false
}

// compareMods reads the comparison and combiner of a SETP and checks that
// the other modifiers are among extra.
func (l *lowerer) compareMods(extra ...string) error {
	var seenCmp, seenBool bool
	var rest []string
	for _, m := range l.in.Mods {
		if c, ok := cmpOf(m); ok && !seenCmp {
			l.out.Cmp, seenCmp = c, true
			continue
		}
		if b, ok := boolOf(m); ok && !seenBool {
			l.out.Bool, seenBool = b, true
			continue
		}
		rest = append(rest, m)
	}
	if !seenCmp || !seenBool {
		return l.unsupported("a comparison needs a test and a combiner (.LT.AND)")
	}
	for _, m := range rest {
		ok := false
		for _, e := range extra {
			ok = ok || m == e
		}
		if !ok {
			return l.unsupported("modifier .%s", m)
		}
	}
	return nil
}

// setp lowers p, q, a, b, pin [, e] with operands of kind k.
func (l *lowerer) setp(op isa.Op, t isa.Type, k want, n int) error {
	if err := l.nops(n); err != nil {
		return err
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	q, err := l.predDst(l.op(1))
	if err != nil {
		return err
	}
	s, err := l.srcs(k, l.op(2), l.op(3))
	if err != nil {
		return err
	}
	out := []isa.Operand{p, q, s[0], s[1]}
	for i := 4; i < n; i++ {
		v, err := l.predSrc(l.op(i))
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	l.set(op, t, 2, out...)
	return nil
}

// lowerISetp: ISETP.cmp[.U32].bool[.EX] p, q, a, b, pin [, e].
func lowerISetp(l *lowerer) error {
	if err := l.compareMods("U32", "EX"); err != nil {
		return err
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	l.out.Class = isa.ClassALU
	if l.has("EX") {
		return l.setp(isa.OpISetpEx, t, wInt, 6)
	}
	return l.setp(isa.OpSetp, t, wInt, 5)
}

// lowerVIAdd: VIADD d, a, b (32-bit add; -b subtracts).
func lowerVIAdd(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(3); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(1), l.op(2))
	if err != nil {
		return err
	}
	l.set(isa.OpAdd, isa.U32, 1, d, s[0], s[1])
	l.out.Class = isa.ClassALU
	return nil
}

// constPred reads a predicate operand that must be PT or !PT (the min/max
// selector of VIMNMX, FMNMX, HMNMX2): true selects the minimum.
func (l *lowerer) constPred(o *Operand) (bool, error) {
	if !isPred(o) || !o.Reg.IsTrue() {
		return false, l.unsupported("a min/max selected by a predicate register (%s)", o.String())
	}
	return o.Mods&ModLNot == 0, nil
}

// lowerVIMnmx: VIMNMX[.U32] d, a, b, PT (min) or !PT (max).
func lowerVIMnmx(l *lowerer) error {
	if err := l.mods("U32"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	isMin, err := l.constPred(l.op(3))
	if err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(1), l.op(2))
	if err != nil {
		return err
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	op := isa.OpMax
	if isMin {
		op = isa.OpMin
	}
	l.set(op, t, 1, d, s[0], s[1])
	l.out.Class = isa.ClassALU
	return nil
}

// lowerVIAddMnmx: VIADDMNMX[.U32] d, a, b, c, pmin: min/max(a + b, c).
func lowerVIAddMnmx(l *lowerer) error {
	if err := l.mods("U32"); err != nil {
		return err
	}
	if err := l.nops(5); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(1), l.op(2), l.op(3))
	if err != nil {
		return err
	}
	p, err := l.predSrc(l.op(4))
	if err != nil {
		return err
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	l.set(isa.OpIAddMnmx, t, 1, d, s[0], s[1], s[2], p)
	l.out.Class = isa.ClassALU
	return nil
}
