package warp

import "github.com/smsim/smsim/isa"

// The integer forms of two registers and mul.wide, which the PTX of
// address arithmetic is made of (ReducePlain's loop: mul.wide.s32 of the
// index by the element size, add.s64 of the base): ExecALU's binary and
// mulAdd for a full warp, written into the destination register.

// intRegForm reports whether in is integer add, sub, and, or or xor of two
// plain registers into a general register, without carries or saturation.
func intRegForm(in *isa.Instr, uniR int32) bool {
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor:
	default:
		return false
	}
	t := in.Type
	return in.NDst == 1 && len(in.Ops) == 3 && !t.Float() && t != isa.Pred &&
		in.Flags&(isa.FCarryIn|isa.FCC|isa.FSat|isa.FHi|isa.FWide) == 0 &&
		plainRegs(in.Ops) && in.Ops[0].Reg < uniR
}

// plainRegs reports whether every operand is a register without a modifier.
func plainRegs(ops []isa.Operand) bool {
	for _, o := range ops {
		if o.Kind != isa.KReg || o.Mod != 0 {
			return false
		}
	}
	return true
}

func intRegKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, b: in.Ops[2].Reg, width: widthMask(in.Type)}
	switch in.Op {
	case isa.OpAdd:
		k.run = kAddReg
	case isa.OpSub:
		k.run = kSubReg
	case isa.OpAnd:
		k.run = kAndReg
	case isa.OpOr:
		k.run = kOrReg
	default:
		k.run = kXorReg
	}
	return k
}

// Each lane reads its sources before it writes its destination, so the
// destination may be a source.

func kAddReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	r := &w.regs[k.d]
	addV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kSubReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	r := &w.regs[k.d]
	subV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kAndReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	r := &w.regs[k.d]
	andV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kOrReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	r := &w.regs[k.d]
	orV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kXorReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	r := &w.regs[k.d]
	xorV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

// mulWideForm reports whether in is mul.wide.s32 or mul.wide.u32 of a
// plain register and a plain register or an immediate into a general
// register: the 64-bit product of the extended low words.
func mulWideForm(in *isa.Instr, uniR int32) bool {
	if in.Op != isa.OpMul || in.Flags&^isa.FWide != 0 || !in.Flags.Has(isa.FWide) ||
		(in.Type != isa.S32 && in.Type != isa.U32) || in.NDst != 1 || len(in.Ops) != 3 {
		return false
	}
	if !plainRegs(in.Ops[:2]) || in.Ops[0].Reg >= uniR {
		return false
	}
	b := in.Ops[2]
	return b.Kind == isa.KImm || b.Kind == isa.KReg && b.Mod == 0
}

func mulWideKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg}
	signed := in.Type == isa.S32
	switch b := in.Ops[2]; {
	case b.Kind == isa.KImm && signed:
		k.imm, k.run = uint64(int64(int32(b.Imm))), kMulWideSImm
	case b.Kind == isa.KImm:
		k.imm, k.run = uint64(uint32(b.Imm)), kMulWideUImm
	case signed:
		k.b, k.run = b.Reg, kMulWideS
	default:
		k.b, k.run = b.Reg, kMulWideU
	}
	return k
}

func kMulWideSImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	a, r, m := &w.regs[k.a], &w.regs[k.d], k.imm
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = uint64(int64(int32(a[l])))*m, uint64(int64(int32(a[l+1])))*m,
			uint64(int64(int32(a[l+2])))*m, uint64(int64(int32(a[l+3])))*m
	}
	return true
}

func kMulWideUImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	a, r, m := &w.regs[k.a], &w.regs[k.d], k.imm
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = uint64(uint32(a[l]))*m, uint64(uint32(a[l+1]))*m,
			uint64(uint32(a[l+2]))*m, uint64(uint32(a[l+3]))*m
	}
	return true
}

func kMulWideS(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	a, b, r := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(int64(int32(a[l])) * int64(int32(b[l])))
	}
	return true
}

func kMulWideU(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return false
	}
	a, b, r := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(uint32(a[l])) * uint64(uint32(b[l]))
	}
	return true
}
