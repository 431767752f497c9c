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
	if (in.Type != isa.F32 && in.Op != isa.OpCvt) || in.NDst != 1 || len(in.Ops) < 2 || !plainRegs(in.Ops[:2]) || in.Ops[0].Reg >= uniR {
		return Kernel{}, false
	}
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg}
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul:
		if len(in.Ops) != 3 || in.Ops[2].Kind != isa.KImm || !rnLike(in.Rnd) {
			return Kernel{}, false
		}
		k.vec = new(Vec)
		for l := range k.vec {
			k.vec[l] = in.Ops[2].Imm
		}
		k.run = kF32BinaryImm
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
