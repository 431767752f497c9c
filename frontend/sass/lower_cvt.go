package sass

import "github.com/smsim/smsim/isa"

// Conversions and packed halves.

// lowerHSetp: HSETP2.cmp[.BF16_V2].bool p, q, a, b, pin: p from the low
// halves, q from the high halves.
func lowerHSetp(l *lowerer) error {
	if err := l.compareMods("BF16_V2", "FTZ"); err != nil {
		return err
	}
	t, k := isa.F16x2, wH2
	if l.has("BF16_V2") {
		t, k = isa.BF16x2, wBF2
	}
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	l.out.Class = isa.ClassHalf2
	return l.setp(isa.OpSetp, t, k, 5)
}

// lowerFrnd: FRND[.FTZ][.CEIL|.FLOOR|.TRUNC] d, a: cvt.rni/rpi/rmi/rzi.f32.f32.
func lowerFrnd(l *lowerer) error {
	if err := l.mods("FTZ", "CEIL", "FLOOR", "TRUNC"); err != nil {
		return err
	}
	if err := l.unary(isa.OpCvt, isa.F32, wF32); err != nil {
		return err
	}
	l.out.Type2 = isa.F32
	l.out.Rnd = intRounding(l)
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	l.out.Class = isa.ClassSFU
	return nil
}

// intRounding reads an integer rounding (TRUNC, FLOOR, CEIL; else nearest).
func intRounding(l *lowerer) isa.Rounding {
	switch {
	case l.has("TRUNC"):
		return isa.RZI
	case l.has("FLOOR"):
		return isa.RMI
	case l.has("CEIL"):
		return isa.RPI
	}
	return isa.RNI
}

// typeMods collects the type modifiers of a conversion in order.
func (l *lowerer) typeMods() []isa.Type {
	var ts []isa.Type
	for _, m := range l.in.Mods {
		switch m {
		case "U8":
			ts = append(ts, isa.U8)
		case "S8":
			ts = append(ts, isa.S8)
		case "U16":
			ts = append(ts, isa.U16)
		case "S16":
			ts = append(ts, isa.S16)
		case "U32":
			ts = append(ts, isa.U32)
		case "S32":
			ts = append(ts, isa.S32)
		case "U64":
			ts = append(ts, isa.U64)
		case "S64":
			ts = append(ts, isa.S64)
		case "F16":
			ts = append(ts, isa.F16)
		case "BF16":
			ts = append(ts, isa.BF16)
		case "F32":
			ts = append(ts, isa.F32)
		case "F64":
			ts = append(ts, isa.F64)
		}
	}
	return ts
}

// convTypes decides a conversion's destination and source types from its
// type modifiers (destination first), defaults filling what is not given:
// a lone float type of an F2I is its source, a lone integer type its
// destination, and so on.
func (l *lowerer) convTypes(defDst, defSrc isa.Type) (dst, src isa.Type, err error) {
	ts := l.typeMods()
	dst, src = defDst, defSrc
	switch len(ts) {
	case 0:
	case 1:
		if ts[0].Float() == defDst.Float() {
			dst = ts[0]
		} else {
			src = ts[0]
		}
	case 2:
		dst, src = ts[0], ts[1]
	default:
		return 0, 0, l.unsupported("a conversion with %d types", len(ts))
	}
	return dst, src, nil
}

// conv lowers d, a of a conversion from src to dst.
func (l *lowerer) conv(dst, src isa.Type) error {
	if err := l.nops(2); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), dst.Bits() == 64)
	if err != nil {
		return err
	}
	k := wInt
	switch {
	case src == isa.F64:
		k = wF64
	case src == isa.F32:
		k = wF32
	case src == isa.F16 || src == isa.BF16:
		k = wHalf
	case src.Bits() == 64:
		k = wPair
	}
	a, err := l.src(l.op(1), k)
	if err != nil {
		return err
	}
	l.set(isa.OpCvt, dst, 1, d, a)
	l.out.Type2 = src
	return nil
}

// lowerF2I: F2I[.FTZ][.dst][.src][.TRUNC|.FLOOR|.CEIL][.NTZ] d, a.
func lowerF2I(l *lowerer) error {
	if err := l.mods("FTZ", "NTZ", "TRUNC", "FLOOR", "CEIL", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64",
		"F16", "F32", "F64"); err != nil {
		return err
	}
	dst, src, err := l.convTypes(isa.S32, isa.F32)
	if err != nil {
		return err
	}
	if err := l.conv(dst, src); err != nil {
		return err
	}
	l.out.Rnd = intRounding(l)
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	l.out.Class = isa.ClassSFU
	return nil
}

// lowerI2F: I2F[.dst][.src][.RN|RZ|RM|RP] d, a.
func lowerI2F(l *lowerer) error {
	if err := l.mods("RN", "RZ", "RM", "RP", "U8", "S8", "U16", "S16", "U32", "S32", "U64", "S64", "F16", "F32", "F64"); err != nil {
		return err
	}
	dst, src, err := l.convTypes(isa.F32, isa.S32)
	if err != nil {
		return err
	}
	if err := l.conv(dst, src); err != nil {
		return err
	}
	l.rounding()
	l.out.Class = isa.ClassSFU
	return nil
}

// lowerI2FP: I2FP.F32.{S32,U32}[.RZ...] d, a.
func lowerI2FP(l *lowerer) error {
	if err := l.mods("F32", "S32", "U32", "RN", "RZ", "RM", "RP"); err != nil {
		return err
	}
	dst, src, err := l.convTypes(isa.F32, isa.S32)
	if err != nil {
		return err
	}
	if err := l.conv(dst, src); err != nil {
		return err
	}
	l.rounding()
	l.out.Class = isa.ClassALU
	return nil
}

// lowerF2F: F2F[.FTZ].dst.src[.RN|RZ|RM|RP] d, a.
func lowerF2F(l *lowerer) error {
	if err := l.mods("FTZ", "RN", "RZ", "RM", "RP", "F16", "BF16", "F32", "F64"); err != nil {
		return err
	}
	ts := l.typeMods()
	if len(ts) != 2 {
		return l.unsupported("F2F needs a destination and a source type")
	}
	if err := l.conv(ts[0], ts[1]); err != nil {
		return err
	}
	l.rounding()
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	l.out.Class = isa.ClassSFU
	if ts[0] != isa.F64 && ts[1] != isa.F64 {
		l.out.Class = isa.ClassCvtFloat
	}
	return nil
}

// lowerF2FP: F2FP.{F16,BF16}.F32.PACK_AB[.RZ...] d, a, b (a to the high
// half, b to the low, as PTX cvt.rn.f16x2.f32 d, a, b);
// F2FP.F16.E4M3.UNPACK_B d, a (an e4m3 pair to f16x2);
// F2FP.SATFINITE.E4M3.F32.PACK_AB_MERGE_C d, a, b, RZ (two f32 to an e4m3 pair).
func lowerF2FP(l *lowerer) error {
	if err := l.mods("F16", "BF16", "F32", "PACK_AB", "RN", "RZ", "RM", "RP", "E4M3", "E5M2", "UNPACK_B",
		"SATFINITE", "PACK_AB_MERGE_C", "RELU"); err != nil {
		return err
	}
	fp8 := uint8(0)
	switch {
	case l.has("E4M3"):
		fp8 = 1 // warp.Cvt8E4M3
	case l.has("E5M2"):
		fp8 = 2 // warp.Cvt8E5M2
	}
	if l.has("RELU") {
		fp8 |= 4 // warp.Cvt8Relu
	}
	switch {
	case l.has("UNPACK_B") && fp8 != 0:
		if err := l.nops(2); err != nil {
			return err
		}
		d, err := l.dst(l.op(0), false)
		if err != nil {
			return err
		}
		a, err := l.src(l.op(1), wInt)
		if err != nil {
			return err
		}
		l.set(isa.OpCvt, isa.F16x2, 1, d, a)
		l.out.Type2, l.out.Mode, l.out.Rnd = isa.B16, fp8, isa.RN
	case l.has("PACK_AB_MERGE_C") && fp8 != 0:
		if err := l.nops(4); err != nil {
			return err
		}
		if o := l.op(3); !(o.Kind == KindReg && o.Reg.IsZero()) {
			return l.unsupported("PACK_AB_MERGE_C into a register other than RZ")
		}
		d, err := l.dst(l.op(0), false)
		if err != nil {
			return err
		}
		s, err := l.srcs(wF32, l.op(1), l.op(2))
		if err != nil {
			return err
		}
		l.set(isa.OpCvt, isa.B16, 1, d, s[0], s[1])
		l.out.Type2, l.out.Mode, l.out.Rnd, l.out.Flags = isa.F32, fp8, isa.RN, isa.FSat
	case l.has("PACK_AB") && fp8 == 0:
		if err := l.nops(3); err != nil {
			return err
		}
		t := isa.F16x2
		if l.has("BF16") {
			t = isa.BF16x2
		}
		d, err := l.dst(l.op(0), false)
		if err != nil {
			return err
		}
		s, err := l.srcs(wF32, l.op(1), l.op(2))
		if err != nil {
			return err
		}
		l.set(isa.OpCvt, t, 1, d, s[0], s[1])
		l.out.Type2, l.out.Rnd = isa.F32, isa.RN
		l.rounding()
		if l.has("SATFINITE") {
			return l.unsupported(".SATFINITE of a half pack")
		}
	default:
		return l.unsupported("this F2FP form")
	}
	l.out.Class = isa.ClassCvtFloat
	return nil
}

// lowerHArith: HADD2 / HMUL2 / HFMA2[.MMA][.BF16_V2][.FTZ][.SAT] on packed
// halves; HADD2.F32 d, a, b adds two halves into an f32 (with -RZ: the
// f16 to f32 conversion). A pair of float literals is one packed
// immediate, the first the high half.
func lowerHArith(l *lowerer) error {
	if err := l.mods("MMA", "BF16_V2", "F32", "FTZ", "SAT", "RN"); err != nil {
		return err
	}
	ops := l.in.Operands
	if l.has("F32") {
		if l.in.Op != "HADD2" || len(ops) != 3 {
			return l.unsupported("this .F32 form")
		}
		d, err := l.dst(&ops[0], false)
		if err != nil {
			return err
		}
		s, err := l.srcs(wH2, &ops[1], &ops[2])
		if err != nil {
			return err
		}
		l.set(isa.OpSHAdd2F32, isa.F32, 1, d, s[0], s[1])
		l.out.Class = isa.ClassCvtFloat
		return nil
	}
	t, k := isa.F16x2, wH2
	if l.has("BF16_V2") {
		t, k = isa.BF16x2, wBF2
	}
	op, n := isa.OpAdd, 2
	switch l.in.Op {
	case "HMUL2":
		op = isa.OpMul
	case "HFMA2":
		op, n = isa.OpFma, 3
	}
	d, err := l.dst(&ops[0], false)
	if err != nil {
		return err
	}
	srcs, err := l.halfSrcs(ops[1:], k)
	if err != nil {
		return err
	}
	out := append([]isa.Operand{d}, srcs...)
	if len(out) != n+1 {
		return l.bad("%d operands", len(ops))
	}
	l.set(op, t, 1, out...)
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	if l.has("SAT") {
		l.out.Flags |= isa.FSat
	}
	l.out.Class = isa.ClassHalf2
	if l.has("MMA") {
		l.out.Class = isa.ClassHalf2MMA
	}
	return nil
}

// halfSrcs converts the sources of a packed-half instruction: a pair of
// float literals is one packed immediate, the first the high half.
func (l *lowerer) halfSrcs(ops []Operand, k want) ([]isa.Operand, error) {
	var out []isa.Operand
	for i := 0; i < len(ops); i++ {
		o := &ops[i]
		if o.Kind == KindFloat && i+1 < len(ops) && ops[i+1].Kind == KindFloat {
			hi, err := l.floatImm(o, wHalf)
			if err != nil {
				return nil, err
			}
			lo, err := l.floatImm(&ops[i+1], wHalf)
			if err != nil {
				return nil, err
			}
			out = append(out, isa.Imm(hi.Imm<<16|lo.Imm))
			i++
			continue
		}
		v, err := l.src(o, k)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

// lowerHMnmx: HMNMX2[.BF16_V2] d, a, b, PT (min) or !PT (max).
func lowerHMnmx(l *lowerer) error {
	if err := l.mods("BF16_V2", "NAN", "FTZ"); err != nil {
		return err
	}
	ops := l.in.Operands
	if len(ops) < 4 {
		return l.bad("%d operands", len(ops))
	}
	isMin, err := l.constPred(&ops[len(ops)-1])
	if err != nil {
		return err
	}
	op := isa.OpMax
	if isMin {
		op = isa.OpMin
	}
	t, k := isa.F16x2, wH2
	if l.has("BF16_V2") {
		t, k = isa.BF16x2, wBF2
	}
	d, err := l.dst(&ops[0], false)
	if err != nil {
		return err
	}
	srcs, err := l.halfSrcs(ops[1:len(ops)-1], k)
	if err != nil {
		return err
	}
	if len(srcs) != 2 {
		return l.bad("%d operands", len(ops))
	}
	l.set(op, t, 1, d, srcs[0], srcs[1])
	if l.has("NAN") {
		l.out.Flags |= isa.FNaN
	}
	l.out.Class = isa.ClassHalf2
	return nil
}
