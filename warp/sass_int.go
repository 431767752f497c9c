package warp

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// The integer and predicate operations of SASS that PTX has no instruction
// for (isa.OpIAdd3 ... isa.OpQspc). Registers are 32 bits; carries travel
// in predicates. docs/sass.md gives the source of each semantics.

const m32 = 0xffffffff

// isSASSALU reports whether op is one of the SASS operations ExecALU runs.
func isSASSALU(op isa.Op) bool { return op >= isa.OpIAdd3 && op <= isa.OpVAbsDiff4 }

// execSASS runs a SASS-only register operation for the lanes of mask.
func (w *Warp) execSASS(in *isa.Instr, mask uint32, now uint64) error {
	switch in.Op {
	case isa.OpIAdd3:
		w.iadd3(in, mask, now)
	case isa.OpIMad:
		w.imad(in, mask, now)
	case isa.OpLea:
		w.lea(in, mask, now)
	case isa.OpSLop3:
		w.lop3(in, mask, now)
	case isa.OpPLop3:
		a, b, c := w.PredOperand(in.Src(0)), w.PredOperand(in.Src(1)), w.PredOperand(in.Src(2))
		w.setPredDst(in.Dst(0), mask, lut32(uint8(in.Src(3).Imm), a, b, c))
		w.setPredDst(in.Dst(1), mask, lut32(uint8(in.Src(4).Imm), a, b, c))
	case isa.OpSShf:
		w.sshf(in, mask, now)
	case isa.OpISetpEx:
		w.isetpEx(in, mask, now)
	case isa.OpIAddMnmx:
		w.iaddMnmx(in, mask, now)
	case isa.OpBmsk, isa.OpSgxt:
		w.bitField(in, mask, now)
	case isa.OpP2R:
		w.p2r(in, mask, now)
	case isa.OpR2UR:
		w.r2ur(in, mask, now)
	case isa.OpSVote:
		w.svote(in, mask)
	case isa.OpSElect:
		w.elect(in, mask)
	case isa.OpQspc:
		w.qspc(in, mask, now)
	case isa.OpFchk, isa.OpMufu, isa.OpSHAdd2F32, isa.OpFSin:
		w.sassFloat(in, mask, now)
	case isa.OpVAbsDiff4:
		w.vabsdiff4(in, mask, now)
	default:
		return &UnsupportedError{Instr: in, What: fmt.Sprintf("%s is not a register operation", in.Op)}
	}
	return nil
}

// term reads source i of an integer sum: its 32 bits, with MNeg as ~x + 1
// (2^32 - x, so that -0 carries as the hardware's complement-and-increment
// does) and MNot as ~x. It stages into slot i.
func (w *Warp) term(in *isa.Instr, i int, mask uint32, now uint64, out *Vec) {
	o := *in.Src(i)
	m := o.Mod
	o.Mod &^= isa.MNeg | isa.MNot
	v := w.Operand(&o, i%len(w.scratch), mask, now)
	switch {
	case m&isa.MNeg != 0:
		for l := range out {
			out[l] = 1<<32 - v[l]&m32
		}
	case m&isa.MNot != 0:
		for l := range out {
			out[l] = ^v[l] & m32
		}
	default:
		for l := 0; l < Lanes; l += 4 {
			out[l], out[l+1], out[l+2], out[l+3] = v[l]&m32, v[l+1]&m32, v[l+2]&m32, v[l+3]&m32
		}
	}
}

// carryIn returns the per-lane carry of predicate source i (0 or 1).
func (w *Warp) carryIn(in *isa.Instr, i int) uint32 {
	if i >= in.NSrc() {
		return 0
	}
	return w.PredOperand(in.Src(i))
}

// iadd3 is IADD3 d[, co0[, co1]], a, b, c [, ci0, ci1]: the sum and the
// carries of its two stages, a + b (+ ci0) and then + c (+ ci1), whose sum is
// the carry of the whole.
func (w *Warp) iadd3(in *isa.Instr, mask uint32, now uint64) {
	var a, b, c, r Vec
	w.term(in, 0, mask, now, &a)
	w.term(in, 1, mask, now, &b)
	w.term(in, 2, mask, now, &c)
	var ci0, ci1 uint32
	if in.Flags.Has(isa.FCarryIn) {
		ci0, ci1 = w.carryIn(in, 3), w.carryIn(in, 4)
	}
	if in.NDst == 1 && !in.Flags.Has(isa.FCarryIn) {
		// No carry in or out: the sum's low word, four lanes a step.
		for l := 0; l < Lanes; l += 4 {
			r[l], r[l+1], r[l+2], r[l+3] = (a[l]+b[l]+c[l])&m32, (a[l+1]+b[l+1]+c[l+1])&m32,
				(a[l+2]+b[l+2]+c[l+2])&m32, (a[l+3]+b[l+3]+c[l+3])&m32
		}
		w.Write(in.Dst(0), mask, &r, isa.B32)
		return
	}
	var co0, co1 uint32
	for l := range r {
		s1 := a[l] + b[l] + uint64(ci0>>l&1)
		if s1 >= 1<<32 {
			co0 |= 1 << l
		}
		s2 := s1&m32 + c[l] + uint64(ci1>>l&1)
		if s2 >= 1<<32 {
			co1 |= 1 << l
		}
		r[l] = s2 & m32
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if in.NDst == 2 {
		// One carry out: the carry of the whole sum (at most one when the
		// third term is zero, as ptxas writes it).
		w.setPredDst(in.Dst(1), mask, co0|co1)
	}
	if in.NDst == 3 {
		w.setPredDst(in.Dst(1), mask, co0)
		w.setPredDst(in.Dst(2), mask, co1)
	}
}

// imad is IMAD d[, co], a, b, c [, ci]: a*b (32x32 bits, signed for S32) plus
// c (a pair for the hi and wide forms) plus the carry; lo gives the low word,
// hi the high word of the 64-bit sum, wide the pair; co is the carry out of
// the sum's width.
func (w *Warp) imad(in *isa.Instr, mask uint32, now uint64) {
	a := *w.Operand(in.Src(0), 0, mask, now)
	b := *w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	var ci uint32
	if in.Flags.Has(isa.FCarryIn) {
		ci = w.carryIn(in, 3)
	}
	signed := in.Type == isa.S32
	var r Vec
	var co uint32
	for l := range r {
		var p uint64
		if signed {
			p = uint64(int64(int32(a[l])) * int64(int32(b[l])))
		} else {
			p = (a[l] & m32) * (b[l] & m32)
		}
		k := uint64(ci >> l & 1)
		switch in.Mode {
		case isa.IMadLo:
			s := p&m32 + c[l]&m32 + k
			r[l] = s & m32
			co |= uint32(s>>32&1) << l
		default:
			s, c1 := bits.Add64(p, c[l], k)
			co |= uint32(c1) << l
			if in.Mode == isa.IMadHi {
				s >>= 32
			}
			r[l] = s
		}
	}
	t := isa.B32
	if in.Mode == isa.IMadWide {
		t = isa.B64
	}
	w.Write(in.Dst(0), mask, &r, t)
	if in.NDst > 1 {
		w.setPredDst(in.Dst(1), mask, co)
	}
}

// lea is LEA: d = (a << s) + b + ci (lo), or the high word of (c:a) << s
// plus b (hi; with SX32 c is a's sign), with the carry out of the add.
func (w *Warp) lea(in *isa.Instr, mask uint32, now uint64) {
	hi := in.Mode&isa.LeaHi != 0
	a := *w.Operand(in.Src(0), 0, mask, now)
	b := *w.Operand(in.Src(1), 1, mask, now)
	k := 2
	var c *Vec
	if hi && in.Mode&isa.LeaSX32 == 0 {
		c = w.Operand(in.Src(2), 2, mask, now)
		k = 3
	}
	s := w.Operand(in.Src(k), 3, mask, now)
	var ci uint32
	if in.Flags.Has(isa.FCarryIn) {
		ci = w.carryIn(in, k+1)
	}
	var r Vec
	var co uint32
	for l := range r {
		sh := s[l] & 63
		var x uint64
		if hi {
			var top uint64
			switch {
			case c != nil:
				top = c[l] & m32
			case a[l]&(1<<31) != 0:
				top = m32
			}
			x = (top<<32 | a[l]&m32) << sh >> 32 & m32
		} else {
			x = (a[l] & m32) << sh & m32
		}
		sum := x + b[l]&m32 + uint64(ci>>l&1)
		r[l] = sum & m32
		co |= uint32(sum>>32&1) << l
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if in.NDst > 1 {
		w.setPredDst(in.Dst(1), mask, co)
	}
}

// sshf is SHF: the pair (b:a) shifted by s, left or right (arithmetic when
// signed), 32- or 64-bit, the amount clamped at the width or (wrap) taken
// modulo 32; the result is the pair's low or (hi) high word.
func (w *Warp) sshf(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	s := w.Operand(in.Src(1), 1, mask, now)
	b := w.Operand(in.Src(2), 2, mask, now)
	md := in.Mode
	width := uint64(32)
	if md&isa.Shf64 != 0 {
		width = 64
	}
	var r Vec
	for l := range r {
		x := (b[l]&m32)<<32 | a[l]&m32
		n := s[l] & m32
		if md&isa.ShfWrap != 0 {
			n &= 31
		} else if n > width {
			n = width
		}
		var y uint64
		switch {
		case md&isa.ShfLeft != 0:
			if n < 64 {
				y = x << n
			}
		case md&isa.ShfSigned != 0:
			y = uint64(int64(x) >> min(n, 63))
		case n < 64:
			y = x >> n
		}
		if md&isa.ShfHi != 0 {
			y >>= 32
		}
		r[l] = y & m32
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}

// iaddMnmx is VIADDMNMX d, a, b, c, pmin: min (pmin) or max of a + b and c.
func (w *Warp) iaddMnmx(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	pmin := w.PredOperand(in.Src(3))
	signed := in.Type.Signed()
	var r Vec
	for l := range r {
		x, y := (a[l]+b[l])&m32, c[l]&m32
		less := x < y
		if signed {
			less = int32(x) < int32(y)
		}
		if less == (pmin>>l&1 != 0) {
			r[l] = x
		} else {
			r[l] = y
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}

// bitField is BMSK d, a, b (a mask of b bits from bit a, both clamped at
// 32: PTX bmsk.clamp) and SGXT d, a, b (a sign- or, with U32, zero-extended
// from its low b bits, b clamped at 32: PTX szext.clamp).
func (w *Warp) bitField(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	var r Vec
	for l := range r {
		x, n := a[l]&m32, min(b[l]&m32, 32)
		if in.Op == isa.OpBmsk {
			pos := min(x, 32)
			r[l] = (uint64(1)<<n - 1) << pos & m32
			continue
		}
		switch {
		case n == 0:
			r[l] = 0
		case in.Type == isa.U32:
			r[l] = x & (uint64(1)<<n - 1)
		default:
			r[l] = uint64(sext(x, int(n))) & m32
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}

// vabsdiff4 is VABSDIFF4.U8 d, a, b, c: per byte |a_i - b_i| + c_i (mod 256).
func (w *Warp) vabsdiff4(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	var r Vec
	for l := range r {
		var v uint64
		for k := uint(0); k < 32; k += 8 {
			x, y := a[l]>>k&0xff, b[l]>>k&0xff
			d := x - y
			if y > x {
				d = y - x
			}
			v |= (d + c[l]>>k&0xff) & 0xff << k
		}
		r[l] = v
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}
