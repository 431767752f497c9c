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
// instructions: imm is the shift that selects b's half.
func hadd2F32WidenKernel(in *isa.Instr) Kernel {
	k := Kernel{in: in, d: in.Ops[0].Reg, b: in.Ops[2].Reg, run: kHAdd2F32Widen}
	if in.Ops[2].Mod == isa.MH1H1 {
		k.imm = 16
	}
	return k
}

// kHAdd2F32Widen is HADD2.F32 d, -RZ, b.Hx_Hx on the lanes of mask: -0 + y
// is y for a zero or normal half (f16WidenCommon), and hadd2F32One's sum
// for the others (subnormals, infinities, NaNs), as sassFloat gives. A
// lane reads its source before it writes d, which may be the same register.
func kHAdd2F32Widen(w *Warp, k *Kernel, mask uint32) bool {
	b, d := &w.regs[k.b], &w.regs[k.d]
	sh := k.imm
	if mask == FullMask {
		for l := range d {
			h := uint16(b[l] >> sh)
			y, ok := f16WidenCommon(h)
			if !ok {
				y = hadd2F32One(0x8000, h)
			}
			d[l] = uint64(y)
		}
		return true
	}
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		d[l] = uint64(hadd2F32One(0x8000, uint16(b[l]>>sh)))
	}
	return true
}
