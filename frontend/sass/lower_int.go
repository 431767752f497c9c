package sass

import (
	"github.com/smsim/smsim/isa"
)

// Integer, logic and move instructions. Each lowering names the SASS forms
// it takes; operand order follows the listing unless said otherwise.

// lowerIAdd3: IADD3[.X] d, [co0, [co1,]] a, b, c [, ci0, ci1].
func lowerIAdd3(l *lowerer) error {
	if err := l.mods("X", "64"); err != nil {
		return err
	}
	if l.has("64") { // UIADD3.64: a 64-bit add of uniform pairs
		return lowerIAdd3x64(l)
	}
	ops := l.in.Operands
	n := len(ops)
	x := l.has("X")
	nsrc := 3
	if x {
		nsrc = 5
	}
	if n < nsrc+1 || n > nsrc+3 {
		return l.bad("%d operands", n)
	}
	d, err := l.dst(&ops[0], false)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	for i := 1; i < n-nsrc; i++ {
		p, err := l.predDst(&ops[i])
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	nd := len(out)
	for i := n - nsrc; i < n-nsrc+3; i++ {
		v, err := l.src(&ops[i], wInt)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	if x {
		for i := n - 2; i < n; i++ {
			p, err := l.predSrc(&ops[i])
			if err != nil {
				return err
			}
			out = append(out, p)
		}
		l.out.Flags |= isa.FCarryIn
	}
	l.set(isa.OpIAdd3, isa.B32, nd, out...)
	l.out.Class = isa.ClassALU
	return nil
}

// lowerIAdd3x64 is UIADD3.64 d, a, b, c: a 64-bit three-input add of pairs
// (no carries), an isa add of three pair operands.
func lowerIAdd3x64(l *lowerer) error {
	if err := l.nops(4); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), true)
	if err != nil {
		return err
	}
	s, err := l.srcs(wPair, l.op(1), l.op(2), l.op(3))
	if err != nil {
		return err
	}
	l.set(isa.OpAdd, isa.U64, 1, d, s[0], s[1], s[2])
	l.out.Class = isa.ClassALU
	return nil
}

// lowerIMad: IMAD[.MOV|.SHL|.IADD|.U32|.HI|.WIDE|.X] d, [co,] a, b, c [, ci].
// .MOV, .SHL and .IADD only say which form the assembler chose; they
// compute a*b + c.
func lowerIMad(l *lowerer) error {
	if err := l.mods("MOV", "SHL", "IADD", "U32", "HI", "WIDE", "X"); err != nil {
		return err
	}
	ops := l.in.Operands
	n := len(ops)
	x := l.has("X")
	nsrc := 3
	if x {
		nsrc = 4
	}
	if n != nsrc+1 && n != nsrc+2 {
		return l.bad("%d operands", n)
	}
	mode := uint8(isa.IMadLo)
	switch {
	case l.has("HI"):
		mode = isa.IMadHi
	case l.has("WIDE"):
		mode = isa.IMadWide
	}
	d, err := l.dst(&ops[0], mode == isa.IMadWide)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if n == nsrc+2 {
		p, err := l.predDst(&ops[1])
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	nd := len(out)
	k := n - nsrc
	s, err := l.srcs(wInt, &ops[k], &ops[k+1])
	if err != nil {
		return err
	}
	ck := wInt
	if mode != isa.IMadLo {
		ck = wPair
	}
	c, err := l.src(&ops[k+2], ck)
	if err != nil {
		return err
	}
	out = append(out, s[0], s[1], c)
	if x {
		p, err := l.predSrc(&ops[n-1])
		if err != nil {
			return err
		}
		out = append(out, p)
		l.out.Flags |= isa.FCarryIn
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	l.set(isa.OpIMad, t, nd, out...)
	l.out.Mode = mode
	l.out.Class = isa.ClassIMAD // .MOV, .SHL and .IADD too: ptxas puts them on the FMA-heavy pipe to balance the pipes
	return nil
}

// lowerLea: LEA[.HI][.X][.SX32] d, [co,] a, b, [c,] s [, ci].
func lowerLea(l *lowerer) error {
	if err := l.mods("HI", "X", "SX32"); err != nil {
		return err
	}
	ops := l.in.Operands
	n := len(ops)
	hi, x, sx := l.has("HI"), l.has("X"), l.has("SX32")
	if sx && !hi {
		return l.unsupported("LEA.SX32 without .HI")
	}
	nsrc := 3 // a, b, s
	if hi && !sx {
		nsrc++ // c
	}
	if x {
		nsrc++ // ci
	}
	if n != nsrc+1 && n != nsrc+2 {
		return l.bad("%d operands", n)
	}
	d, err := l.dst(&ops[0], false)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if n == nsrc+2 {
		p, err := l.predDst(&ops[1])
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	nd := len(out)
	last := n
	if x {
		last--
	}
	for i := n - nsrc; i < last; i++ {
		v, err := l.src(&ops[i], wInt)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	if x {
		p, err := l.predSrc(&ops[n-1])
		if err != nil {
			return err
		}
		out = append(out, p)
		l.out.Flags |= isa.FCarryIn
	}
	l.set(isa.OpLea, isa.B32, nd, out...)
	if hi {
		l.out.Mode |= isa.LeaHi
	}
	if sx {
		l.out.Mode |= isa.LeaSX32
	}
	l.out.Class = isa.ClassALU
	return nil
}

// lowerLop3: LOP3.LUT [p,] d, a, b, c, lut, pin.
func lowerLop3(l *lowerer) error {
	if err := l.mods("LUT"); err != nil {
		return err
	}
	ops := l.in.Operands
	if len(ops) != 6 && len(ops) != 7 {
		return l.bad("%d operands", len(ops))
	}
	var p isa.Operand
	k := 0
	if len(ops) == 7 {
		var err error
		if p, err = l.predDst(&ops[0]); err != nil {
			return err
		}
		k = 1
	}
	d, err := l.dst(&ops[k], false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, &ops[k+1], &ops[k+2], &ops[k+3])
	if err != nil {
		return err
	}
	if ops[k+4].Kind != KindInt {
		return l.bad("the truth table must be an immediate")
	}
	pin, err := l.predSrc(&ops[k+5])
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if k == 1 {
		out = append(out, p)
	}
	out = append(out, s[0], s[1], s[2], isa.Imm(uint64(ops[k+4].Int)&0xff), pin)
	l.set(isa.OpSLop3, isa.B32, 1+k, out...)
	l.out.Class = isa.ClassALU
	return nil
}

// lowerPLop3: PLOP3.LUT p, q, a, b, c, lut1, lut2.
func lowerPLop3(l *lowerer) error {
	if err := l.mods("LUT"); err != nil {
		return err
	}
	if err := l.nops(7); err != nil {
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
	out := []isa.Operand{p, q}
	for i := 2; i < 5; i++ {
		v, err := l.predSrc(l.op(i))
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	if l.op(5).Kind != KindInt || l.op(6).Kind != KindInt {
		return l.bad("the truth tables must be immediates")
	}
	out = append(out, isa.Imm(uint64(l.op(5).Int)&0xff), isa.Imm(uint64(l.op(6).Int)&0xff))
	l.set(isa.OpPLop3, isa.Pred, 2, out...)
	l.out.Class = isa.ClassALU
	return nil
}

// lowerShf: SHF.{L|R}[.W].{U32|S32|U64|S64}[.HI] d, a, s, b.
func lowerShf(l *lowerer) error {
	if err := l.mods("L", "R", "W", "U32", "S32", "U64", "S64", "HI"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	var mode uint8
	switch {
	case l.has("L"):
		mode |= isa.ShfLeft
	case !l.has("R"):
		return l.unsupported("a funnel shift without .L or .R")
	}
	if l.has("HI") {
		mode |= isa.ShfHi
	}
	if l.has("W") {
		mode |= isa.ShfWrap
	}
	if l.has("U64") || l.has("S64") {
		mode |= isa.Shf64
	}
	if l.has("S32") || l.has("S64") {
		mode |= isa.ShfSigned
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(1), l.op(2), l.op(3))
	if err != nil {
		return err
	}
	l.set(isa.OpSShf, isa.B32, 1, d, s[0], s[1], s[2])
	l.out.Mode = mode
	l.out.Class = isa.ClassALU
	return nil
}

// lowerPrmt: PRMT d, a, sel, b is PTX prmt.b32 d, a, b, sel.
func lowerPrmt(l *lowerer) error {
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
	s, err := l.srcs(wInt, l.op(1), l.op(2), l.op(3))
	if err != nil {
		return err
	}
	l.set(isa.OpPrmt, isa.B32, 1, d, s[0], s[2], s[1])
	l.out.Class = isa.ClassALU
	return nil
}

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

// unary lowers d, a to op with type t.
func (l *lowerer) unary(op isa.Op, t isa.Type, k want) error {
	if err := l.nops(2); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	a, err := l.src(l.op(1), k)
	if err != nil {
		return err
	}
	l.set(op, t, 1, d, a)
	return nil
}

// lowerIAbs: IABS d, a.
func lowerIAbs(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	l.out.Class = isa.ClassALU
	return l.unary(isa.OpAbs, isa.S32, wInt)
}

// lowerFlo: FLO.U32 / FLO.S32 [.SH] d, a: the most significant non-sign bit
// (PTX bfind; .SH its shift amount).
func lowerFlo(l *lowerer) error {
	if err := l.mods("U32", "S32", "SH"); err != nil {
		return err
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	if l.has("SH") {
		l.out.Flags |= isa.FShiftAmt
	}
	if err := l.unary(isa.OpBfind, t, wInt); err != nil {
		return err
	}
	l.out.Class = isa.ClassSFU
	return nil
}

// lowerUnaryBits: POPC d, a and BREV d, a.
func lowerUnaryBits(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	op := isa.OpPopc
	if l.in.Op == "BREV" || l.in.Op == "UBREV" {
		op = isa.OpBrev
	}
	if err := l.unary(op, isa.B32, wInt); err != nil {
		return err
	}
	l.out.Class = isa.ClassSFU
	return nil
}

// binary lowers d, a, b.
func (l *lowerer) binary(op isa.Op, t isa.Type) error {
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
	l.set(op, t, 1, d, s[0], s[1])
	l.out.Class = isa.ClassALU
	return nil
}

// lowerBmsk: BMSK d, a, b (PTX bmsk.clamp).
func lowerBmsk(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	return l.binary(isa.OpBmsk, isa.B32)
}

// lowerSgxt: SGXT[.U32] d, a, b (PTX szext.clamp).
func lowerSgxt(l *lowerer) error {
	if err := l.mods("U32"); err != nil {
		return err
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	return l.binary(isa.OpSgxt, t)
}

// lowerIdp: IDP.4A.{S8,U8}.{S8,U8} and IDP.2A.{LO,HI}.{S16,U16}.{S8,U8} d, a, b, c.
func lowerIdp(l *lowerer) error {
	if err := l.mods("4A", "2A", "LO", "HI", "S8", "U8", "S16", "U16"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	var ts []isa.Type
	for _, m := range l.in.Mods {
		switch m {
		case "S8", "S16":
			ts = append(ts, isa.S32)
		case "U8", "U16":
			ts = append(ts, isa.U32)
		}
	}
	if len(ts) != 2 {
		return l.unsupported("IDP needs the types of both sources")
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(1), l.op(2), l.op(3))
	if err != nil {
		return err
	}
	op := isa.OpDp4a
	if l.has("2A") {
		op = isa.OpDp2a
		if l.has("HI") {
			l.out.Flags |= isa.FHi
		} else {
			l.out.Flags |= isa.FLo
		}
	}
	l.set(op, ts[0], 1, d, s[0], s[1], s[2])
	l.out.Type2 = ts[1]
	l.out.Class = isa.ClassIMAD
	return nil
}

// lowerVAbsDiff: VABSDIFF[.U32] d, a, b, c: |a - b| + c (PTX sad);
// VABSDIFF4.U8 d, a, b, c: the sum of the bytes' absolute differences plus
// c (PTX vabsdiff4.add).
func lowerVAbsDiff(l *lowerer) error {
	if err := l.mods("U32", "S32", "U8"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
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
	if l.in.Op == "VABSDIFF4" {
		if !l.has("U8") {
			return l.unsupported("VABSDIFF4 without .U8")
		}
		l.set(isa.OpVAbsDiff4, isa.B32, 1, d, s[0], s[1], s[2])
		l.out.Class = isa.ClassALU
		return nil
	}
	t := isa.S32
	if l.has("U32") {
		t = isa.U32
	}
	l.set(isa.OpSad, t, 1, d, s[0], s[1], s[2])
	l.out.Class = isa.ClassALU
	return nil
}

// lowerP2R: P2R d, PR, b, mask.
func lowerP2R(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	if l.op(1).Kind != KindSpecial || l.op(1).Name != "PR" {
		return l.unsupported("P2R of %s", l.op(1).String())
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	s, err := l.srcs(wInt, l.op(2), l.op(3))
	if err != nil {
		return err
	}
	if s[1].Kind != isa.KImm {
		return l.unsupported("P2R with a register mask")
	}
	l.set(isa.OpP2R, isa.B32, 1, d, s[0], s[1])
	l.out.Class = isa.ClassALU
	return nil
}

// lowerMov: MOV / UMOV d, a.
func lowerMov(l *lowerer) error {
	if err := l.mods(); err != nil && !(len(l.in.Mods) == 1 && l.in.Mods[0] == "64") {
		return err
	}
	pair := l.has("64")
	if err := l.nops(2, 3); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), pair)
	if err != nil {
		return err
	}
	k := wInt
	if pair {
		k = wPair
	}
	a, err := l.src(l.op(1), k)
	if err != nil {
		return err
	}
	t := isa.B32
	if pair {
		t = isa.B64
	}
	l.set(isa.OpMov, t, 1, d, a)
	l.out.Class = isa.ClassALU
	return nil
}

// lowerLdc: LDC / ULDC[.64|.U8|.S8|.U16|.S16] d, c[bank][R+off].
func lowerLdc(l *lowerer) error {
	if err := l.mods("64", "U8", "S8", "U16", "S16"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	if l.op(1).Kind != KindConst {
		return l.bad("want a constant-bank operand")
	}
	pair := l.has("64")
	d, err := l.dst(l.op(0), pair)
	if err != nil {
		return err
	}
	k := wInt
	if pair {
		k = wPair
	}
	a, err := l.src(l.op(1), k)
	if err != nil {
		return err
	}
	t := isa.B32
	switch {
	case pair:
		t = isa.B64
	case l.has("U8"):
		t = isa.U8
	case l.has("U16"):
		t = isa.U16
	case l.has("S8"), l.has("S16"):
		return l.unsupported("a sign-extending constant load")
	}
	l.set(isa.OpMov, t, 1, d, a)
	l.out.Class = isa.ClassConst
	return nil
}

// specials maps SASS special registers to isa ones.
func specialOf(name string) (isa.Operand, bool) {
	switch name {
	case "SR_TID.X":
		return isa.Spec(isa.STidX), true
	case "SR_TID.Y":
		return isa.Spec(isa.STidY), true
	case "SR_TID.Z":
		return isa.Spec(isa.STidZ), true
	case "SR_CTAID.X":
		return isa.Spec(isa.SCtaidX), true
	case "SR_CTAID.Y":
		return isa.Spec(isa.SCtaidY), true
	case "SR_CTAID.Z":
		return isa.Spec(isa.SCtaidZ), true
	case "SR_LANEID":
		return isa.Spec(isa.SLaneID), true
	case "SR_WARPID", "SR_VIRTID":
		return isa.Spec(isa.SWarpID), true
	case "SR_SMID", "SR_VIRTUALSMID":
		return isa.Spec(isa.SSMID), true
	case "SR_EQMASK":
		return isa.Spec(isa.SLaneMaskEq), true
	case "SR_LEMASK":
		return isa.Spec(isa.SLaneMaskLe), true
	case "SR_LTMASK":
		return isa.Spec(isa.SLaneMaskLt), true
	case "SR_GEMASK":
		return isa.Spec(isa.SLaneMaskGe), true
	case "SR_GTMASK":
		return isa.Spec(isa.SLaneMaskGt), true
	case "SR_CLOCKLO":
		return isa.Spec(isa.SClock), true
	case "SR_CLOCKHI":
		return isa.Spec(isa.SClockHi), true
	case "SR_GLOBALTIMERLO":
		return isa.Spec(isa.SGlobalTimerLo), true
	case "SR_GLOBALTIMERHI":
		return isa.Spec(isa.SGlobalTimerHi), true
	case "SR_CgaCtaId":
		// The CTA's rank in its cluster: smsim's clusters hold one CTA.
		return isa.Spec(isa.SClusterCtaRank), true
	case "SR_SWINHI":
		// The high word of the generic address of the CTA's shared memory.
		return isa.Imm(isa.SharedWindow >> 32), true
	case "SRZ":
		return isa.Imm(0), true
	}
	return isa.Operand{}, false
}

// lowerS2R: S2R / S2UR d, SR_*.
func lowerS2R(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), false)
	if err != nil {
		return err
	}
	o := l.op(1)
	if o.Kind != KindSpecial {
		return l.bad("want a special register")
	}
	a, ok := specialOf(o.Name)
	if !ok {
		return l.unsupported("special register %s", o.Name)
	}
	l.set(isa.OpMov, isa.U32, 1, d, a)
	l.out.Class = isa.ClassSpecial
	return nil
}

// lowerCS2R: CS2R[.32] d, SR_CLOCKLO | SR_GLOBALTIMERLO | SRZ: the 64-bit
// register into a pair (.32: its low word).
func lowerCS2R(l *lowerer) error {
	if err := l.mods("32"); err != nil {
		return err
	}
	if err := l.nops(2); err != nil {
		return err
	}
	o := l.op(1)
	narrow := l.has("32")
	var a isa.Operand
	switch {
	case o.Kind == KindSpecial && o.Name == "SRZ":
		a = isa.Imm(0)
	case o.Kind == KindSpecial && o.Name == "SR_CLOCKLO":
		a = isa.Spec(isa.SClock64)
		if narrow {
			a = isa.Spec(isa.SClock)
		}
	case o.Kind == KindSpecial && o.Name == "SR_GLOBALTIMERLO":
		a = isa.Spec(isa.SGlobalTimer)
		if narrow {
			a = isa.Spec(isa.SGlobalTimerLo)
		}
	default:
		return l.unsupported("CS2R of %s", o.String())
	}
	d, err := l.dst(l.op(0), !narrow)
	if err != nil {
		return err
	}
	t := isa.B64
	if narrow {
		t = isa.B32
	}
	l.set(isa.OpMov, t, 1, d, a)
	l.out.Class = isa.ClassSpecial
	return nil
}

// lowerR2UR: R2UR[.OR] [p,] d, a.
func lowerR2UR(l *lowerer) error {
	if err := l.mods("OR"); err != nil {
		return err
	}
	if err := l.nops(2, 3); err != nil {
		return err
	}
	k := len(l.in.Operands) - 2
	d, err := l.dst(l.op(k), false)
	if err != nil {
		return err
	}
	a, err := l.src(l.op(k+1), wInt)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	if k == 1 {
		p, err := l.predDst(l.op(0))
		if err != nil {
			return err
		}
		out = append(out, p)
	}
	out = append(out, a)
	l.set(isa.OpR2UR, isa.B32, len(out)-1, out...)
	if l.has("OR") {
		l.out.Mode = 1
	}
	l.out.Class = isa.ClassALU
	return nil
}
