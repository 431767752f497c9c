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
// registers or immediates (RZ is an immediate zero), c a pair for .WIDE
// when a register: imad's forms without a carry, .HI aside, in a program
// whose uniform registers start at uniR.
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
	term := func(o isa.Operand, mod isa.Mod) bool {
		return o.Kind == isa.KReg && o.Mod == mod || o.Kind == isa.KImm && o.Mod == 0
	}
	return d.Kind == isa.KReg && d.Mod == pair && d.Reg < uniR && term(a, 0) && term(b, 0) && term(c, pair)
}

// imadKernel is the kernel of one of imadForm's instructions: a's register
// in a (the product commutes, so an immediate a swaps with a register b);
// b's register in b, or its immediate in imm (b -1); c's register in c, or
// its immediate in imm2 (c -1). The low word of a product of two
// immediates is folded: imm is it plus c's immediate, or, for a register
// c, what is added to it (such a .WIDE is left to ExecALU). A
// .WIDE destination is the pair d, d+1, which the SM books both words of
// (its Mod says so: kernelIssued).
func imadKernel(in *isa.Instr) Kernel {
	a, b, c := in.Ops[1], in.Ops[2], in.Ops[3]
	if a.Kind == isa.KImm {
		a, b = b, a
	}
	k := Kernel{in: in, d: in.Ops[0].Reg, a: a.Reg, b: b.Reg, c: c.Reg}
	if b.Kind == isa.KImm {
		k.b, k.imm = -1, b.Imm
	}
	if c.Kind == isa.KImm {
		k.c, k.imm2 = -1, c.Imm
	}
	wide := in.Mode == isa.IMadWide
	if a.Kind == isa.KImm { // both factors immediates: a move of c plus the product
		p := (a.Imm & m32) * (b.Imm & m32)
		if in.Type == isa.S32 {
			p = uint64(int64(int32(a.Imm)) * int64(int32(b.Imm)))
		}
		switch {
		case wide:
			return Kernel{}
		case k.c < 0:
			k.imm, k.run = (p+k.imm2)&m32, kIMadConst
		default:
			k.imm, k.run = p&m32, kIMadAddR
		}
		return k
	}
	switch {
	case !wide:
		k.run = kIMadLo // the low word is the same signed or not
	case in.Type == isa.S32:
		k.run = kIMadWideS
	default:
		k.run = kIMadWideU
	}
	return k
}

// kIMadConst is an IMAD of immediates alone (IMAD.MOV d, RZ, RZ, imm):
// the constant imm in every lane of a full warp; a partial one is merged
// (execMerged).
func kIMadConst(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	fill(&w.regs[k.d], k.imm)
	return true
}

// kIMadAddR is an IMAD whose factors are immediates (IMAD.MOV.U32 d, RZ,
// RZ, c): c plus their product's low word imm, for a full warp; a partial
// one is merged (execMerged).
func kIMadAddR(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	c, d := &w.regs[k.c], &w.regs[k.d]
	for l := 0; l < Lanes; l++ {
		d[l] = (c[l] + k.imm) & m32
	}
	return true
}

// kIMadLo is IMAD's low word, (a*b + c) mod 2^32, for a full warp; a
// partial one is merged (execMerged).
func kIMadLo(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, d := &w.regs[k.a], &w.regs[k.d]
	if k.c < 0 {
		c := uint32(k.imm2)
		if k.b < 0 {
			b := uint32(k.imm)
			for l := 0; l < Lanes; l++ {
				d[l] = uint64(uint32(a[l])*b + c)
			}
			return true
		}
		b := &w.regs[k.b]
		for l := 0; l < Lanes; l++ {
			d[l] = uint64(uint32(a[l])*uint32(b[l]) + c)
		}
		return true
	}
	c := &w.regs[k.c]
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
	if k.c < 0 {
		return kIMadWideImmC(w, k, true)
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
	if k.c < 0 {
		return kIMadWideImmC(w, k, false)
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

// kIMadWideImmC is IMAD.WIDE with an immediate c (RZ: zero), imm2 in
// every lane as ExecALU stages it: the product, signed or not, plus c.
func kIMadWideImmC(w *Warp, k *Kernel, signed bool) bool {
	a, dlo, dhi, c := &w.regs[k.a], &w.regs[k.d], &w.regs[k.d+1], k.imm2
	var b *Vec
	if k.b >= 0 {
		b = &w.regs[k.b]
	}
	for l := 0; l < Lanes; l++ {
		bl := k.imm
		if b != nil {
			bl = b[l]
		}
		p := (a[l] & m32) * (bl & m32)
		if signed {
			p = uint64(int64(int32(a[l])) * int64(int32(bl)))
		}
		s := p + c
		dlo[l], dhi[l] = s&m32, s>>32
	}
	return true
}

// leaForm reports whether in is LEA d[, co], a, b, [c,] s [, ci] whose
// destination is a general register, whose a, b and c are plain registers
// and s an immediate, with or without the carry in and the carry out (a
// predicate): lea's forms, in a program whose uniform registers start at
// uniR.
func leaForm(in *isa.Instr, uniR int32) bool {
	if in.Op != isa.OpLea || in.NDst < 1 || in.NDst > 2 || in.Mode&^(isa.LeaHi|isa.LeaSX32) != 0 {
		return false
	}
	d := in.Ops[0]
	if d.Kind != isa.KReg || d.Mod != 0 || d.Reg >= uniR || in.NDst == 2 && in.Ops[1].Kind != isa.KPred {
		return false
	}
	sh := leaShiftSrc(in)
	n := sh + 1
	if in.Flags.Has(isa.FCarryIn) {
		n++ // the carry in, a predicate operand (carryIn)
	}
	if in.NSrc() != n || in.Src(sh).Kind != isa.KImm {
		return false
	}
	for i := 0; i < sh; i++ {
		if o := in.Src(i); o.Kind != isa.KReg || o.Mod != 0 {
			return false
		}
	}
	return true
}

// leaHiTerm reports whether LEA in has a register for the high word c
// (.HI without .SX32).
func leaHiTerm(in *isa.Instr) bool {
	return in.Mode&isa.LeaHi != 0 && in.Mode&isa.LeaSX32 == 0
}

// leaShiftSrc is the source index of LEA in's shift.
func leaShiftSrc(in *isa.Instr) int {
	if leaHiTerm(in) {
		return 3
	}
	return 2
}

// leaKernel is the kernel of one of leaForm's instructions: a and b, c for
// .HI with a register high word, the shift in imm.
func leaKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Src(0).Reg, b: in.Src(1).Reg, c: -1, imm: in.Src(leaShiftSrc(in)).Imm & 63}
	if leaHiTerm(in) {
		k.c = in.Src(2).Reg
	}
	k.run = kLeaLo
	if in.Mode&isa.LeaHi != 0 {
		k.run = kLeaHi
	}
	return k
}

// leaCarry returns LEA k's carry in, a lane mask (none: 0).
func leaCarry(w *Warp, k *Kernel) uint32 {
	if k.in.Flags.Has(isa.FCarryIn) {
		return w.carryIn(k.in, leaShiftSrc(k.in)+1)
	}
	return 0
}

// kLeaLo is LEA's low form, d = (a << s) + b + ci with the carry out of
// the low word, for a full warp; a partial one as leaMerged says.
func kLeaLo(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return leaMerged(w, k, mask)
	}
	a, b, d, sh := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d], k.imm
	ci := leaCarry(w, k)
	if k.in.NDst == 1 && ci == 0 {
		for l := 0; l < Lanes; l++ {
			d[l] = ((a[l]&m32)<<sh + b[l]) & m32
		}
		return true
	}
	var co uint32
	for l := 0; l < Lanes; l++ {
		sum := (a[l]&m32)<<sh&m32 + b[l]&m32 + uint64(ci>>l&1)
		d[l] = sum & m32
		co |= uint32(sum>>32&1) << l
	}
	return leaCarryOut(w, k, co)
}

// kLeaHi is LEA.HI: the high word of the pair (c:a) shifted left by s,
// with c a register or (.SX32) a's sign, plus b and the carry in, with the
// carry out; a full warp, or a partial one as leaMerged says.
func kLeaHi(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return leaMerged(w, k, mask)
	}
	a, b, d, sh := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d], k.imm
	ci := leaCarry(w, k)
	var co uint32
	for l := 0; l < Lanes; l++ {
		top := uint64(int64(int32(a[l]))>>32) & m32 // .SX32: a's sign
		if k.c >= 0 {
			top = w.regs[k.c][l] & m32
		}
		x := (top<<32 | a[l]&m32) << sh >> 32 & m32
		sum := x + b[l]&m32 + uint64(ci>>l&1)
		d[l] = sum & m32
		co |= uint32(sum>>32&1) << l
	}
	return leaCarryOut(w, k, co)
}

// leaMerged runs LEA kernel k under a partial mask: merged as the integer
// kernels are (execMerged), unless it writes the carry, whose predicate a
// merge would not put back: that instruction is left to ExecALU.
func leaMerged(w *Warp, k *Kernel, mask uint32) bool {
	if k.in.NDst > 1 {
		return false
	}
	return w.execMerged(k, mask)
}

// leaCarryOut writes LEA k's carry out co to its predicate, if it has one,
// for a full warp.
func leaCarryOut(w *Warp, k *Kernel, co uint32) bool {
	if k.in.NDst > 1 {
		w.setPredDst(k.in.Dst(1), FullMask, co)
	}
	return true
}
