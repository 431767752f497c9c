package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// cmpInt compares two integers already extended to 64 bits.
func cmpInt(op isa.CmpOp, x, y uint64, signed bool) bool {
	u, flip := unsignedForm(op, signed)
	x, y = x^flip, y^flip
	switch u {
	case uEq:
		return x == y
	case uNe:
		return x != y
	case uLt:
		return x < y
	case uLe:
		return x <= y
	case uGt:
		return x > y
	case uGe:
		return x >= y
	}
	return false
}

func cmpFloat(op isa.CmpOp, x, y float64) bool {
	nan := math.IsNaN(x) || math.IsNaN(y)
	switch op {
	case isa.CmpEq:
		return !nan && x == y
	case isa.CmpNe:
		return !nan && x != y
	case isa.CmpLt:
		return !nan && x < y
	case isa.CmpLe:
		return !nan && x <= y
	case isa.CmpGt:
		return !nan && x > y
	case isa.CmpGe:
		return !nan && x >= y
	case isa.CmpEqu:
		return nan || x == y
	case isa.CmpNeu:
		return nan || x != y
	case isa.CmpLtu:
		return nan || x < y
	case isa.CmpLeu:
		return nan || x <= y
	case isa.CmpGtu:
		return nan || x > y
	case isa.CmpGeu:
		return nan || x >= y
	case isa.CmpNum:
		return !nan
	case isa.CmpNan:
		return nan
	}
	return false
}

// An integer comparison in unsigned form: signed orders become unsigned ones
// once both sides have the sign bit flipped (x ^ 1<<63), and the explicitly
// unsigned lo/ls/hi/hs are lt/le/gt/ge without the flip.
type ucmp uint8

const (
	uNone ucmp = iota
	uEq
	uNe
	uLt
	uLe
	uGt
	uGe
)

// unsignedForm returns the comparison and the bits to flip on both operands.
func unsignedForm(op isa.CmpOp, signed bool) (ucmp, uint64) {
	var flip uint64
	if signed {
		flip = 1 << 63
	}
	switch op {
	case isa.CmpEq:
		return uEq, 0
	case isa.CmpNe:
		return uNe, 0
	case isa.CmpLt:
		return uLt, flip
	case isa.CmpLe:
		return uLe, flip
	case isa.CmpGt:
		return uGt, flip
	case isa.CmpGe:
		return uGe, flip
	case isa.CmpLo:
		return uLt, 0
	case isa.CmpLs:
		return uLe, 0
	case isa.CmpHi:
		return uGt, 0
	case isa.CmpHs:
		return uGe, 0
	}
	return uNone, 0
}

// extendLanes writes every lane of a, extended from the type's width and
// flipped, to x: the switch on signedness is taken once, not per lane.
func extendLanes(a *Vec, e ext, flip uint64, x *Vec) {
	sh := e.shift
	if e.signed {
		for l := range x {
			x[l] = uint64(int64(a[l]<<sh)>>sh) ^ flip
		}
		return
	}
	for l := range x {
		x[l] = a[l]<<sh>>sh ^ flip
	}
}

// cmpShifted compares a[l]<<sh^flip with b[l]<<sh^flip (unsigned) in every
// lane, four lanes a step and without branches. Shifted left by sh (64 less
// the type's width) an integer keeps its order, signed or unsigned, and
// loses the bits above its width: the same order as its extension, without
// staging it. Packed compares do it where the host has them
// (cmpShiftedWide).
func cmpShifted(u ucmp, a, b *Vec, sh uint, flip uint64) uint32 {
	if r, ok := cmpShiftedWide(u, a, b, sh, flip); ok {
		return r
	}
	return cmpShiftedLanes(u, a, b, sh, flip)
}

// cmpShiftedLanes is cmpShifted four lanes a step in Go.
func cmpShiftedLanes(u ucmp, a, b *Vec, sh uint, flip uint64) uint32 {
	var res uint32
	switch u {
	case uEq:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh == b[l]<<sh)<<l | bit(a[l+1]<<sh == b[l+1]<<sh)<<(l+1) |
				bit(a[l+2]<<sh == b[l+2]<<sh)<<(l+2) | bit(a[l+3]<<sh == b[l+3]<<sh)<<(l+3)
		}
	case uNe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh != b[l]<<sh)<<l | bit(a[l+1]<<sh != b[l+1]<<sh)<<(l+1) |
				bit(a[l+2]<<sh != b[l+2]<<sh)<<(l+2) | bit(a[l+3]<<sh != b[l+3]<<sh)<<(l+3)
		}
	case uLt:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh^flip < b[l]<<sh^flip)<<l | bit(a[l+1]<<sh^flip < b[l+1]<<sh^flip)<<(l+1) |
				bit(a[l+2]<<sh^flip < b[l+2]<<sh^flip)<<(l+2) | bit(a[l+3]<<sh^flip < b[l+3]<<sh^flip)<<(l+3)
		}
	case uLe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh^flip <= b[l]<<sh^flip)<<l | bit(a[l+1]<<sh^flip <= b[l+1]<<sh^flip)<<(l+1) |
				bit(a[l+2]<<sh^flip <= b[l+2]<<sh^flip)<<(l+2) | bit(a[l+3]<<sh^flip <= b[l+3]<<sh^flip)<<(l+3)
		}
	case uGt:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh^flip > b[l]<<sh^flip)<<l | bit(a[l+1]<<sh^flip > b[l+1]<<sh^flip)<<(l+1) |
				bit(a[l+2]<<sh^flip > b[l+2]<<sh^flip)<<(l+2) | bit(a[l+3]<<sh^flip > b[l+3]<<sh^flip)<<(l+3)
		}
	case uGe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(a[l]<<sh^flip >= b[l]<<sh^flip)<<l | bit(a[l+1]<<sh^flip >= b[l+1]<<sh^flip)<<(l+1) |
				bit(a[l+2]<<sh^flip >= b[l+2]<<sh^flip)<<(l+2) | bit(a[l+3]<<sh^flip >= b[l+3]<<sh^flip)<<(l+3)
		}
	}
	return res
}

// cmpMaskImm compares x[l]^flip with y (unsigned) in every lane.
func cmpMaskImm(u ucmp, x *Vec, flip, y uint64) uint32 {
	var res uint32
	switch u {
	case uEq:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip == y)<<l | bit(x[l+1]^flip == y)<<(l+1) | bit(x[l+2]^flip == y)<<(l+2) | bit(x[l+3]^flip == y)<<(l+3)
		}
	case uNe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip != y)<<l | bit(x[l+1]^flip != y)<<(l+1) | bit(x[l+2]^flip != y)<<(l+2) | bit(x[l+3]^flip != y)<<(l+3)
		}
	case uLt:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip < y)<<l | bit(x[l+1]^flip < y)<<(l+1) | bit(x[l+2]^flip < y)<<(l+2) | bit(x[l+3]^flip < y)<<(l+3)
		}
	case uLe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip <= y)<<l | bit(x[l+1]^flip <= y)<<(l+1) | bit(x[l+2]^flip <= y)<<(l+2) | bit(x[l+3]^flip <= y)<<(l+3)
		}
	case uGt:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip > y)<<l | bit(x[l+1]^flip > y)<<(l+1) | bit(x[l+2]^flip > y)<<(l+2) | bit(x[l+3]^flip > y)<<(l+3)
		}
	case uGe:
		for l := 0; l < Lanes; l += 4 {
			res |= bit(x[l]^flip >= y)<<l | bit(x[l+1]^flip >= y)<<(l+1) | bit(x[l+2]^flip >= y)<<(l+2) | bit(x[l+3]^flip >= y)<<(l+3)
		}
	}
	return res
}

// bit is 1 for true, 0 for false (the compiler makes it a SETcc, no branch).
func bit(b bool) uint32 {
	var v uint32
	if b {
		v = 1
	}
	return v
}

// cmpLanes compares integers of all lanes.
func cmpLanes(op isa.CmpOp, a, b *Vec, e ext) uint32 {
	u, flip := unsignedForm(op, e.signed)
	if u == uNone {
		return 0 // not an integer comparison (cmpInt is false for it too)
	}
	return cmpShifted(u, a, b, e.shift, flip)
}

// cmpLanesImm compares every lane's integer with an immediate.
func cmpLanesImm(op isa.CmpOp, a *Vec, imm uint64, e ext) uint32 {
	u, flip := unsignedForm(op, e.signed)
	if u == uNone {
		return 0
	}
	if e.shift == 0 { // 64-bit: no extension, the flip is folded into the comparison
		return cmpMaskImm(u, a, flip, imm^flip)
	}
	var x Vec
	extendLanes(a, e, flip, &x)
	return cmpMaskImm(u, &x, 0, e.of(imm)^flip)
}

// compare executes setp (one or two predicate results) and set.
func (w *Warp) compare(in *isa.Instr, mask uint32, now uint64) error {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	var res uint32
	if bo := in.Src(1); bo.Kind == isa.KImm && !t.Float() && in.NDst == 1 && in.Op == isa.OpSetp {
		res = cmpLanesImm(in.Cmp, a, bo.Imm, extOf(t))
		if in.Bool != isa.BoolNone {
			res = combine(in.Bool, res, w.PredOperand(in.Src(2)))
		}
		if d := in.Dst(0); d.Kind == isa.KPred {
			w.SetPred(d.Reg, mask, res)
		}
		return nil
	}
	b := w.Operand(in.Src(1), 1, mask, now)
	if t.Float() {
		for l := 0; l < Lanes; l++ {
			if cmpFloat(in.Cmp, fval(a[l], t), fval(b[l], t)) {
				res |= 1 << l
			}
		}
	} else {
		res = cmpLanes(in.Cmp, a, b, extOf(t))
	}
	if in.Bool != isa.BoolNone {
		c := w.PredOperand(in.Src(2))
		switch in.Bool {
		case isa.BoolAnd:
			res &= c
		case isa.BoolOr:
			res |= c
		case isa.BoolXor:
			res ^= c
		}
	}
	if in.Op == isa.OpSetp {
		if d := in.Dst(0); d.Kind == isa.KPred {
			w.SetPred(d.Reg, mask, res)
		}
		if in.NDst > 1 {
			if d := in.Dst(1); d.Kind == isa.KPred {
				comp := ^res
				if in.Bool != isa.BoolNone { // the complement is of the comparison, then combined
					comp = w.setpComplement(in, res, mask, now)
				}
				w.SetPred(d.Reg, mask, comp)
			}
		}
		return nil
	}
	var r Vec
	dt := in.Type2 // set.dtype.stype: Type2 holds the destination type
	if dt == isa.TNone {
		dt = isa.U32
	}
	for l := range r {
		on := res>>l&1 != 0
		switch {
		case dt == isa.F32:
			if on {
				r[l] = uint64(math.Float32bits(1))
			}
		case on:
			r[l] = widthMask(dt)
		}
	}
	w.Write(in.Dst(0), mask, &r, dt)
	return nil
}

// setpComplement computes q = !(a cmp b) BOOL c for setp with two results.
func (w *Warp) setpComplement(in *isa.Instr, res, mask uint32, now uint64) uint32 {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	var cmp uint32
	for l := 0; l < Lanes; l++ {
		var c bool
		if t.Float() {
			c = cmpFloat(in.Cmp, fval(a[l], t), fval(b[l], t))
		} else {
			c = cmpInt(in.Cmp, ival(a[l], t), ival(b[l], t), t.Signed())
		}
		if !c {
			cmp |= 1 << l
		}
	}
	c := w.PredOperand(in.Src(2))
	switch in.Bool {
	case isa.BoolAnd:
		return cmp & c
	case isa.BoolOr:
		return cmp | c
	}
	return cmp ^ c
}

func (w *Warp) selp(in *isa.Instr, mask uint32, now uint64, r *Vec) {
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	if in.Op == isa.OpSelp {
		p := w.PredOperand(in.Src(2))
		for l := range r {
			if p>>l&1 != 0 {
				r[l] = a[l]
			} else {
				r[l] = b[l]
			}
		}
		return
	}
	c := w.Operand(in.Src(2), 2, mask, now) // slct: c >= 0 selects a
	for l := range r {
		var ge bool
		if in.Type2 == isa.F32 {
			ge = math.Float32frombits(uint32(c[l])) >= 0
		} else {
			ge = int32(c[l]) >= 0
		}
		if ge {
			r[l] = a[l]
		} else {
			r[l] = b[l]
		}
	}
}
