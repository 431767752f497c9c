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
