package warp

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// UnsupportedError says the executor has no semantics for an instruction form.
type UnsupportedError struct {
	Instr *isa.Instr
	What  string
}

func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s: unsupported instruction %s (%s)", e.Instr.Pos, e.Instr.Op, e.What)
}

// ExecALU executes a register-to-register instruction (arithmetic, logic,
// comparison, selection, conversion, special-register reads) for the lanes of
// mask. Memory, barrier, control and warp-collective instructions are not
// handled here.
func (w *Warp) ExecALU(in *isa.Instr, mask uint32, now uint64) error {
	if mask == FullMask && w.inPlace(in) {
		return nil
	}
	if isSASSALU(in.Op) {
		return w.execSASS(in, mask, now)
	}
	if (in.Type.Float() || in.Type2.Float()) && w.fastFloat(in, mask, now) {
		return nil
	}
	if ok, err := w.execExact(in, mask, now); ok {
		return err
	}
	var r Vec
	t := in.Type
	switch in.Op {
	case isa.OpMov, isa.OpCvta:
		if in.Dst(0).Kind == isa.KPred {
			w.SetPred(in.Dst(0).Reg, mask, w.PredOperand(in.Src(0)))
			return nil
		}
		w.Write(in.Dst(0), mask, w.Operand(in.Src(0), 0, mask, now), t)
		return nil
	case isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpNot:
		if t == isa.Pred {
			return w.predLogic(in, mask)
		}
		w.binary(in, mask, now, &r)
	case isa.OpAdd, isa.OpSub, isa.OpMin, isa.OpMax, isa.OpShl, isa.OpShr, isa.OpDiv, isa.OpRem, isa.OpCopysign:
		w.binary(in, mask, now, &r)
	case isa.OpMul, isa.OpMad, isa.OpFma, isa.OpMul24, isa.OpMad24:
		w.mulAdd(in, mask, now, &r)
		if !t.Float() && (in.Flags.Has(isa.FWide)) {
			w.Write(in.Dst(0), mask, &r, wideType(t))
			return nil
		}
	case isa.OpAbs, isa.OpNeg, isa.OpCnot, isa.OpPopc, isa.OpClz, isa.OpBrev, isa.OpBfind,
		isa.OpRcp, isa.OpSqrt, isa.OpRsqrt, isa.OpSin, isa.OpCos, isa.OpLg2, isa.OpEx2, isa.OpTanh:
		if err := w.unary(in, mask, now, &r); err != nil {
			return err
		}
		if in.Op == isa.OpPopc || in.Op == isa.OpClz || in.Op == isa.OpBfind {
			w.Write(in.Dst(0), mask, &r, isa.U32)
			return nil
		}
	case isa.OpSetp, isa.OpSet:
		return w.compare(in, mask, now)
	case isa.OpSelp, isa.OpSlct:
		w.selp(in, mask, now, &r)
	case isa.OpCvt:
		w.convert(in, mask, now, &r)
	case isa.OpBfe, isa.OpBfi, isa.OpPrmt, isa.OpLop3, isa.OpShf, isa.OpSad, isa.OpDp4a, isa.OpDp2a:
		if err := w.bitOps(in, mask, now, &r); err != nil {
			return err
		}
	case isa.OpNop, isa.OpFence, isa.OpGriddepctl, isa.OpPrefetch:
		return nil
	default:
		return &UnsupportedError{Instr: in, What: "not an ALU operation"}
	}
	w.Write(in.Dst(0), mask, &r, t)
	return nil
}

// inPlace is the fast path of the commonest integer instructions of a
// converged warp: add/sub/and/or/xor with an immediate, and mul.lo/mad.lo
// with an immediate multiplier, computed straight into the destination
// register (lane l reads its sources before writing lane l, so a destination
// that is also a source is safe). It reports whether it handled in.
func (w *Warp) inPlace(in *isa.Instr) bool {
	if !inPlaceForm(in, w.uniR) {
		return false
	}
	r, a, imm := &w.regs[in.Ops[0].Reg], &w.regs[in.Ops[1].Reg], inPlaceImm(in)
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor:
		binaryImm(in.Op, a, imm, r)
	case isa.OpMul:
		mulImmV(a, imm, r)
	default: // mad
		if c := in.Ops[3]; c.Kind == isa.KImm {
			madImmImmV(a, imm, c.Imm, r)
		} else {
			madImmV(a, imm, &w.regs[c.Reg], r)
		}
	}
	if m := widthMask(in.Type); m != ^uint64(0) {
		maskV(r, m)
	}
	return true
}

// inPlaceForm reports whether in is one of inPlace's forms in a program
// whose uniform registers start at uniR: an integer add, sub, and, or, xor,
// mul.lo or mad.lo of a register and an immediate (and, for mad, an
// immediate or a plain register) into a plain, non-uniform register; also
// the three-input add of a register and two immediates (compiler.FuseAdds),
// whose immediates inPlaceImm sums.
func inPlaceForm(in *isa.Instr, uniR int32) bool {
	t := in.Type
	if in.NDst != 1 || t.Float() || t == isa.Pred || in.Flags&(isa.FCarryIn|isa.FCC|isa.FSat|isa.FHi|isa.FWide) != 0 ||
		len(in.Ops) < 3 || in.Ops[0].Kind != isa.KReg || in.Ops[1].Kind != isa.KReg || in.Ops[2].Kind != isa.KImm ||
		in.Ops[0].Mod != 0 || in.Ops[1].Mod != 0 || in.Ops[0].Reg >= uniR {
		return false
	}
	switch in.Op {
	case isa.OpAdd:
		return len(in.Ops) == 3 || len(in.Ops) == 4 && in.Ops[3].Kind == isa.KImm
	case isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpMul:
		return len(in.Ops) == 3
	case isa.OpMad:
		if len(in.Ops) != 4 {
			return false
		}
		c := in.Ops[3]
		return c.Kind == isa.KImm || c.Kind == isa.KReg && c.Mod == 0
	}
	return false
}

// inPlaceImm is the immediate of one of inPlaceForm's instructions: the
// sum of a three-input add's two (the width mask applies after the sum).
func inPlaceImm(in *isa.Instr) uint64 {
	if in.Op == isa.OpAdd && len(in.Ops) == 4 {
		return in.Ops[2].Imm + in.Ops[3].Imm
	}
	return in.Ops[2].Imm
}

func wideType(t isa.Type) isa.Type {
	switch t {
	case isa.U16:
		return isa.U32
	case isa.S16:
		return isa.S32
	case isa.U32:
		return isa.U64
	case isa.S32:
		return isa.S64
	}
	return isa.B64
}

func (w *Warp) predLogic(in *isa.Instr, mask uint32) error {
	a := w.PredOperand(in.Src(0))
	var v uint32
	switch in.Op {
	case isa.OpNot:
		v = ^a
	case isa.OpAnd:
		v = a & w.PredOperand(in.Src(1))
	case isa.OpOr:
		v = a | w.PredOperand(in.Src(1))
	case isa.OpXor:
		v = a ^ w.PredOperand(in.Src(1))
	}
	w.SetPred(in.Dst(0).Reg, mask, v)
	return nil
}

func (w *Warp) binary(in *isa.Instr, mask uint32, now uint64, r *Vec) {
	t := in.Type
	a := w.Operand(in.Src(0), 0, mask, now)
	if in.Op == isa.OpAdd && in.NSrc() == 3 { // a three-input add (compiler.FuseAdds: ptxas's IADD3)
		b, c := w.Operand(in.Src(1), 1, mask, now), w.Operand(in.Src(2), 2, mask, now)
		for l := range r {
			r[l] = a[l] + b[l] + c[l]
		}
		return
	}
	if in.Op == isa.OpNot {
		for l := range r {
			r[l] = ^a[l]
		}
		return
	}
	if bo := in.Src(1); bo.Kind == isa.KImm && !t.Float() && in.Flags&(isa.FCarryIn|isa.FCC|isa.FSat) == 0 &&
		binaryImm(in.Op, a, bo.Imm, r) {
		return
	}
	b := w.Operand(in.Src(1), 1, mask, now)
	if t.Float() {
		w.floatBinary(in, a, b, r)
		return
	}
	n := t.Bits()
	switch in.Op {
	case isa.OpAdd:
		if in.Flags.Has(isa.FCarryIn) || in.Flags.Has(isa.FCC) {
			w.addCarry(in, mask, a, b, r)
			return
		}
		addV(a, b, r)
		if in.Flags.Has(isa.FSat) && t == isa.S32 {
			for l := range r {
				r[l] = sat32(int64(int32(a[l])) + int64(int32(b[l])))
			}
		}
	case isa.OpSub:
		if in.Flags.Has(isa.FCarryIn) || in.Flags.Has(isa.FCC) {
			w.subCarry(in, mask, a, b, r)
			return
		}
		subV(a, b, r)
		if in.Flags.Has(isa.FSat) && t == isa.S32 {
			for l := range r {
				r[l] = sat32(int64(int32(a[l])) - int64(int32(b[l])))
			}
		}
	case isa.OpAnd:
		andV(a, b, r)
	case isa.OpOr:
		orV(a, b, r)
	case isa.OpXor:
		xorV(a, b, r)
	case isa.OpShl:
		for l := range r {
			s := b[l] & 0xffffffff
			if s >= uint64(n) {
				r[l] = 0
			} else {
				r[l] = a[l] << s
			}
		}
	case isa.OpShr:
		for l := range r {
			s := b[l] & 0xffffffff
			if s >= uint64(n) {
				s = uint64(n - 1)
				if !t.Signed() {
					r[l] = 0
					continue
				}
			}
			if t.Signed() {
				r[l] = uint64(sext(a[l], n) >> s)
			} else {
				r[l] = ival(a[l], t) >> s
			}
		}
	case isa.OpMin, isa.OpMax:
		for l := range r {
			x, y := ival(a[l], t), ival(b[l], t)
			less := x < y
			if t.Signed() {
				less = int64(x) < int64(y)
			}
			if less == (in.Op == isa.OpMin) {
				r[l] = x
			} else {
				r[l] = y
			}
		}
	case isa.OpDiv, isa.OpRem:
		for l := range r {
			r[l] = divRem(in.Op, ival(a[l], t), ival(b[l], t), t)
		}
	}
}

// binaryImm is the fast path of the commonest integer operations with an
// immediate second operand (no staging of the immediate into a vector). It
// reports whether it handled the operation.
func binaryImm(op isa.Op, a *Vec, imm uint64, r *Vec) bool {
	switch op {
	case isa.OpAdd:
		addImmV(a, imm, r)
	case isa.OpSub:
		subImmV(a, imm, r)
	case isa.OpAnd:
		andImmV(a, imm, r)
	case isa.OpOr:
		orImmV(a, imm, r)
	case isa.OpXor:
		xorImmV(a, imm, r)
	default:
		return false
	}
	return true
}

func sat32(v int64) uint64 {
	if v > math.MaxInt32 {
		v = math.MaxInt32
	} else if v < math.MinInt32 {
		v = math.MinInt32
	}
	return uint64(uint32(int32(v)))
}

func (w *Warp) addCarry(in *isa.Instr, mask uint32, a, b, r *Vec) {
	n := uint(in.Type.Bits())
	for l := range r {
		var cin uint64
		if in.Flags.Has(isa.FCarryIn) {
			cin = uint64(w.carry >> l & 1)
		}
		x, y := ival(a[l], in.Type), ival(b[l], in.Type)
		var s, c uint64
		if n == 64 {
			s, c = bits.Add64(x, y, cin)
		} else {
			s = x + y + cin
			c = s >> n & 1
		}
		r[l] = s
		if in.Flags.Has(isa.FCC) && mask>>l&1 != 0 {
			w.carry = w.carry&^(1<<l) | uint32(c)<<l
		}
	}
}

func (w *Warp) subCarry(in *isa.Instr, mask uint32, a, b, r *Vec) {
	n := uint(in.Type.Bits())
	for l := range r {
		var bin uint64
		if in.Flags.Has(isa.FCarryIn) {
			bin = uint64(w.carry >> l & 1)
		}
		x, y := ival(a[l], in.Type), ival(b[l], in.Type)
		var d, c uint64
		if n == 64 {
			d, c = bits.Sub64(x, y, bin)
		} else {
			d = x - y - bin
			c = d >> n & 1
		}
		r[l] = d
		if in.Flags.Has(isa.FCC) && mask>>l&1 != 0 {
			w.carry = w.carry&^(1<<l) | uint32(c)<<l
		}
	}
}

// divRem follows PTX: division by zero gives all ones for unsigned types and
// the hardware's values for signed ones; it never traps.
func divRem(op isa.Op, x, y uint64, t isa.Type) uint64 {
	if y == 0 {
		if op == isa.OpDiv {
			return ^uint64(0)
		}
		return x
	}
	if t.Signed() {
		a, b := int64(x), int64(y)
		if b == -1 {
			if op == isa.OpDiv {
				return uint64(-a)
			}
			return 0
		}
		if op == isa.OpDiv {
			return uint64(a / b)
		}
		return uint64(a % b)
	}
	if op == isa.OpDiv {
		return x / y
	}
	return x % y
}
