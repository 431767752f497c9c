package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Lane kernels of SASS-only forms (DecodeKernel).

// iadd3Form reports whether in is IADD3 or UIADD3 d, a, b, c with no carry
// in or out, a register destination and plain registers and immediates for
// terms: iadd3's one-pass form (the sum's low word).
func iadd3Form(in *isa.Instr) bool {
	if in.Op != isa.OpIAdd3 || in.NDst != 1 || in.Flags.Has(isa.FCarryIn) || len(in.Ops) != 4 {
		return false
	}
	if d := in.Ops[0]; d.Kind != isa.KReg || d.Mod != 0 {
		return false
	}
	for _, o := range in.Ops[1:] {
		if o.Mod != 0 || (o.Kind != isa.KReg && o.Kind != isa.KImm) {
			return false
		}
	}
	return true
}

// iadd3Kernel is the kernel of one of iadd3Form's instructions in a program
// whose uniform registers start at uniR: its register terms in a, b, c, the
// sum of its immediates in imm (the low word of a sum does not depend on how
// its terms are grouped); none if every term is an immediate.
func iadd3Kernel(in *isa.Instr, uniR int32) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, uniform: in.Ops[0].Reg >= uniR}
	var r [3]int32
	n := 0
	for _, o := range in.Ops[1:] {
		if o.Kind == isa.KImm {
			k.imm += o.Imm
			continue
		}
		r[n] = o.Reg
		n++
	}
	k.a, k.b, k.c = r[0], r[1], r[2]
	switch n {
	case 1:
		k.run = kIAdd3R
	case 2:
		k.run = kIAdd3RR
	case 3:
		k.run = kIAdd3RRR
	default:
		return Kernel{}
	}
	return k
}

// kIAdd3R, kIAdd3RR and kIAdd3RRR add one, two or three register terms
// and the immediates' sum, and keep the low word. A uniform destination is
// written as writeSASS writes it: the sum of the first lane of the mask in
// every lane (none for no lane); a general one under a partial mask is
// merged (execMerged).
func kIAdd3R(w *Warp, k *Kernel, mask uint32) bool {
	a, d := &w.regs[k.a], &w.regs[k.d]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, (a[f]+k.imm)&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = (a[l]+k.imm)&m32, (a[l+1]+k.imm)&m32, (a[l+2]+k.imm)&m32, (a[l+3]+k.imm)&m32
		}
	}
	return true
}

func kIAdd3RR(w *Warp, k *Kernel, mask uint32) bool {
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, (a[f]+b[f]+k.imm)&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = (a[l]+b[l]+k.imm)&m32, (a[l+1]+b[l+1]+k.imm)&m32,
				(a[l+2]+b[l+2]+k.imm)&m32, (a[l+3]+b[l+3]+k.imm)&m32
		}
	}
	return true
}

func kIAdd3RRR(w *Warp, k *Kernel, mask uint32) bool {
	a, b, c, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, (a[f]+b[f]+c[f])&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = (a[l]+b[l]+c[l])&m32, (a[l+1]+b[l+1]+c[l+1])&m32,
				(a[l+2]+b[l+2]+c[l+2])&m32, (a[l+3]+b[l+3]+c[l+3])&m32
		}
	}
	return true
}

// imadForm reports whether in is IMAD d, a, b, c whose one destination is
// a general register (a pair for .WIDE) and whose terms are plain
// registers, b perhaps an immediate and c a pair for .WIDE: imad's forms
// without a carry, .HI aside, in a program whose uniform registers start at
// uniR.
func imadForm(in *isa.Instr, uniR int32) bool {
	if in.Op != isa.OpIMad || in.NDst != 1 || in.Flags.Has(isa.FCarryIn) || len(in.Ops) != 4 ||
		(in.Mode != isa.IMadLo && in.Mode != isa.IMadWide) || (in.Type != isa.S32 && in.Type != isa.U32) {
		return false
	}
	var pair isa.Mod
	if in.Mode == isa.IMadWide {
		pair = isa.MPair
	}
	d, a, b, c := in.Ops[0], in.Ops[1], in.Ops[2], in.Ops[3]
	return d.Kind == isa.KReg && d.Mod == pair && d.Reg < uniR && a.Kind == isa.KReg && a.Mod == 0 &&
		(b.Kind == isa.KReg || b.Kind == isa.KImm) && b.Mod == 0 && c.Kind == isa.KReg && c.Mod == pair
}

// imadKernel is the kernel of one of imadForm's instructions: b's register
// in b, or its immediate in imm (b -1). A .WIDE destination is the pair d,
// d+1, which the SM books both words of (its Mod says so: kernelIssued).
func imadKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, b: -1, c: in.Ops[3].Reg}
	if o := in.Ops[2]; o.Kind == isa.KImm {
		k.imm = o.Imm
	} else {
		k.b = o.Reg
	}
	switch {
	case in.Mode == isa.IMadLo:
		k.run = kIMadLo // the low word is the same signed or not
	case in.Type == isa.S32:
		k.run = kIMadWideS
	default:
		k.run = kIMadWideU
	}
	return k
}

// kIMadLo is IMAD's low word, (a*b + c) mod 2^32, for a full warp; a
// partial one is merged (execMerged).
func kIMadLo(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, c, d := &w.regs[k.a], &w.regs[k.c], &w.regs[k.d]
	if k.b < 0 {
		b := uint32(k.imm)
		for l := 0; l < Lanes; l++ {
			d[l] = uint64(uint32(a[l])*b + uint32(c[l]))
		}
		return true
	}
	b := &w.regs[k.b]
	for l := 0; l < Lanes; l++ {
		d[l] = uint64(uint32(a[l])*uint32(b[l]) + uint32(c[l]))
	}
	return true
}

// kIMadWideS and kIMadWideU are IMAD.WIDE, a*b + c with c a pair and the
// product of a's and b's low words sign- or zero-extended, written to the
// destination pair (low word, high word) for a full warp; a partial one is
// merged (execMerged).
func kIMadWideS(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, clo, chi, dlo, dhi := &w.regs[k.a], &w.regs[k.c], &w.regs[k.c+1], &w.regs[k.d], &w.regs[k.d+1]
	if k.b < 0 {
		b := int64(int32(k.imm))
		for l := 0; l < Lanes; l++ {
			s := uint64(int64(int32(a[l]))*b) + (clo[l]&m32 | chi[l]<<32)
			dlo[l], dhi[l] = s&m32, s>>32
		}
		return true
	}
	b := &w.regs[k.b]
	for l := 0; l < Lanes; l++ {
		s := uint64(int64(int32(a[l]))*int64(int32(b[l]))) + (clo[l]&m32 | chi[l]<<32)
		dlo[l], dhi[l] = s&m32, s>>32
	}
	return true
}

func kIMadWideU(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, clo, chi, dlo, dhi := &w.regs[k.a], &w.regs[k.c], &w.regs[k.c+1], &w.regs[k.d], &w.regs[k.d+1]
	if k.b < 0 {
		b := k.imm & m32
		for l := 0; l < Lanes; l++ {
			s := (a[l]&m32)*b + (clo[l]&m32 | chi[l]<<32)
			dlo[l], dhi[l] = s&m32, s>>32
		}
		return true
	}
	b := &w.regs[k.b]
	for l := 0; l < Lanes; l++ {
		s := (a[l]&m32)*(b[l]&m32) + (clo[l]&m32 | chi[l]<<32)
		dlo[l], dhi[l] = s&m32, s>>32
	}
	return true
}
