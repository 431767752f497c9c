package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Kernel is one instruction's lane kernel with its register operands,
// resolved once per program (DecodeKernel) for the commonest forms, so that
// an issue reaches the lanes in one indirect call instead of through
// ExecALU's dispatch, the fast-float checks and an operand look-up per
// source. A kernel runs exactly the code ExecALU would run for the
// instruction; a form it does not take (a conversion's lanes that need the
// exact path) it leaves to ExecALU. An integer kernel computes a full warp
// and merges a partial mask's lanes (execMerged). The zero Kernel has no
// kernel.
type Kernel struct {
	run        func(w *Warp, k *Kernel, mask uint32) bool
	in         *isa.Instr
	d, a, b, c int32     // the destination and source registers
	imm, imm2  uint64    // the immediate operands of the integer forms
	width      uint64    // the integer forms' width mask (widthMask)
	uniform    bool      // the destination is a uniform register (writeSASS)
	aux        [4]uint64 // a form's constants: LOP3's folded table values, SHF's term masks and high-word shift
	vec, vec2  *Vec      // immediate operands in every lane (as ExecALU stages them): an f32 form's, selp's
	lut        lut3      // a LOP3 of three registers: its table
	pair       bool      // the destination is the pair d, d+1 (execMerged)
}

// Resolved reports whether k has a kernel.
func (k *Kernel) Resolved() bool { return k.run != nil }

// Exec runs kernel k on the lanes of mask and reports whether it did; if it
// did not, the instruction is to run through ExecALU.
func (w *Warp) Exec(k *Kernel, mask uint32) bool { return k.run(w, k, mask) }

// execMerged runs kernel k, one that computes every lane of a full warp
// into its one destination register (or pair), under a partial mask (a
// divergent path, a one-thread block): it computes every lane, a pure
// function of the registers, and then puts back the lanes outside mask of
// its destination, which ExecALU would not have written. Such kernels call
// it for a partial mask.
func (w *Warp) execMerged(k *Kernel, mask uint32) bool {
	d := &w.regs[k.d]
	old := *d
	var oldHi Vec
	if k.pair {
		oldHi = w.regs[k.d+1]
	}
	if !k.run(w, k, FullMask) {
		return false
	}
	for m := ^mask; m != 0; m &= m - 1 {
		d[bits.TrailingZeros32(m)] = old[bits.TrailingZeros32(m)]
	}
	if k.pair {
		hi := &w.regs[k.d+1]
		for m := ^mask; m != 0; m &= m - 1 {
			hi[bits.TrailingZeros32(m)] = oldHi[bits.TrailingZeros32(m)]
		}
	}
	return true
}

// merged notes whether k, a kernel that runs execMerged for a partial
// mask, writes a pair.
func merged(k Kernel) Kernel {
	if k.run != nil {
		k.pair = k.in.Ops[0].Mod&isa.MPair != 0
	}
	return k
}

// DecodeKernel returns the kernel of instruction in of program p: integer
// add, sub, and, or, xor, mul.lo and mad.lo with an immediate (inPlace's
// forms), integer add, sub, and, or and xor of two registers (intRegForm),
// three-input adds of registers (add3Form), mul.lo and mad.lo of
// registers (mulRegForm), mul.wide of 32-bit integers
// (mulWideForm), shl and shr by an immediate
// (intShiftImmForm), mov of a register or an immediate (movForm), cvt
// between integer types (cvtIntForm), setp into one predicate of integers
// and f32 (setpForm), prmt with an immediate selector (prmtImmForm), selp
// (selpForm), f32 add, sub and mul of a
// register and an immediate, min, max, abs, neg and the MUFU functions
// (f32MoreKernel), f32 add, sub, mul and fma rounded to nearest on plain
// registers (f32Arith's), SASS IADD3 without carries of registers and
// immediates (iadd3Form), IMAD and IMAD.WIDE without carries (imadForm),
// LEA and LEA.HI with and without carries (leaForm), LOP3 without a
// predicate destination (lop3Form), SHF by an immediate (shfForm) and
// HADD2.F32's widening of a half (hadd2F32WidenForm); the zero Kernel for
// any other instruction.
func DecodeKernel(p *isa.Program, in *isa.Instr) Kernel {
	uniR := int32(p.NumRegs)
	if p.UniformRegs > 0 {
		uniR = p.UniformRegs
	}
	if inPlaceForm(in, uniR) {
		return merged(inPlaceKernel(in))
	}
	if intRegForm(in, uniR) {
		return merged(intRegKernel(in))
	}
	if add3Form(in, uniR) {
		return merged(termKernel(in, kAdd3))
	}
	if mulRegForm(in, uniR) {
		if in.Op == isa.OpMul {
			return merged(termKernel(in, kMul))
		}
		return merged(termKernel(in, kMad))
	}
	if mulWideForm(in, uniR) {
		return merged(mulWideKernel(in))
	}
	if intShiftImmForm(in, uniR) {
		return merged(intShiftImmKernel(in))
	}
	if movForm(in, uniR) {
		return merged(movKernel(in))
	}
	if cvtIntForm(in, uniR) {
		return merged(cvtIntKernel(in))
	}
	if setpForm(in) {
		return setpKernel(in)
	}
	if prmtImmForm(in, uniR) {
		return merged(prmtImmKernel(in))
	}
	if selpForm(in, uniR) {
		return merged(selpKernel(in))
	}
	if f32ArithForm(in, uniR) {
		k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, b: in.Ops[2].Reg, run: kF32Binary}
		if in.Op == isa.OpFma || in.Op == isa.OpMad {
			k.c, k.run = in.Ops[3].Reg, kF32Fma
			if in.Flags&(isa.FFtz|isa.FSat) == 0 {
				k.run = kF32FmaRN
			}
		}
		return k
	}
	if k, ok := f32MoreKernel(in, uniR); ok {
		return k
	}
	if iadd3Form(in) {
		return merged(iadd3Kernel(in, uniR))
	}
	if imadForm(in, uniR) {
		return merged(imadKernel(in))
	}
	if leaForm(in, uniR) {
		return merged(leaKernel(in))
	}
	if lop3Form(in) {
		return merged(lop3Kernel(in, uniR))
	}
	if shfForm(in) {
		return merged(shfKernel(in, uniR))
	}
	if hadd2F32WidenForm(in, uniR) {
		return hadd2F32WidenKernel(in)
	}
	return Kernel{}
}

// inPlaceKernel is the kernel of one of inPlace's forms.
func inPlaceKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, imm: inPlaceImm(in), width: widthMask(in.Type)}
	switch in.Op {
	case isa.OpAdd:
		k.run = kAddImm
	case isa.OpSub:
		k.run = kSubImm
	case isa.OpAnd:
		k.run = kAndImm
	case isa.OpOr:
		k.run = kOrImm
	case isa.OpXor:
		k.run = kXorImm
	case isa.OpMul:
		k.run = kMulImm
	default: // mad
		if c := in.Ops[3]; c.Kind == isa.KImm {
			k.imm2, k.run = c.Imm, kMadImmImm
		} else {
			k.c, k.run = c.Reg, kMadImmReg
		}
	}
	return k
}

// f32ArithForm reports whether ExecALU runs in through f32Arith with every
// source a plain register (fastFloat's conditions) in a program whose
// uniform registers start at uniR.
func f32ArithForm(in *isa.Instr, uniR int32) bool {
	n := 2
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpMul:
	case isa.OpFma, isa.OpMad:
		n = 3
	default:
		return false
	}
	if in.Type != isa.F32 || !rnLike(in.Rnd) || in.NDst != 1 || len(in.Ops) != 1+n {
		return false
	}
	return plainRegs(in.Ops) && in.Ops[0].Reg < uniR
}

// narrow applies the integer form's width mask to its destination r.
func (k *Kernel) narrow(r *Vec) {
	if k.width != ^uint64(0) {
		maskV(r, k.width)
	}
}

func kAddImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	addImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kSubImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	subImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kAndImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	andImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kOrImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	orImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kXorImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	xorImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kMulImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	mulImmV(&w.regs[k.a], k.imm, r)
	k.narrow(r)
	return true
}

func kMadImmImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	madImmImmV(&w.regs[k.a], k.imm, k.imm2, r)
	k.narrow(r)
	return true
}

func kMadImmReg(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	r := &w.regs[k.d]
	madImmV(&w.regs[k.a], k.imm, &w.regs[k.c], r)
	k.narrow(r)
	return true
}

func kF32Binary(w *Warp, k *Kernel, mask uint32) bool {
	f32Binary(k.in, mask, &w.regs[k.a], &w.regs[k.b], &w.regs[k.d])
	return true
}

func kF32Fma(w *Warp, k *Kernel, mask uint32) bool {
	w.f32FmaOps(k.in, mask, &w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d])
	return true
}

// kF32FmaRN is kF32Fma without .ftz or .sat (f32FmaOps with its flag test
// decided at decode): a full warp goes straight to the packed lanes.
func kF32FmaRN(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		w.f32Fma(k.in, mask, &w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d])
		return true
	}
	if rest := f32FmaWide(&w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d]); rest != 0 {
		w.f32FmaRest(k, rest)
	}
	return true
}

// f32FmaRest finishes kF32FmaRN's groups of four lanes in rest, which the
// packed lanes left: lane by lane, and the exact path for what those leave.
func (w *Warp) f32FmaRest(k *Kernel, rest uint32) {
	a, b, c, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d]
	if left := f32FmaGroups(a, b, c, d, rest); left != 0 {
		w.f32Fma(k.in, left, a, b, c, d)
	}
}
