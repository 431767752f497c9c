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
		for l := range out {
			out[l] = v[l] & m32
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

// lut64 applies a three-input truth table (lop3) bitwise: table bit
// a<<2 | b<<1 | c gives the result for those input bits.
func lut64(t uint8, a, b, c uint64) uint64 {
	var r uint64
	for i := uint(0); i < 8; i++ {
		if t>>i&1 == 0 {
			continue
		}
		x, y, z := a, b, c
		if i&4 == 0 {
			x = ^a
		}
		if i&2 == 0 {
			y = ^b
		}
		if i&1 == 0 {
			z = ^c
		}
		r |= x & y & z
	}
	return r
}

func lut32(t uint8, a, b, c uint32) uint32 {
	return uint32(lut64(t, uint64(a), uint64(b), uint64(c)))
}

// lop3 is LOP3.LUT d[, p], a, b, c, lut, pin: p = (d != 0) OR pin.
func (w *Warp) lop3(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	t := uint8(in.Src(3).Imm)
	var r Vec
	var nz uint32
	for l := range r {
		r[l] = lut64(t, a[l], b[l], c[l]) & m32
		if r[l] != 0 {
			nz |= 1 << l
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if in.NDst > 1 {
		w.setPredDst(in.Dst(1), mask, nz|w.PredOperand(in.Src(4)))
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

// isetpEx is ISETP.EX: the high words a, b of a 64-bit comparison, chained
// on e, the low words' result: equal compares both, ordered comparisons
// decide on the high words unless they are equal.
func (w *Warp) isetpEx(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	pin := w.PredOperand(in.Src(2))
	e := w.PredOperand(in.Src(3))
	signed := in.Type.Signed()
	var res uint32
	for l := 0; l < Lanes; l++ {
		x, y := int64(a[l]&m32), int64(b[l]&m32)
		if signed {
			x, y = int64(int32(a[l])), int64(int32(b[l]))
		}
		lo := e>>l&1 != 0
		var v bool
		switch in.Cmp {
		case isa.CmpEq:
			v = x == y && lo
		case isa.CmpNe:
			v = x != y || lo
		case isa.CmpLt, isa.CmpLe:
			v = x < y || x == y && lo
		case isa.CmpGt, isa.CmpGe:
			v = x > y || x == y && lo
		}
		if v {
			res |= 1 << l
		}
	}
	w.setPredDst(in.Dst(0), mask, combine(in.Bool, res, pin))
	w.setPredDst(in.Dst(1), mask, combine(in.Bool, ^res, pin))
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

// p2r is P2R d, PR, b, mask: predicates P0..P6 as bits 0..6, under mask,
// over b.
func (w *Warp) p2r(in *isa.Instr, mask uint32, now uint64) {
	b := w.Operand(in.Src(0), 0, mask, now)
	m := in.Src(1).Imm & m32
	var r Vec
	for l := range r {
		var pr uint64
		for p := 0; p < 7 && p < len(w.preds); p++ {
			pr |= uint64(w.preds[p]>>l&1) << p
		}
		r[l] = pr&m | b[l]&^m&m32
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
}

// r2ur is R2UR d[, p], a: the uniform d takes a of the first active lane;
// p tells the lanes whose a differs (Mode 1, R2UR.OR: or-ed into p), which
// loops over the lanes' distinct values use.
func (w *Warp) r2ur(in *isa.Instr, mask uint32, now uint64) {
	if mask == 0 {
		return
	}
	k := int(in.NDst)
	a := w.Operand(in.Src(0), 0, mask, now)
	x := a[bits.TrailingZeros32(mask)] & m32
	var r Vec
	fill(&r, x)
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if k < 2 {
		return
	}
	var diff uint32
	for l := 0; l < Lanes; l++ {
		if a[l]&m32 != x {
			diff |= 1 << l
		}
	}
	d := in.Dst(1)
	if in.Mode == 1 && d.Kind == isa.KPred {
		diff |= w.PredOperand(d)
	}
	w.setPredDst(d, mask, diff)
}

// svote is VOTE / VOTEU d, p, a: d the ballot of a over the active lanes, p
// whether all, any or none-or-all of them hold a.
func (w *Warp) svote(in *isa.Instr, mask uint32) {
	ball := w.PredOperand(in.Src(0)) & mask
	var r Vec
	fill(&r, uint64(ball))
	w.Write(in.Dst(0), mask, &r, isa.B32)
	var v bool
	switch in.Mode {
	case isa.SVoteAll:
		v = ball == mask
	case isa.SVoteAny:
		v = ball != 0
	case isa.SVoteEq:
		v = ball == 0 || ball == mask
	}
	p := uint32(0)
	if v {
		p = FullMask
	}
	w.setPredDst(in.Dst(1), mask, p)
}

// elect is ELECT p, d, a: p holds in the first active lane with a, d (a
// uniform register) is its lane number.
func (w *Warp) elect(in *isa.Instr, mask uint32) {
	members := mask & w.PredOperand(in.Src(0))
	leader := bits.TrailingZeros32(members)
	var one uint32
	if members != 0 {
		one = 1 << leader
	}
	w.setPredDst(in.Dst(0), mask, one)
	var r Vec
	fill(&r, uint64(leader&31))
	w.Write(in.Dst(1), mask, &r, isa.U32)
}

// qspc is QSPC.E.S p, a: whether the generic address a lies in Space.
func (w *Warp) qspc(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	var p uint32
	for l := 0; l < Lanes; l++ {
		if genericSpace(a[l]) == in.Space {
			p |= 1 << l
		}
	}
	w.setPredDst(in.Dst(0), mask, p)
}

// genericSpace is the state space a generic address lies in (isa's windows).
func genericSpace(v uint64) isa.Space {
	switch {
	case v >= isa.SharedWindow && v < isa.SharedWindow+isa.WindowSize:
		return isa.Shared
	case v >= isa.LocalWindow && v < isa.LocalWindow+isa.WindowSize:
		return isa.Local
	case v >= isa.ParamWindow && v < isa.ParamWindow+isa.WindowSize:
		return isa.ParamSpace
	}
	return isa.Global
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
