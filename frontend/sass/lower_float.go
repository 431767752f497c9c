package sass

import (
	"github.com/smsim/smsim/isa"
)

// Floating-point arithmetic, comparisons and the multi-function unit.

// rounding reads a rounding modifier (RN, RZ, RM, RP) into out.Rnd and
// reports the modifiers it did not take.
func (l *lowerer) rounding() {
	for _, m := range l.in.Mods {
		switch m {
		case "RN":
			l.out.Rnd = isa.RN
		case "RZ":
			l.out.Rnd = isa.RZ
		case "RM":
			l.out.Rnd = isa.RM
		case "RP":
			l.out.Rnd = isa.RP
		}
	}
}

// arith lowers d, a, b[, c] of kind k (pairs for f64) to op with type t.
func (l *lowerer) arith(op isa.Op, t isa.Type, k want, nsrc int) error {
	if err := l.nops(nsrc + 1); err != nil {
		return err
	}
	d, err := l.dst(l.op(0), k == wF64)
	if err != nil {
		return err
	}
	out := []isa.Operand{d}
	for i := 1; i <= nsrc; i++ {
		v, err := l.src(l.op(i), k)
		if err != nil {
			return err
		}
		out = append(out, v)
	}
	l.set(op, t, 1, out...)
	l.rounding()
	return nil
}

// lowerFArith: FADD / FMUL / FFMA[.FTZ][.RN|RZ|RM|RP][.SAT].
func lowerFArith(l *lowerer) error {
	if err := l.mods("FTZ", "RN", "RZ", "RM", "RP", "SAT"); err != nil {
		return err
	}
	op, n := isa.OpAdd, 2
	switch l.in.Op {
	case "FMUL":
		op = isa.OpMul
	case "FFMA":
		op, n = isa.OpFma, 3
	}
	if err := l.arith(op, isa.F32, wF32, n); err != nil {
		return err
	}
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	if l.has("SAT") {
		l.out.Flags |= isa.FSat
	}
	l.out.Class = isa.ClassFMA
	return nil
}

// lowerFMnmx: FMNMX[.FTZ] d, a, b, PT (min) or !PT (max).
func lowerFMnmx(l *lowerer) error {
	if err := l.mods("FTZ", "NAN"); err != nil {
		return err
	}
	if err := l.nops(4); err != nil {
		return err
	}
	isMin, err := l.constPred(l.op(3))
	if err != nil {
		return err
	}
	op := isa.OpMax
	if isMin {
		op = isa.OpMin
	}
	l.in = withoutLast(l.in)
	defer l.restore()
	if err := l.arith(op, isa.F32, wF32, 2); err != nil {
		return err
	}
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	if l.has("NAN") {
		l.out.Flags |= isa.FNaN
	}
	l.out.Class = isa.ClassALU
	return nil
}

// withoutLast returns a copy of in without its last operand.
func withoutLast(in *Instruction) *Instruction {
	c := *in
	c.Operands = in.Operands[:len(in.Operands)-1]
	return &c
}

// restore points l.in back at the function's instruction.
func (l *lowerer) restore() { l.in = &l.fn.Instructions[l.idx] }

// lowerFSetp: FSETP.cmp[.FTZ].bool p, q, a, b, pin.
func lowerFSetp(l *lowerer) error {
	if err := l.compareMods("FTZ"); err != nil {
		return err
	}
	if l.has("FTZ") {
		l.out.Flags |= isa.FFtz
	}
	l.out.Class = isa.ClassALU
	return l.setp(isa.OpSetp, isa.F32, wF32, 5)
}

// lowerDSetp: DSETP.cmp.bool p, q, a, b, pin on pairs.
func lowerDSetp(l *lowerer) error {
	if err := l.compareMods(); err != nil {
		return err
	}
	l.out.Class = isa.ClassFP64
	return l.setp(isa.OpSetp, isa.F64, wF64, 5)
}

// lowerMufu: MUFU.{EX2,LG2,RCP,RSQ,SQRT,SIN,COS,TANH,RCP64H,RSQ64H} d, a.
// The multi-function unit's results are approximations NVIDIA does not
// publish; smsim computes them correctly rounded (flushing subnormals), as
// for PTX's .approx functions. SIN and COS take the argument in turns.
func lowerMufu(l *lowerer) error {
	if len(l.in.Mods) != 1 {
		return l.unsupported("MUFU needs one function")
	}
	var op isa.Op
	var mode uint8
	switch l.in.Mods[0] {
	case "EX2":
		op = isa.OpEx2
	case "LG2":
		op = isa.OpLg2
	case "RCP":
		op = isa.OpRcp
	case "RSQ":
		op = isa.OpRsqrt
	case "SQRT":
		op = isa.OpSqrt
	case "TANH":
		op = isa.OpTanh
	case "SIN":
		op = isa.OpFSin
	case "COS":
		op, mode = isa.OpFSin, 1
	case "RCP64H":
		op, mode = isa.OpMufu, isa.MufuRcp64H
	case "RSQ64H":
		op, mode = isa.OpMufu, isa.MufuRsq64H
	default:
		return l.unsupported("MUFU function .%s", l.in.Mods[0])
	}
	if err := l.unary(op, isa.F32, wF32); err != nil {
		return err
	}
	l.out.Mode = mode
	l.out.Flags |= isa.FApprox | isa.FFtz
	l.out.Class = isa.ClassSFU
	return nil
}

// lowerFchk: FCHK p, a, b.
func lowerFchk(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(3); err != nil {
		return err
	}
	p, err := l.predDst(l.op(0))
	if err != nil {
		return err
	}
	s, err := l.srcs(wF32, l.op(1), l.op(2))
	if err != nil {
		return err
	}
	l.set(isa.OpFchk, isa.F32, 1, p, s[0], s[1])
	l.out.Class = isa.ClassSFU
	return nil
}

// lowerDArith: DADD / DMUL / DFMA[.RN|RZ|RM|RP] on register pairs.
func lowerDArith(l *lowerer) error {
	if err := l.mods("RN", "RZ", "RM", "RP"); err != nil {
		return err
	}
	op, n := isa.OpAdd, 2
	switch l.in.Op {
	case "DMUL":
		op = isa.OpMul
	case "DFMA":
		op, n = isa.OpFma, 3
	}
	if err := l.arith(op, isa.F64, wF64, n); err != nil {
		return err
	}
	l.out.Class = isa.ClassFP64
	return nil
}
