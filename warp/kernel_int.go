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
	return len(in.Ops) == 3 && plainIntForm(in, 3, uniR)
}

// plainIntForm reports whether in is an integer operation without carries,
// saturation, .hi or .wide whose one destination is a general register
// (below uniR) and whose first n operands are plain registers.
func plainIntForm(in *isa.Instr, n int, uniR int32) bool {
	t := in.Type
	return in.NDst == 1 && len(in.Ops) >= n && !t.Float() && t != isa.Pred &&
		in.Flags&(isa.FCarryIn|isa.FCC|isa.FSat|isa.FHi|isa.FWide) == 0 &&
		plainRegs(in.Ops[:n]) && in.Ops[0].Reg < uniR
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

// add3Form reports whether in is a three-input integer add (compiler.FuseAdds,
// ptxas's IADD3) of two plain registers and a third plain register or an
// immediate into a general register; the form with two immediates is
// inPlaceForm's.
func add3Form(in *isa.Instr, uniR int32) bool {
	return in.Op == isa.OpAdd && len(in.Ops) == 4 && plainIntForm(in, 3, uniR) && regOrImm(in.Ops[3])
}

// mulRegForm reports whether in is integer mul.lo of two plain registers,
// or mad.lo of two plain registers and a third or an immediate, into a
// general register: mulAdd's low bits, which do not depend on extension.
func mulRegForm(in *isa.Instr, uniR int32) bool {
	switch {
	case in.Op == isa.OpMul && len(in.Ops) == 3:
		return plainIntForm(in, 3, uniR)
	case in.Op == isa.OpMad && len(in.Ops) == 4:
		return plainIntForm(in, 3, uniR) && regOrImm(in.Ops[3])
	}
	return false
}

// regOrImm reports whether o is a plain register or an immediate.
func regOrImm(o isa.Operand) bool {
	return o.Kind == isa.KImm || o.Kind == isa.KReg && o.Mod == 0
}

// termKernel is the kernel of a form of registers a and b and a third term
// (add3Form's, mulRegForm's mad): an immediate third term is staged in
// every lane once (vec), so one lane loop serves both.
func termKernel(in *isa.Instr, run func(*Warp, *Kernel, uint32) bool) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, b: in.Ops[2].Reg, width: widthMask(in.Type), run: run}
	if len(in.Ops) == 4 {
		if c := in.Ops[3]; c.Kind == isa.KImm {
			k.vec = immVec(c.Imm)
		} else {
			k.c = c.Reg
		}
	}
	return k
}

// third is a termKernel's third term for warp w.
func (k *Kernel) third(w *Warp) *Vec {
	if k.vec != nil {
		return k.vec
	}
	return &w.regs[k.c]
}

// Each lane reads its sources before it writes its destination, so the
// destination may be a source. The kernels are written out an operation
// each, as the immediate forms are: a shared helper taking the lane loop as
// a function is over the inliner's budget, and its indirect call cost
// ReducePlain 0.3 % of its host instructions.

func kAddReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	addV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kSubReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	subV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kAndReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	andV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kOrReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	orV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

func kXorReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	xorV(&w.regs[k.a], &w.regs[k.b], r)
	k.narrow(r)
	return true
}

// kAdd3 is add3Form's sum, kMul and kMad mulRegForm's low bits, each
// narrowed to the type as Write narrows it.
func kAdd3(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b, c, d := &w.regs[k.a], &w.regs[k.b], k.third(w), &w.regs[k.d]
	for l := range d {
		d[l] = (a[l] + b[l] + c[l]) & k.width
	}
	return true
}

func kMul(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := range d {
		d[l] = a[l] * b[l] & k.width
	}
	return true
}

func kMad(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b, c, d := &w.regs[k.a], &w.regs[k.b], k.third(w), &w.regs[k.d]
	for l := range d {
		d[l] = (a[l]*b[l] + c[l]) & k.width
	}
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
		return w.execMerged(k, mask)
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
		return w.execMerged(k, mask)
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
		return w.execMerged(k, mask)
	}
	a, b, r := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(int64(int32(a[l])) * int64(int32(b[l])))
	}
	return true
}

func kMulWideU(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b, r := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(uint32(a[l])) * uint64(uint32(b[l]))
	}
	return true
}

// intShiftImmForm reports whether in is shl or shr of a plain register by
// an immediate amount into a general register: binary's shifts, the amount
// decided at decode.
func intShiftImmForm(in *isa.Instr, uniR int32) bool {
	t := in.Type
	return (in.Op == isa.OpShl || in.Op == isa.OpShr) && in.NDst == 1 && len(in.Ops) == 3 && in.Flags == 0 &&
		!t.Float() && t != isa.Pred && t.Bits() <= 64 && plainRegs(in.Ops[:2]) && in.Ops[2].Kind == isa.KImm &&
		in.Ops[0].Reg < uniR
}

func intShiftImmKernel(in *isa.Instr) Kernel {
	t := in.Type
	n := uint64(t.Bits())
	s := in.Ops[2].Imm & 0xffffffff
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, width: widthMask(t)}
	switch {
	case in.Op == isa.OpShr && t.Signed(): // the sign fills the vacated bits, and all of them from n-1 on
		k.imm, k.imm2, k.run = 64-n, 64-n+min(s, n-1), kShrSImm
	case s >= n: // every bit shifted out
		k.run = kZero
	case in.Op == isa.OpShl:
		k.imm, k.run = s, kShlImm
	default:
		k.imm, k.run = s, kShrUImm
	}
	return k
}

func kZero(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	w.regs[k.d] = Vec{}
	return true
}

func kShlImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, r, s, m := &w.regs[k.a], &w.regs[k.d], k.imm, k.width
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]<<s&m, a[l+1]<<s&m, a[l+2]<<s&m, a[l+3]<<s&m
	}
	return true
}

func kShrUImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, r, s, m := &w.regs[k.a], &w.regs[k.d], k.imm, k.width
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = a[l]&m>>s, a[l+1]&m>>s, a[l+2]&m>>s, a[l+3]&m>>s
	}
	return true
}

// kShrSImm is an arithmetic shift right: the operand's n bits moved to the
// top (imm = 64-n) and shifted back down by 64-n plus the amount (imm2).
func kShrSImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, r, up, down, m := &w.regs[k.a], &w.regs[k.d], k.imm, k.imm2, k.width
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(int64(a[l]<<up)>>down) & m
	}
	return true
}

// movForm reports whether in is mov of a plain register or an immediate
// into a general register: Write of the source at the type's width.
func movForm(in *isa.Instr, uniR int32) bool {
	t := in.Type
	if in.Op != isa.OpMov || in.NDst != 1 || len(in.Ops) != 2 || in.Flags != 0 || t == isa.Pred || t.Bits() > 64 ||
		!plainRegs(in.Ops[:1]) || in.Ops[0].Reg >= uniR {
		return false
	}
	s := in.Ops[1]
	return s.Kind == isa.KImm || s.Kind == isa.KReg && s.Mod == 0
}

func movKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, width: widthMask(in.Type)}
	if s := in.Ops[1]; s.Kind == isa.KImm {
		k.imm, k.run = s.Imm&k.width, kMovImm
	} else {
		k.a, k.run = s.Reg, kMovReg
	}
	return k
}

func kMovImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r, v := &w.regs[k.d], k.imm
	for l := 0; l < Lanes; l += 4 {
		r[l], r[l+1], r[l+2], r[l+3] = v, v, v, v
	}
	return true
}

func kMovReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	andMaskV(&w.regs[k.a], k.width, &w.regs[k.d])
	return true
}

// cvtIntForm reports whether in is cvt between integer types, without
// saturation, of a plain register into a general register: the source
// extended from its width (ival), written at the destination's.
func cvtIntForm(in *isa.Instr, uniR int32) bool {
	dt, st := in.Type, in.Type2
	return in.Op == isa.OpCvt && in.NDst == 1 && len(in.Ops) == 2 && in.Flags == 0 &&
		!dt.Float() && !st.Float() && dt != isa.Pred && st != isa.Pred && dt.Bits() <= 64 && st.Bits() <= 64 &&
		plainRegs(in.Ops) && in.Ops[0].Reg < uniR
}

func cvtIntKernel(in *isa.Instr) Kernel {
	st := in.Type2
	n := uint64(st.Bits())
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, width: widthMask(in.Type), run: kCvtIntU}
	if st.Signed() && n < 64 {
		k.imm, k.run = 64-n, kCvtIntS // sign-extended: up to the top and back
	} else {
		k.width &= widthMask(st) // zero-extended
	}
	return k
}

func kCvtIntU(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	andMaskV(&w.regs[k.a], k.width, &w.regs[k.d])
	return true
}

func kCvtIntS(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, r, s, m := &w.regs[k.a], &w.regs[k.d], k.imm, k.width
	for l := 0; l < Lanes; l++ {
		r[l] = uint64(int64(a[l]<<s)>>s) & m
	}
	return true
}
