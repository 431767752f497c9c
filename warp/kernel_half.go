package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// hadd2F32WidenForm reports whether in is HADD2.F32 d, -RZ, b.H0_H0 (or
// .H1_H1) with plain general registers for d and b: ptxas's widening of
// one half to f32, in a program whose uniform registers start at uniR.
func hadd2F32WidenForm(in *isa.Instr, uniR int32) bool {
	if in.Op != isa.OpSHAdd2F32 || in.NDst != 1 || len(in.Ops) != 3 {
		return false
	}
	d, a, b := in.Ops[0], in.Ops[1], in.Ops[2]
	return d.Kind == isa.KReg && d.Mod == 0 && d.Reg < uniR &&
		a.Kind == isa.KImm && a.Mod == 0 && uint16(a.Imm) == 0x8000 &&
		b.Kind == isa.KReg && (b.Mod == isa.MH0H0 || b.Mod == isa.MH1H1) && b.Reg < uniR
}

// hadd2F32WidenKernel is the kernel of one of hadd2F32WidenForm's
// instructions: imm is the shift that selects b's half, vec the -0 halves
// in every lane.
func hadd2F32WidenKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, b: in.Ops[2].Reg, vec: immVec(in.Ops[1].Imm), run: kHAdd2F32Widen}
	if in.Ops[2].Mod == isa.MH1H1 {
		k.imm = 16
	}
	return k
}

// kHAdd2F32Widen is HADD2.F32 d, -RZ, b.Hx_Hx on the lanes of mask: hadd2F32
// of the halves, as sassFloat runs it, without ExecALU's dispatch and
// operand staging. -0 plus a finite half is the half widened exactly, so a
// full warp's finite halves go through the packed widening (f16WidenWide)
// and the groups it leaves, with an infinite or NaN half, through
// hadd2F32One. hadd2F32 writes only the lanes of mask, so it writes d at
// once unless d is the half's own register.
func kHAdd2F32Widen(w *Warp, k *Kernel, mask uint32) bool {
	b, d := &w.regs[k.b], &w.regs[k.d]
	if mask == FullMask {
		// The packed widening writes a trip of lanes after reading it and
		// leaves the others as they were, so d may be b.
		for m := groupLanes(f16WidenWide(d, b, k.imm)); m != 0; m &= m - 1 {
			l := bits.TrailingZeros32(m)
			d[l] = uint64(hadd2F32One(0x8000, uint16(b[l]>>k.imm)))
		}
		return true
	}
	if k.imm != 0 {
		s := &w.scratch[1]
		for l := range s {
			s[l] = b[l] >> 16
		}
		b = s
	}
	if k.d != k.b || k.imm != 0 { // b is not d: write d at once
		hadd2F32(k.vec, b, d, mask)
		return true
	}
	var r Vec
	hadd2F32(k.vec, b, &r, mask)
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		d[l] = r[l]
	}
	return true
}
