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
// every lane (none for no lane); a general one under a partial mask is left
// to ExecALU.
func kIAdd3R(w *Warp, k *Kernel, mask uint32) bool {
	a, d := &w.regs[k.a], &w.regs[k.d]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, (a[f]+k.imm)&m32)
		}
	case mask != FullMask:
		return false
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
		return false
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
		return false
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = (a[l]+b[l]+c[l])&m32, (a[l+1]+b[l+1]+c[l+1])&m32,
				(a[l+2]+b[l+2]+c[l+2])&m32, (a[l+3]+b[l+3]+c[l+3])&m32
		}
	}
	return true
}
