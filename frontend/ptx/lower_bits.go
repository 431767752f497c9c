package ptx

import (
	"github.com/smsim/smsim/isa"
)

// bitOp maps bit-manipulation opcodes to isa opcodes and operand counts.
func bitOp(op string) (isa.Op, int) {
	switch op {
	case "and":
		return isa.OpAnd, 3
	case "or":
		return isa.OpOr, 3
	case "xor":
		return isa.OpXor, 3
	case "not":
		return isa.OpNot, 2
	case "cnot":
		return isa.OpCnot, 2
	case "shl":
		return isa.OpShl, 3
	case "shr":
		return isa.OpShr, 3
	case "popc":
		return isa.OpPopc, 2
	case "clz":
		return isa.OpClz, 2
	case "brev":
		return isa.OpBrev, 2
	case "bfind":
		return isa.OpBfind, 2
	case "bfe":
		return isa.OpBfe, 4
	case "bfi":
		return isa.OpBfi, 5
	case "prmt":
		return isa.OpPrmt, 4
	case "shf":
		return isa.OpShf, 4
	case "lop3":
		return isa.OpLop3, 5
	case "dp4a":
		return isa.OpDp4a, 4
	}
	return isa.OpDp2a, 4
}

// Permute modes of prmt (isa.Instr.Mode of OpPrmt, as warp/alu_bits.go reads them).
var prmtModes = map[string]uint8{"f4e": 1, "b4e": 2, "rc8": 3, "ecl": 4, "ecr": 5, "rc16": 6}

// bits lowers logic, shift and bit-field instructions.
func (l *lowerer) bits(in *Instr, m *mods) error {
	op, n := bitOp(in.Op)
	x := isa.Instr{Op: op, NDst: 1}
	if err := l.bitMods(in, m, &x); err != nil {
		return err
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	if x.Type == isa.Pred {
		return l.predLogic(in, x)
	}
	if x.Type.Float() || x.Type == isa.B128 {
		return l.unsupported("%s on .%s", in.Op, x.Type)
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	for i, o := range in.Operands[1:] {
		if op == isa.OpLop3 && i == 3 {
			if _, ok := o.(*Imm); !ok {
				return l.errf("lop3 truth table must be an immediate, found %s", o.String())
			}
		}
		v, err := l.val(o, x.Type)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// bitMods applies modifiers and types of bit instructions to x.
func (l *lowerer) bitMods(in *Instr, m *mods, x *isa.Instr) error {
	switch in.Op {
	case "bfind":
		if m.take("shiftamt") {
			x.Flags |= isa.FShiftAmt
		}
	case "prmt":
		for name, mode := range prmtModes {
			if m.take(name) {
				x.Mode = mode
			}
		}
	case "shf":
		switch m.takeAny("l", "r") {
		case "l":
		case "r":
			x.Mode = 1
		default:
			return l.unsupported("missing .l or .r")
		}
		switch m.takeAny("clamp", "wrap") {
		case "clamp":
			x.Flags |= isa.FClamp
		case "wrap":
		default:
			return l.unsupported("missing .clamp or .wrap")
		}
	case "dp2a":
		switch m.takeAny("lo", "hi") {
		case "lo":
			x.Flags |= isa.FLo
		case "hi":
			x.Flags |= isa.FHi
		default:
			return l.unsupported("missing .lo or .hi")
		}
	}
	if in.Op == "dp4a" || in.Op == "dp2a" {
		a, b, err := l.typ2(m)
		if err != nil {
			return err
		}
		x.Type, x.Type2 = a, b
		return nil
	}
	t, err := l.typ(m)
	x.Type = t
	return err
}

// predLogic lowers and/or/xor/not on predicates.
func (l *lowerer) predLogic(in *Instr, x isa.Instr) error {
	if x.Op != isa.OpAnd && x.Op != isa.OpOr && x.Op != isa.OpXor && x.Op != isa.OpNot {
		return l.unsupported("%s on .pred", in.Op)
	}
	d, err := l.pdst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	for _, o := range in.Operands[1:] {
		p, err := l.psrc(o)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, p)
	}
	l.emit(x)
	return nil
}
