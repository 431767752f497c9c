package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// SASS operations on predicates and on the warp as a whole: truth tables,
// chained comparisons, votes, elections, moves to the uniform file.

// lut3 is a three-input truth table (lop3) as eight masks, all ones where
// its bit is set: minterm a<<2 | b<<1 | c is mask m[a<<2|b<<1|c].
type lut3 [8]uint64

// lutOf expands truth table t, once per instruction rather than per lane.
func lutOf(t uint8) lut3 {
	var m lut3
	for i := range m {
		m[i] = -(uint64(t) >> i & 1)
	}
	return m
}

// apply applies the table bitwise, without branches: the four minterms of
// a and b, each under its table bits for c set and for c clear.
func (m *lut3) apply(a, b, c uint64) uint64 {
	ab, aNb, nAb, nAnB := a&b, a&^b, ^a&b, ^(a | b)
	set := ab&m[7] | aNb&m[5] | nAb&m[3] | nAnB&m[1]
	clear := ab&m[6] | aNb&m[4] | nAb&m[2] | nAnB&m[0]
	return c&set | ^c&clear
}

// lut64 applies truth table t to a, b and c bitwise: table bit
// a<<2 | b<<1 | c gives the result for those input bits.
func lut64(t uint8, a, b, c uint64) uint64 {
	m := lutOf(t)
	return m.apply(a, b, c)
}

func lut32(t uint8, a, b, c uint32) uint32 {
	return uint32(lut64(t, uint64(a), uint64(b), uint64(c)))
}

// lop3 is LOP3.LUT d[, p], a, b, c, lut, pin: p = (d != 0) OR pin.
func (w *Warp) lop3(in *isa.Instr, mask uint32, now uint64) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	t := lutOf(uint8(in.Src(3).Imm))
	var r Vec
	var nz uint32
	for l := range r {
		r[l] = t.apply(a[l], b[l], c[l]) & m32
		if r[l] != 0 {
			nz |= 1 << l
		}
	}
	w.Write(in.Dst(0), mask, &r, isa.B32)
	if in.NDst > 1 {
		w.setPredDst(in.Dst(1), mask, nz|w.PredOperand(in.Src(4)))
	}
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
