package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// Lane kernels of SASS LOP3 and SHF (DecodeKernel): the logic and shift
// operations of nearly every SASS loop (a parity flip, a phase bit, an
// address's shift), which ExecALU stages an immediate or RZ into a vector
// for and writes through writeSASS.

// plainTerm reports whether o is a plain register or an immediate (RZ
// reads as the immediate 0).
func plainTerm(o *isa.Operand) bool {
	return o.Mod == 0 && (o.Kind == isa.KReg || o.Kind == isa.KImm)
}

// lop3Form reports whether in is LOP3.LUT d, a, b, c, table with no
// predicate destination, a register destination and plain registers and
// immediates for terms.
func lop3Form(in *isa.Instr) bool {
	if in.Op != isa.OpSLop3 || in.NDst != 1 || len(in.Ops) < 5 {
		return false
	}
	if d := in.Ops[0]; d.Kind != isa.KReg || d.Mod != 0 {
		return false
	}
	return plainTerm(&in.Ops[1]) && plainTerm(&in.Ops[2]) && plainTerm(&in.Ops[3]) && in.Ops[4].Kind == isa.KImm
}

// lop3Kernel is the kernel of one of lop3Form's instructions in a program
// whose uniform registers start at uniR. The immediate terms are folded into
// the table at decode: with one register term x the result is x&P | ^x&Q,
// P and Q the table's values for x all ones and all zeros; with two, x and
// y, the four minterms of x and y under the table's values for them; with
// three, the table itself (lut3).
func lop3Kernel(in *isa.Instr, uniR int32) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, uniform: in.Ops[0].Reg >= uniR}
	t := uint8(in.Ops[4].Imm)
	var regs [3]int32
	var pos [3]int
	var v [3]uint64 // the terms, registers as zero for now
	n := 0
	for i := range 3 {
		o := &in.Ops[1+i]
		if o.Kind == isa.KImm {
			v[i] = o.Imm
			continue
		}
		regs[n], pos[n] = o.Reg, i
		n++
	}
	// at is the table's value with the register terms set to xs.
	at := func(xs ...uint64) uint64 {
		u := v
		for j, x := range xs {
			u[pos[j]] = x
		}
		return lut64(t, u[0], u[1], u[2]) & m32
	}
	k.a, k.b, k.c = regs[0], regs[1], regs[2]
	switch n {
	case 0:
		k.imm, k.run = at(), kConst
	case 1:
		k.aux = [4]uint64{at(m32), at(0)}
		k.run = kLop3R
	case 2:
		k.aux = [4]uint64{at(m32, m32), at(m32, 0), at(0, m32), at(0, 0)}
		k.run = kLop3RR
	default:
		k.lut = lutOf(t)
		k.run = kLop3RRR
	}
	return k
}

// kConst writes the immediate k.imm (a LOP3 of immediates alone).
func kConst(w *Warp, k *Kernel, mask uint32) bool {
	d := &w.regs[k.d]
	switch {
	case k.uniform:
		if mask != 0 {
			fill(d, k.imm)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		fill(d, k.imm)
	}
	return true
}

func kLop3R(w *Warp, k *Kernel, mask uint32) bool {
	a, d := &w.regs[k.a], &w.regs[k.d]
	p, q := k.aux[0], k.aux[1]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, a[f]&p|^a[f]&q)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = a[l]&p|^a[l]&q, a[l+1]&p|^a[l+1]&q, a[l+2]&p|^a[l+2]&q, a[l+3]&p|^a[l+3]&q
		}
	}
	return true
}

// lop2 is a two-register LOP3 lane: the minterms of x and y under the
// table's values m (x y, x ^y, ^x y, ^x ^y).
func lop2(x, y uint64, m *[4]uint64) uint64 {
	return x&y&m[0] | x&^y&m[1] | ^x&y&m[2] | ^(x|y)&m[3]
}

func kLop3RR(w *Warp, k *Kernel, mask uint32) bool {
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	m := k.aux
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, lop2(a[f], b[f], &m))
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l++ {
			d[l] = lop2(a[l], b[l], &m)
		}
	}
	return true
}

func kLop3RRR(w *Warp, k *Kernel, mask uint32) bool {
	a, b, c, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.c], &w.regs[k.d]
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, k.lut.apply(a[f], b[f], c[f])&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l++ {
			d[l] = k.lut.apply(a[l], b[l], c[l]) & m32
		}
	}
	return true
}

// shfForm reports whether in is SHF d, a, s, b with an immediate amount s,
// a register destination and plain registers or immediates for a and b.
func shfForm(in *isa.Instr) bool {
	if in.Op != isa.OpSShf || in.NDst != 1 || len(in.Ops) != 4 {
		return false
	}
	if d := in.Ops[0]; d.Kind != isa.KReg || d.Mod != 0 {
		return false
	}
	return plainTerm(&in.Ops[1]) && plainTerm(&in.Ops[3]) && in.Ops[2].Kind == isa.KImm && in.Ops[2].Mod == 0
}

// shfKernel is the kernel of one of shfForm's instructions: the amount
// wrapped or clamped at decode (k.imm2), the pair b:a read as
// (b&aux[1])<<32 | a&aux[0] | imm, an immediate term's register masked off
// and its value in imm, and the high word taken by a shift of aux[2].
// An amount clamped at 64 (a 64-bit shift) gives zeros, or the sign for an
// arithmetic shift right, as sshf's does; the kernels' amounts are under 64.
func shfKernel(in *isa.Instr, uniR int32) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[0].Reg, b: in.Ops[0].Reg, uniform: in.Ops[0].Reg >= uniR}
	md := in.Mode
	if a := in.Ops[1]; a.Kind == isa.KReg {
		k.a, k.aux[0] = a.Reg, m32
	} else {
		k.imm |= a.Imm & m32
	}
	if b := in.Ops[3]; b.Kind == isa.KReg {
		k.b, k.aux[1] = b.Reg, m32
	} else {
		k.imm |= (b.Imm & m32) << 32
	}
	n, width := in.Ops[2].Imm&m32, uint64(32)
	if md&isa.Shf64 != 0 {
		width = 64
	}
	if md&isa.ShfWrap != 0 {
		n &= 31
	} else if n > width {
		n = width
	}
	k.imm2 = n
	if md&isa.ShfHi != 0 {
		k.aux[2] = 32
	}
	switch {
	case n == 64 && (md&isa.ShfLeft != 0 || md&isa.ShfSigned == 0):
		k.imm, k.run = 0, kConst // a 64-bit shift out: zeros (kConst writes imm)
	case n == 64 && md&isa.ShfLeft == 0:
		k.imm2, k.run = 63, kShfRS // an arithmetic one: the sign in every bit
	case md&isa.ShfLeft != 0 && md&isa.ShfHi == 0 && k.aux[0] != 0:
		k.run = kShfLLo // the low word of (b:a) << n is a << n: b does not reach it
	case md&isa.ShfLeft != 0:
		k.run = kShfL
	case md&isa.ShfSigned != 0:
		k.run = kShfRS
	default:
		k.run = kShfR
	}
	return k
}

// shfTerms are a shfKernel's term masks and immediates, held in registers
// across its lane loop.
type shfTerms struct{ am, bm, imm uint64 }

func (k *Kernel) shfTerms() shfTerms { return shfTerms{k.aux[0], k.aux[1], k.imm} }

// pair is lane l's pair b:a.
func (t shfTerms) pair(a, b *Vec, l int) uint64 {
	return (b[l]&t.bm)<<32 | a[l]&t.am | t.imm
}

func kShfL(w *Warp, k *Kernel, mask uint32) bool {
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	n, hi, t := k.imm2, k.aux[2], k.shfTerms()
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, t.pair(a, b, f)<<(n&63)>>(hi&63)&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l++ {
			d[l] = t.pair(a, b, l) << (n & 63) >> (hi & 63) & m32
		}
	}
	return true
}

// kShfLLo is the low word of a left shift of a register a.
func kShfLLo(w *Warp, k *Kernel, mask uint32) bool {
	a, d := &w.regs[k.a], &w.regs[k.d]
	n := k.imm2 & 63
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, a[f]<<n&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l += 4 {
			d[l], d[l+1], d[l+2], d[l+3] = a[l]<<n&m32, a[l+1]<<n&m32, a[l+2]<<n&m32, a[l+3]<<n&m32
		}
	}
	return true
}

func kShfR(w *Warp, k *Kernel, mask uint32) bool {
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	n, hi, t := k.imm2, k.aux[2], k.shfTerms()
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, t.pair(a, b, f)>>(n&63)>>(hi&63)&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l++ {
			d[l] = t.pair(a, b, l) >> (n & 63) >> (hi & 63) & m32
		}
	}
	return true
}

func kShfRS(w *Warp, k *Kernel, mask uint32) bool {
	a, b, d := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	n, hi, t := k.imm2, k.aux[2], k.shfTerms()
	switch {
	case k.uniform:
		if f := bits.TrailingZeros32(mask); f < Lanes {
			fill(d, uint64(int64(t.pair(a, b, f))>>(n&63))>>(hi&63)&m32)
		}
	case mask != FullMask:
		return w.execMerged(k, mask)
	default:
		for l := 0; l < Lanes; l++ {
			d[l] = uint64(int64(t.pair(a, b, l))>>(n&63)) >> (hi & 63) & m32
		}
	}
	return true
}
