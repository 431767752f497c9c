package warp

import "github.com/smsim/smsim/isa"

// setpForm reports whether in is setp into one predicate, of a plain
// register and a plain register or an immediate, of an integer type or
// f32, without a combining predicate or (SASS ISETP and
// FSETP) with PT: its second destination PT and its .AND with PT, which
// change nothing. These are compare's and floatCompare's forms that every
// loop's exit test takes.
func setpForm(in *isa.Instr) bool {
	t := in.Type
	if in.Op != isa.OpSetp || in.Ops[0].Kind != isa.KPred || in.Ops[0].Mod != 0 || t == isa.Pred || t.Bits() > 64 {
		return false
	}
	switch {
	case in.NDst == 1 && in.Bool == isa.BoolNone && len(in.Ops) == 3:
	case in.NDst == 2 && in.Bool == isa.BoolAnd && len(in.Ops) == 5 && in.Ops[1].Kind == isa.KSink &&
		in.Ops[4].Kind == isa.KImm && in.Ops[4].Imm != 0: // p, PT, a, b, PT
	default:
		return false
	}
	a, b := in.Ops[in.NDst], in.Ops[in.NDst+1]
	if a.Kind != isa.KReg || a.Mod != 0 {
		return false
	}
	if t.Float() && t != isa.F32 {
		return false
	}
	return b.Kind == isa.KImm || b.Kind == isa.KReg && b.Mod == 0
}

func setpKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[in.NDst].Reg}
	switch b := in.Ops[in.NDst+1]; {
	case in.Type == isa.F32 && b.Kind == isa.KImm: // staged once, as floatCompare stages it at every issue
		k.vec, k.run = immVec(b.Imm), kSetpF32Imm
	case in.Type == isa.F32:
		k.b, k.run = b.Reg, kSetpF32
	case b.Kind == isa.KImm && extOf(in.Type).shift != 0:
		// Narrower than 64 bits: the immediate in every lane, compared
		// as a register is (cmpShifted) without staging the extensions.
		k.vec, k.run = immVec(b.Imm), kSetpIntImmVec
	case b.Kind == isa.KImm:
		k.imm, k.run = b.Imm, kSetpIntImm
	default:
		k.b, k.run = b.Reg, kSetpInt
	}
	return k
}

func kSetpIntImm(w *Warp, k *Kernel, mask uint32) bool {
	w.SetPred(k.d, mask, cmpLanesImm(k.in.Cmp, &w.regs[k.a], k.imm, extOf(k.in.Type)))
	return true
}

func kSetpIntImmVec(w *Warp, k *Kernel, mask uint32) bool {
	w.SetPred(k.d, mask, cmpLanes(k.in.Cmp, &w.regs[k.a], k.vec, extOf(k.in.Type)))
	return true
}

func kSetpInt(w *Warp, k *Kernel, mask uint32) bool {
	w.SetPred(k.d, mask, cmpLanes(k.in.Cmp, &w.regs[k.a], &w.regs[k.b], extOf(k.in.Type)))
	return true
}

func kSetpF32(w *Warp, k *Kernel, mask uint32) bool {
	w.SetPred(k.d, mask, cmpF32Lanes(k.in.Cmp, &w.regs[k.a], &w.regs[k.b], k.in.Flags.Has(isa.FFtz)))
	return true
}

func kSetpF32Imm(w *Warp, k *Kernel, mask uint32) bool {
	w.SetPred(k.d, mask, cmpF32Lanes(k.in.Cmp, &w.regs[k.a], k.vec, k.in.Flags.Has(isa.FFtz)))
	return true
}
