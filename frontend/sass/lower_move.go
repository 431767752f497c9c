package sass

import "github.com/smsim/smsim/isa"

// Moves, constant-bank and special-register reads, and the one- and
// two-source bit operations.

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
