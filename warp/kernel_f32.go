package warp

import "github.com/smsim/smsim/isa"

// f32MoreKernel returns the kernel of an f32 instruction of fastFloat's
// that f32ArithForm does not take, with plain registers for its
// destination (a general one) and sources: add, sub and mul rounded to
// nearest of a register and an immediate (f32Binary, the immediate staged
// once, as ExecALU stages it at every issue), min, max, abs and neg
// (f32Sign), rsqrt, ex2, lg2, sin, cos and tanh (f32Narrow), and cvt of
// floats (fastCvt's forms; the others it leaves to ExecALU at each issue).
func f32MoreKernel(in *isa.Instr, uniR int32) (Kernel, bool) {
	if k, ok := f32NegForm(in, uniR); ok {
		return k, true
	}
	if (in.Type != isa.F32 && in.Op != isa.OpCvt) || in.NDst != 1 || len(in.Ops) < 2 || !plainRegs(in.Ops[:2]) || in.Ops[0].Reg >= uniR {
		return Kernel{}, false
	}
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg}
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul:
		if len(in.Ops) != 3 || in.Ops[2].Kind != isa.KImm || !rnLike(in.Rnd) {
			return Kernel{}, false
		}
		k.vec, k.run = immVec(in.Ops[2].Imm), kF32BinaryImm
	case isa.OpMin, isa.OpMax:
		if len(in.Ops) != 3 || !plainRegs(in.Ops[2:]) {
			return Kernel{}, false
		}
		k.b, k.run = in.Ops[2].Reg, kF32Sign
	case isa.OpAbs, isa.OpNeg:
		if len(in.Ops) != 2 {
			return Kernel{}, false
		}
		k.b, k.run = in.Ops[1].Reg, kF32Sign
	case isa.OpCvt:
		if in.Mode != 0 || !(in.Type.Float() || in.Type2.Float()) {
			return Kernel{}, false
		}
		switch len(in.Ops) {
		case 2:
			k.run = kCvt
		case 3:
			if in.Type != isa.F16x2 || in.Type2 != isa.F32 || !rnLike(in.Rnd) || !plainRegs(in.Ops[2:]) {
				return Kernel{}, false
			}
			k.b, k.run = in.Ops[2].Reg, kCvtPack
		default:
			return Kernel{}, false
		}
	case isa.OpRsqrt, isa.OpEx2, isa.OpLg2, isa.OpSin, isa.OpCos, isa.OpTanh:
		if len(in.Ops) != 2 {
			return Kernel{}, false
		}
		k.run = kF32Narrow
	default:
		return Kernel{}, false
	}
	return k, true
}

func kF32BinaryImm(w *Warp, k *Kernel, mask uint32) bool {
	f32Binary(k.in, mask, &w.regs[k.a], k.vec, &w.regs[k.d])
	return true
}

func kF32Sign(w *Warp, k *Kernel, mask uint32) bool {
	f32SignOps(k.in, mask, &w.regs[k.a], &w.regs[k.b], &w.regs[k.d])
	return true
}

func kF32Narrow(w *Warp, k *Kernel, mask uint32) bool {
	w.f32NarrowOps(k.in, mask, &w.regs[k.a], &w.regs[k.d])
	return true
}

// kCvt is fastCvt's one-source forms; any other it leaves, unwritten, to
// ExecALU's exact path.
func kCvt(w *Warp, k *Kernel, mask uint32) bool {
	return fastCvtOps(k.in, mask, &w.regs[k.a], &w.regs[k.d])
}

// kCvtPack is fastPack, cvt.rn.f16x2.f32.
func kCvtPack(w *Warp, k *Kernel, mask uint32) bool {
	in := k.in
	f16PackLanes(&w.regs[k.d], &w.regs[k.a], &w.regs[k.b], mask, in.Flags.Has(isa.FFtz), in.Flags.Has(isa.FSat))
	return true
}

// immVec is an immediate operand in every lane, as ExecALU stages it.
func immVec(v uint64) *Vec {
	s := new(Vec)
	for l := range s {
		s[l] = v
	}
	return s
}

// f32NegForm returns the kernel of f32 add or sub, rounded to nearest, of
// two plain registers one of which is negated (SASS FADD d, -a, b): a sub or
// add of the two with the negated one second (f32Binary of an instruction
// of that op), since IEEE x + (-y) is x - y, add commutes, and the sign
// flip before .ftz's flush is the flip after it.
func f32NegForm(in *isa.Instr, uniR int32) (Kernel, bool) {
	if (in.Op != isa.OpAdd && in.Op != isa.OpSub) || in.Type != isa.F32 || !rnLike(in.Rnd) || in.NDst != 1 ||
		len(in.Ops) != 3 || !plainRegs(in.Ops[:1]) || in.Ops[0].Reg >= uniR {
		return Kernel{}, false
	}
	a, b := in.Ops[1], in.Ops[2]
	if a.Kind != isa.KReg || b.Kind != isa.KReg || (a.Mod != isa.MFNeg) == (b.Mod != isa.MFNeg) ||
		(a.Mod != 0 && a.Mod != isa.MFNeg) || (b.Mod != 0 && b.Mod != isa.MFNeg) {
		return Kernel{}, false // not exactly one operand negated
	}
	eq := *in
	switch {
	case a.Mod == 0 && in.Op == isa.OpAdd: // a + -b = a - b
		eq.Op = isa.OpSub
	case a.Mod == 0: // a - -b = a + b
		eq.Op = isa.OpAdd
	case in.Op == isa.OpAdd: // -a + b = b - a
		eq.Op, a, b = isa.OpSub, b, a
	default: // -a - b: not a sum of the two without a negation
		return Kernel{}, false
	}
	return Kernel{in: &eq, d: in.Ops[0].Reg, a: a.Reg, b: b.Reg, run: kF32Binary}, true
}
