package ptx

import (
	"github.com/smsim/smsim/isa"
)

// packed16 lowers add/sub/min/max on .u16x2/.s16x2: the operation on each
// 16-bit half, then a byte permute that joins the halves.
func (l *lowerer) packed16(in *Instr, m *mods, pt string) error {
	op, n := arithOp(in.Op)
	if n != 3 || (op != isa.OpAdd && op != isa.OpSub && op != isa.OpMin && op != isa.OpMax) {
		return l.unsupported("%s on .%s", in.Op, pt)
	}
	relu := (op == isa.OpMin || op == isa.OpMax) && pt == "s16x2" && m.take("relu")
	ops, err := l.dstVals(in, isa.B32, isa.B32)
	if err != nil {
		return err
	}
	d, a, b := ops[0], ops[1], ops[2]
	t := isa.U16
	if pt == "s16x2" {
		t = isa.S16
	}
	regs, err := l.temps4()
	if err != nil {
		return err
	}
	lo, hi, ah, bh := regs[0], regs[1], regs[2], regs[3]
	l.emit(isa.Instr{Op: op, Type: t, NDst: 1, Ops: []isa.Operand{lo, a, b}})
	l.emit(isa.Instr{Op: isa.OpShr, Type: isa.U32, NDst: 1, Ops: []isa.Operand{ah, a, isa.Imm(16)}})
	l.emit(isa.Instr{Op: isa.OpShr, Type: isa.U32, NDst: 1, Ops: []isa.Operand{bh, b, isa.Imm(16)}})
	l.emit(isa.Instr{Op: op, Type: t, NDst: 1, Ops: []isa.Operand{hi, ah, bh}})
	if relu {
		l.emit(isa.Instr{Op: isa.OpMax, Type: t, NDst: 1, Ops: []isa.Operand{lo, lo, isa.Imm(0)}})
		l.emit(isa.Instr{Op: isa.OpMax, Type: t, NDst: 1, Ops: []isa.Operand{hi, hi, isa.Imm(0)}})
	}
	l.emit(isa.Instr{Op: isa.OpPrmt, Type: isa.B32, NDst: 1, Ops: []isa.Operand{d, lo, hi, isa.Imm(0x5410)}})
	return nil
}

// temps4 allocates four scratch registers.
func (l *lowerer) temps4() ([4]isa.Operand, error) {
	var out [4]isa.Operand
	for i := range out {
		r, err := l.temp()
		if err != nil {
			return out, err
		}
		out[i] = isa.R(int(r))
	}
	return out, nil
}

// video lowers the SIMD video instructions v{add,sub,absdiff,min,max}{2,4}
// with equal operand types, no saturation, selectors or masks, and the
// optional .add (sum the elements into c): each element is extracted with
// bfe, combined in 32 bits and inserted (or summed).
func (l *lowerer) video(in *Instr, m *mods) error {
	w := 8
	if in.Op[len(in.Op)-1] == '2' {
		w = 16
	}
	dt, at, bt, err := l.videoTypes(m)
	if err != nil {
		return err
	}
	if dt != at || at != bt || (at != isa.U32 && at != isa.S32) {
		return l.unsupported("mixed or non-32-bit operand types")
	}
	sum := m.take("add")
	if err := l.nops(in, 4); err != nil {
		return err
	}
	var ops [4]isa.Operand
	for i, o := range in.Operands {
		if r, ok := o.(*Reg); ok && r.Comp != "" {
			return l.unsupported("element selectors and masks")
		}
		if i == 0 {
			ops[i], err = l.dst(o)
		} else {
			ops[i], err = l.val(o, isa.B32)
		}
		if err != nil {
			return err
		}
	}
	return l.videoElems(in.Op[1:len(in.Op)-1], at, w, sum, ops)
}

// videoTypes consumes the three operand types of a video instruction.
func (l *lowerer) videoTypes(m *mods) (isa.Type, isa.Type, isa.Type, error) {
	ts := m.types()
	if len(ts) != 3 {
		return 0, 0, 0, l.unsupported("want three type modifiers, found %d", len(ts))
	}
	return ts[0], ts[1], ts[2], nil
}

// videoElems emits the per-element computation of a video instruction.
func (l *lowerer) videoElems(op string, t isa.Type, w int, sum bool, ops [4]isa.Operand) error {
	regs, err := l.temps4()
	if err != nil {
		return err
	}
	ea, eb, er, acc := regs[0], regs[1], regs[2], regs[3]
	ext := isa.U32
	if t == isa.S32 {
		ext = isa.S32
	}
	init := isa.Imm(0)
	if sum {
		init = ops[3]
	}
	l.emit(isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{acc, init}})
	for i := 0; i < 32/w; i++ {
		pos, ln := isa.Imm(uint64(i*w)), isa.Imm(uint64(w))
		l.emit(isa.Instr{Op: isa.OpBfe, Type: ext, NDst: 1, Ops: []isa.Operand{ea, ops[1], pos, ln}})
		l.emit(isa.Instr{Op: isa.OpBfe, Type: ext, NDst: 1, Ops: []isa.Operand{eb, ops[2], pos, ln}})
		switch op {
		case "add":
			l.emit(isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{er, ea, eb}})
		case "sub":
			l.emit(isa.Instr{Op: isa.OpSub, Type: isa.S32, NDst: 1, Ops: []isa.Operand{er, ea, eb}})
		case "absdiff":
			l.emit(isa.Instr{Op: isa.OpSad, Type: isa.S32, NDst: 1, Ops: []isa.Operand{er, ea, eb, isa.Imm(0)}})
		case "min":
			l.emit(isa.Instr{Op: isa.OpMin, Type: isa.S32, NDst: 1, Ops: []isa.Operand{er, ea, eb}})
		default:
			l.emit(isa.Instr{Op: isa.OpMax, Type: isa.S32, NDst: 1, Ops: []isa.Operand{er, ea, eb}})
		}
		if sum {
			l.emit(isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{acc, acc, er}})
		} else {
			l.emit(isa.Instr{Op: isa.OpBfi, Type: isa.B32, NDst: 1, Ops: []isa.Operand{acc, er, acc, pos, ln}})
		}
	}
	l.emit(isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{ops[0], acc}})
	return nil
}
