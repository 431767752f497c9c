package sass

import (
	"fmt"
	"math"

	"github.com/smsim/smsim/isa"
)

// lowerer lowers the instructions of one function.
type lowerer struct {
	m    *Module
	fn   *Function
	prog *isa.Program
	idx  int          // index of the instruction being lowered
	in   *Instruction // the instruction being lowered
	out  *isa.Instr
	// pairedInc marks the ARRIVES whose SYNCS ... RED.A0T1 went before:
	// together they are cp.async.mbarrier.arrive without .noinc.
	pairedInc map[int]bool
	table     map[string]lowerFn
}

// errUnsupported is the error of an instruction form smsim does not run.
type errUnsupported struct{ what string }

func (e errUnsupported) Error() string { return e.what }

// unsupported reports the current instruction as not runnable.
func (l *lowerer) unsupported(format string, args ...any) error {
	return l.m.errAt(l.in, "unsupported SASS instruction %s at 0x%x in %s: %s", l.in.Mnemonic, l.in.Addr, l.fn.Name,
		fmt.Sprintf(format, args...))
}

// bad reports a malformed operand list of the current instruction.
func (l *lowerer) bad(format string, args ...any) error {
	return l.m.errAt(l.in, "%s at 0x%x: %s", l.in.Mnemonic, l.in.Addr, fmt.Sprintf(format, args...))
}

// operand kinds a lowering asks for.
type want uint8

const (
	wInt  want = iota // a 32-bit integer value: R, UR, RZ, immediate, constant
	wF32              // an f32 value: float immediates as f32 bits, -R flips the sign
	wF64              // an f64 value in a register pair (immediates: the double)
	wH2               // an f16x2 value: .H0_H0 selects, -R flips both signs
	wBF2              // a bf16x2 value
	wPair             // a 64-bit integer in a register pair
	wHalf             // an f16 value in the low 16 bits (.H1 selects the high half)
)

// src converts source operand o for a value of kind k.
func (l *lowerer) src(o *Operand, k want) (isa.Operand, error) {
	switch o.Kind {
	case KindReg:
		return l.srcReg(o, k)
	case KindInt:
		v := uint64(uint32(o.Int))
		switch k {
		case wPair:
			v = uint64(o.Int)
		case wF64:
			v = uint64(uint32(o.Int)) << 32 // a 32-bit f64 immediate is the double's high word
		}
		return isa.Imm(v), nil
	case KindFloat:
		return l.floatImm(o, k)
	case KindConst:
		return l.constant(o, k)
	case KindSpecial:
		if o.Name == "SRZ" {
			return isa.Imm(0), nil
		}
	}
	return isa.Operand{}, l.bad("operand %s cannot be a source here", o.String())
}

// srcReg converts a register source with its modifiers.
func (l *lowerer) srcReg(o *Operand, k want) (isa.Operand, error) {
	r := o.Reg
	switch r.File {
	case Pred, UPred:
		return l.pred(o), nil
	case GPR, UGPR:
	default:
		return isa.Operand{}, l.bad("register %s cannot be a source here", r.String())
	}
	var op isa.Operand
	if r.IsZero() {
		op = isa.Imm(0)
	} else {
		op = isa.R(regIndex(r))
	}
	pair := k == wF64 || k == wPair
	if pair && !r.IsZero() {
		op.Mod |= isa.MPair
	}
	switch o.Suffix {
	case "", ".64":
	case ".H0_H0":
		op.Mod |= isa.MH0H0
	case ".H1_H1":
		op.Mod |= isa.MH1H1
	case ".H1":
		op.Mod |= isa.MH1
	case ".H0":
	default:
		return isa.Operand{}, l.unsupported("operand suffix %s", o.Suffix)
	}
	neg, abs, not := o.Mods&ModNeg != 0, o.Mods&ModAbs != 0, o.Mods&ModNot != 0
	if r.IsZero() {
		// -RZ is a negative zero for floats (HADD2.F32 R, -RZ, R.H0_H0 converts) and zero for integers.
		if neg {
			switch k {
			case wF32:
				return isa.Imm(0x80000000), nil
			case wF64:
				return isa.Imm(1 << 63), nil
			case wH2, wBF2:
				return isa.Imm(0x80008000), nil
			case wHalf:
				return isa.Imm(0x8000), nil
			}
		}
		if not {
			if pair {
				return isa.Imm(^uint64(0)), nil
			}
			return isa.Imm(0xffffffff), nil
		}
		return op, nil
	}
	switch k {
	case wF32, wF64:
		if abs {
			op.Mod |= isa.MFAbs
		}
		if neg {
			op.Mod |= isa.MFNeg
		}
	case wH2, wBF2, wHalf:
		if abs {
			op.Mod |= isa.MHAbs
		}
		if neg {
			op.Mod |= isa.MHNeg
		}
	default:
		if abs {
			return isa.Operand{}, l.unsupported("|%s| of an integer", r.String())
		}
		if neg {
			op.Mod |= isa.MNeg
		}
	}
	if not {
		op.Mod |= isa.MNot
	}
	return op, nil
}

// regIndex is the isa register of a GPR or UGPR.
func regIndex(r Reg) int {
	if r.File == UGPR {
		return urBase + int(r.Num)
	}
	return int(r.Num)
}

// pred converts a predicate source: PT reads true, !PT false.
func (l *lowerer) pred(o *Operand) isa.Operand {
	not := o.Mods&ModLNot != 0
	if o.Reg.IsTrue() {
		if not {
			return isa.Imm(0)
		}
		return isa.Imm(1)
	}
	n := int(o.Reg.Num)
	if o.Reg.File == UPred {
		n += upBase
	}
	if not {
		return isa.NotP(n)
	}
	return isa.P(n)
}

// predSrc converts operand o, which must be a predicate.
func (l *lowerer) predSrc(o *Operand) (isa.Operand, error) {
	if o.Kind != KindReg || (o.Reg.File != Pred && o.Reg.File != UPred) {
		return isa.Operand{}, l.bad("operand %s: want a predicate", o.String())
	}
	return l.pred(o), nil
}

// dst converts a register destination (a pair when pair is set); RZ and
// URZ are sinks.
func (l *lowerer) dst(o *Operand, pair bool) (isa.Operand, error) {
	if o.Kind != KindReg || (o.Reg.File != GPR && o.Reg.File != UGPR) || o.Mods&^ModReuse != 0 {
		return isa.Operand{}, l.bad("operand %s: want a register destination", o.String())
	}
	if o.Reg.IsZero() {
		return isa.Sink(), nil
	}
	d := isa.R(regIndex(o.Reg))
	if pair {
		if o.Reg.Num%2 != 0 || (o.Reg.File == GPR && o.Reg.Num >= RZ-1) || (o.Reg.File == UGPR && o.Reg.Num >= URZ-1) {
			return isa.Operand{}, l.bad("%s cannot hold a 64-bit value: a pair starts at an even register", o.Reg.String())
		}
		d.Mod = isa.MPair
	}
	return d, nil
}

// predDst converts a predicate destination; PT and UPT are sinks.
func (l *lowerer) predDst(o *Operand) (isa.Operand, error) {
	if o.Kind != KindReg || (o.Reg.File != Pred && o.Reg.File != UPred) || o.Mods&^ModReuse != 0 {
		return isa.Operand{}, l.bad("operand %s: want a predicate destination", o.String())
	}
	if o.Reg.IsTrue() {
		return isa.Sink(), nil
	}
	n := int(o.Reg.Num)
	if o.Reg.File == UPred {
		n += upBase
	}
	return isa.P(n), nil
}

// isPred reports whether o is a predicate register.
func isPred(o *Operand) bool {
	return o.Kind == KindReg && (o.Reg.File == Pred || o.Reg.File == UPred)
}

// constant converts c[BANK][R+OFF] (8 bytes for pair kinds).
func (l *lowerer) constant(o *Operand, k want) (isa.Operand, error) {
	if o.Desc.Valid() {
		return isa.Operand{}, l.unsupported("constant operand %s with a bank register", o.String())
	}
	op := isa.Operand{Kind: isa.KConst, Bank: o.Bank, Reg: -1, Imm: uint64(o.Int)}
	if o.Reg.Valid() && !o.Reg.IsZero() {
		if o.Reg.File != GPR && o.Reg.File != UGPR {
			return isa.Operand{}, l.bad("constant index %s is not a register", o.Reg.String())
		}
		op.Reg = int32(regIndex(o.Reg))
	}
	if k == wF64 || k == wPair {
		op.Mod |= isa.MPair
	}
	switch {
	case o.Mods&ModNeg != 0 && (k == wF32 || k == wF64):
		op.Mod |= isa.MFNeg
	case o.Mods&ModNeg != 0 && (k == wH2 || k == wBF2):
		op.Mod |= isa.MHNeg
	case o.Mods&ModNeg != 0:
		op.Mod |= isa.MNeg
	}
	if o.Mods&ModAbs != 0 {
		op.Mod |= isa.MFAbs
	}
	if o.Mods&ModNot != 0 {
		op.Mod |= isa.MNot
	}
	return op, nil
}

// floatImm converts a float literal for kind k.
func (l *lowerer) floatImm(o *Operand, k want) (isa.Operand, error) {
	f := o.Float
	neg := o.Mods&ModNeg != 0
	if neg {
		f = -f
	}
	switch k {
	case wF32, wInt:
		if math.IsNaN(f) {
			return isa.Imm(0x7fffffff), nil
		}
		return isa.Imm(uint64(math.Float32bits(float32(f)))), nil
	case wF64:
		if math.IsNaN(f) {
			return isa.Imm(0x7fffffff_00000000), nil
		}
		return isa.Imm(math.Float64bits(f)), nil
	case wHalf:
		return isa.Imm(uint64(f16Bits(f))), nil
	}
	return isa.Operand{}, l.bad("float immediate %s is not allowed here", o.String())
}

// f16Bits encodes f as IEEE half (round to nearest even).
func f16Bits(f float64) uint16 {
	if math.IsNaN(f) {
		return 0x7fff
	}
	return halfOf(f)
}

// mem converts an address [base(.64)+index+off] (desc[...] ignored: the
// global-memory descriptor selects nothing in the simulator). pair makes
// the base a 64-bit register pair even when the text does not print .64
// (the .E forms).
func (l *lowerer) mem(o *Operand, pair bool) (isa.Operand, error) {
	if o.Kind != KindMem {
		return isa.Operand{}, l.bad("operand %s: want an address", o.String())
	}
	a := isa.Operand{Kind: isa.KAddr, Reg: -1, Imm: uint64(o.Int)}
	if r := o.Reg; r.Valid() && !r.IsZero() {
		if r.File != GPR && r.File != UGPR {
			return isa.Operand{}, l.bad("address register %s", r.String())
		}
		a.Reg = int32(regIndex(r))
		if o.Suffix == ".64" || pair {
			a.Mod |= isa.MPair
		} else if o.Suffix != "" && o.Suffix != ".U32" {
			return isa.Operand{}, l.unsupported("address suffix %s", o.Suffix)
		}
	}
	if r := o.Index; r.Valid() && !r.IsZero() {
		if r.File != GPR && r.File != UGPR {
			return isa.Operand{}, l.bad("address register %s", r.String())
		}
		if o.IndexSuffix != "" {
			return isa.Operand{}, l.unsupported("address index suffix %s", o.IndexSuffix)
		}
		if a.Reg < 0 {
			a.Reg = int32(regIndex(r))
			// [RZ.U32+URn] of a .E (64-bit) access: the uniform pair holds
			// the whole address (the generic shared::cluster addresses of
			// cluster_probe's k_cluster_func, URn+1 = SR_SWINHI).
			if pair && o.Suffix == ".U32" && r.File == UGPR {
				a.Mod |= isa.MPair
			}
		} else {
			a.Index = int32(regIndex(r))
			a.Mod |= isa.MIndex
		}
	}
	return a, nil
}

// halfOf encodes f as IEEE binary16, rounding to nearest even (the
// literals of half instructions are exact halves).
func halfOf(f float64) uint16 {
	var sign uint16
	if math.Signbit(f) {
		sign, f = 0x8000, -f
	}
	switch {
	case math.IsInf(f, 0) || f >= 65520:
		return sign | 0x7c00
	case f == 0:
		return sign
	}
	// Scale to an integer number of units of the result's last place.
	e := math.Ilogb(f)
	if e < -14 {
		e = -14 // subnormal: units of 2^-24
	}
	q := math.RoundToEven(math.Ldexp(f, 10-e))
	if q >= 2048 { // rounded up to the next binade
		q /= 2
		e++
	}
	if e > 15 {
		return sign | 0x7c00
	}
	if q < 1024 { // subnormal
		return sign | uint16(q)
	}
	return sign | uint16(e+15)<<10 | uint16(q)&0x3ff
}
