package ptx

import (
	"github.com/smsim/smsim/isa"
)

// arithOps maps arithmetic opcodes to isa opcodes (and operand counts).
func arithOp(op string) (isa.Op, int) {
	switch op {
	case "add", "addc":
		return isa.OpAdd, 3
	case "sub", "subc":
		return isa.OpSub, 3
	case "mul":
		return isa.OpMul, 3
	case "mad", "madc":
		return isa.OpMad, 4
	case "fma":
		return isa.OpFma, 4
	case "div":
		return isa.OpDiv, 3
	case "rem":
		return isa.OpRem, 3
	case "abs":
		return isa.OpAbs, 2
	case "neg":
		return isa.OpNeg, 2
	case "min":
		return isa.OpMin, 3
	case "max":
		return isa.OpMax, 3
	case "mul24":
		return isa.OpMul24, 3
	case "mad24":
		return isa.OpMad24, 4
	case "sad":
		return isa.OpSad, 4
	case "rcp":
		return isa.OpRcp, 2
	case "sqrt":
		return isa.OpSqrt, 2
	case "rsqrt":
		return isa.OpRsqrt, 2
	case "sin":
		return isa.OpSin, 2
	case "cos":
		return isa.OpCos, 2
	case "lg2":
		return isa.OpLg2, 2
	case "ex2":
		return isa.OpEx2, 2
	case "tanh":
		return isa.OpTanh, 2
	case "copysign":
		return isa.OpCopysign, 3
	}
	return isa.OpNop, 0
}

// arith lowers integer and floating-point arithmetic.
func (l *lowerer) arith(in *Instr, m *mods) error {
	if pt := m.takeAny("u16x2", "s16x2"); pt != "" {
		return l.packed16(in, m, pt)
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	op, n := arithOp(in.Op)
	if err := l.nops(in, n); err != nil {
		return err
	}
	x := isa.Instr{Op: op, Type: t, NDst: 1}
	relu := false
	if t.Float() {
		relu, err = l.floatMods(in, m, &x)
	} else {
		relu, err = l.intMods(in, m, &x)
	}
	if err != nil {
		return err
	}
	return l.emitArith(in, x, relu)
}

// emitArith converts the operands and emits x; relu clamps negative results
// to zero afterwards.
func (l *lowerer) emitArith(in *Instr, x isa.Instr, relu bool) error {
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	for i, o := range in.Operands[1:] {
		st := x.Type
		if i == 2 && x.Flags.Has(isa.FWide) {
			st = wideOf(x.Type)
		}
		v, err := l.val(o, st)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	if relu {
		f := isa.Flags(0)
		if x.Type.Float() {
			f = isa.FNaN
		}
		l.emit(isa.Instr{Op: isa.OpMax, Type: x.Type, Flags: f, NDst: 1, Ops: []isa.Operand{d, d, isa.Imm(0)}})
	}
	return nil
}

func wideOf(t isa.Type) isa.Type {
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

// intMods applies the integer modifiers of in to x.
func (l *lowerer) intMods(in *Instr, m *mods, x *isa.Instr) (relu bool, err error) {
	t := x.Type
	if t == isa.Pred || t == isa.B128 {
		return false, l.unsupported("type .%s", t)
	}
	switch in.Op {
	case "mul", "mad", "madc", "mul24", "mad24":
		switch m.takeAny("lo", "hi", "wide") {
		case "lo":
			x.Flags |= isa.FLo
		case "hi":
			x.Flags |= isa.FHi
		case "wide":
			if t.Bits() > 32 || in.Op == "mul24" || in.Op == "mad24" {
				return false, l.unsupported(".wide on .%s", t)
			}
			x.Flags |= isa.FWide
		default:
			return false, l.unsupported("missing .lo, .hi or .wide")
		}
	}
	if in.Op == "addc" || in.Op == "subc" || in.Op == "madc" {
		x.Flags |= isa.FCarryIn
	}
	if m.take("cc") {
		if t.Bits() < 32 {
			return false, l.unsupported(".cc on .%s", t)
		}
		x.Flags |= isa.FCC
	}
	if m.take("sat") {
		ok := t == isa.S32 && (in.Op == "add" || in.Op == "sub" || (in.Op == "mad" && x.Flags.Has(isa.FHi)))
		if !ok {
			return false, l.unsupported(".sat on %s.%s", in.Op, t)
		}
		x.Flags |= isa.FSat
	}
	if (in.Op == "min" || in.Op == "max") && m.take("relu") {
		if t != isa.S32 {
			return false, l.unsupported(".relu on .%s", t)
		}
		relu = true
	}
	switch in.Op {
	case "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign", "fma":
		return false, l.unsupported("%s needs a floating-point type, not .%s", in.Op, t)
	}
	return relu, nil
}

// floatMods applies the floating-point modifiers of in to x.
func (l *lowerer) floatMods(in *Instr, m *mods, x *isa.Instr) (relu bool, err error) {
	t := x.Type
	if t == isa.TF32 {
		return false, l.unsupported("arithmetic on .tf32")
	}
	x.Rnd = rounding(m)
	if x.Rnd >= isa.RNA {
		return false, l.unsupported("integer rounding on %s", in.Op)
	}
	if m.take("ftz") {
		x.Flags |= isa.FFtz
	}
	if m.take("sat") {
		x.Flags |= isa.FSat
	}
	if m.take("approx") {
		x.Flags |= isa.FApprox
	}
	if m.take("full") {
		x.Flags |= isa.FFullRange | isa.FApprox
	}
	if m.take("NaN") {
		x.Flags |= isa.FNaN
	}
	relu = m.take("relu")
	switch in.Op {
	case "rem", "addc", "subc", "madc", "mul24", "mad24", "sad":
		return false, l.unsupported("%s on .%s", in.Op, t)
	case "sin", "cos", "lg2", "ex2", "tanh", "rsqrt":
		if !x.Flags.Has(isa.FApprox) {
			return false, l.unsupported("%s needs .approx", in.Op)
		}
	case "div", "rcp", "sqrt":
		if !x.Flags.Has(isa.FApprox) && x.Rnd == isa.RNone && t != isa.F16 && t != isa.BF16 {
			return false, l.unsupported("%s.%s needs a rounding modifier or .approx", in.Op, t)
		}
	case "fma":
		if x.Rnd == isa.RNone {
			return false, l.unsupported("fma needs a rounding modifier")
		}
	}
	if relu && (in.Op != "fma" || (t != isa.F16 && t != isa.F16x2 && t != isa.BF16 && t != isa.BF16x2)) {
		return false, l.unsupported(".relu on %s.%s", in.Op, t)
	}
	return relu, nil
}
