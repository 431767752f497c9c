package warp

import "github.com/smsim/smsim/isa"

// prmtImmForm reports whether in is prmt.b32 in the default mode with an
// immediate selector, of plain registers into a general register: each
// result byte a byte of (b:a), or its sign, chosen at decode.
func prmtImmForm(in *isa.Instr, uniR int32) bool {
	return in.Op == isa.OpPrmt && in.Mode == 0 && in.NDst == 1 && len(in.Ops) == 4 && in.Flags == 0 &&
		in.Type.Bits() == 32 && plainRegs(in.Ops[:3]) && in.Ops[3].Kind == isa.KImm && in.Ops[0].Reg < uniR
}

// prmtImmKernel keeps, for result byte i, the shift that brings its source
// byte of (b:a) to the bottom in aux[i]: bits 0-5 the shift, bit 6 set when
// the byte is the source byte's sign (selector bit 3) instead.
func prmtImmKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, a: in.Ops[1].Reg, b: in.Ops[2].Reg, run: kPrmtImm}
	sel := uint32(in.Ops[3].Imm)
	for i := range 4 {
		s := sel >> (4 * i) & 0xf
		k.aux[i] = uint64(8 * (s & 7))
		if s&8 != 0 {
			k.aux[i] = uint64(8*(s&7)+7) | 1<<6
		}
	}
	return k
}

func kPrmtImm(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b, r := &w.regs[k.a], &w.regs[k.b], &w.regs[k.d]
	for l := range r {
		x := uint64(uint32(b[l]))<<32 | uint64(uint32(a[l]))
		var out uint64
		for i, s := range k.aux {
			v := x >> (s & 63) & 0xff
			if s&(1<<6) != 0 {
				v = -(v & 1) & 0xff // the sign bit, replicated
			}
			out |= v << (8 * i)
		}
		r[l] = out
	}
	return true
}

// selpForm reports whether in is selp of plain registers or immediates by
// a predicate (maybe negated) into a general register, of a type of at most
// 64 bits: selp's lanes, written at the type's width.
func selpForm(in *isa.Instr, uniR int32) bool {
	if in.Op != isa.OpSelp || in.NDst != 1 || len(in.Ops) != 4 || in.Flags != 0 || in.Type.Bits() > 64 ||
		in.Type == isa.Pred || !plainRegs(in.Ops[:1]) || in.Ops[0].Reg >= uniR || in.Ops[3].Kind != isa.KPred {
		return false
	}
	for _, o := range in.Ops[1:3] {
		if !(o.Kind == isa.KImm || o.Kind == isa.KReg && o.Mod == 0) {
			return false
		}
	}
	return true
}

// selpKernel stages an immediate source once, as selp's Operand stages it.
func selpKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, width: widthMask(in.Type), run: kSelp}
	k.a, k.b = in.Ops[1].Reg, in.Ops[2].Reg
	if o := in.Ops[1]; o.Kind == isa.KImm {
		k.vec, k.a = immVec(o.Imm), -1
	}
	if o := in.Ops[2]; o.Kind == isa.KImm {
		k.vec2, k.b = immVec(o.Imm), -1
	}
	return k
}

func kSelp(w *Warp, k *Kernel, mask uint32) bool {
	if mask != FullMask {
		return w.execMerged(k, mask)
	}
	a, b := k.vec, k.vec2
	if k.a >= 0 {
		a = &w.regs[k.a]
	}
	if k.b >= 0 {
		b = &w.regs[k.b]
	}
	p, r, m := w.PredOperand(&k.in.Ops[3]), &w.regs[k.d], k.width
	for l := range r {
		v := b[l]
		if p>>l&1 != 0 {
			v = a[l]
		}
		r[l] = v & m
	}
	return true
}
