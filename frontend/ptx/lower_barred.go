package ptx

import (
	"github.com/smsim/smsim/isa"
)

// barRedSlots is the number of CTA barriers (one scratch word each).
const barRedSlots = 16

// barRed lowers bar.red.{popc.u32, and.pred, or.pred} d, a[, b], {!}c.
//
// The SM's bar.red does not compute the reduction, so it is built from a
// hidden shared word per barrier id: every thread adds 0x10000 plus its
// predicate, waits at the barrier, reads the total (participants in the
// high half, true predicates in the low half), waits again so that nobody
// reads late, and takes its contribution back out, leaving the word zero
// for the next reduction.
func (l *lowerer) barRed(in *Instr, m *mods) error {
	op := m.takeAny("popc", "and", "or")
	if op == "" {
		return l.unsupported("missing .popc, .and or .or")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if (op == "popc") != (t == isa.U32) || (t != isa.U32 && t != isa.Pred) {
		return l.unsupported("bar.red.%s on .%s", op, t)
	}
	if l.guard.Kind != isa.KNone {
		return l.unsupported("guarded bar.red")
	}
	if err := l.nops(in, 3, 4); err != nil {
		return err
	}
	ops := in.Operands
	var d isa.Operand
	if op == "popc" {
		d, err = l.dst(ops[0])
	} else {
		d, err = l.pdst(ops[0])
	}
	if err != nil {
		return err
	}
	bar := []isa.Operand{}
	for _, o := range ops[1 : len(ops)-1] {
		v, err := l.val(o, isa.U32)
		if err != nil {
			return err
		}
		bar = append(bar, v)
	}
	c, err := l.psrc(ops[len(ops)-1])
	if err != nil {
		return err
	}
	total, err := l.barRedTotal(bar, c)
	if err != nil {
		return err
	}
	return l.barRedResult(op, d, total)
}

// barRedTotal emits the shared-word reduction and returns the register
// holding participants<<16 | true predicates.
func (l *lowerer) barRedTotal(bar []isa.Operand, c isa.Operand) (isa.Operand, error) {
	contrib, err := l.temp()
	if err != nil {
		return isa.Operand{}, err
	}
	total, err := l.temp()
	if err != nil {
		return isa.Operand{}, err
	}
	cr, tr := isa.R(int(contrib)), isa.R(int(total))
	addr := isa.Addr(-1, int64(l.barRedScratch))
	if id := bar[0]; id.Kind == isa.KImm {
		if id.Imm >= barRedSlots {
			return isa.Operand{}, l.errf("barrier id %d is outside 0..15", id.Imm)
		}
		addr.Imm += 4 * id.Imm
	} else {
		a, err := l.temp()
		if err != nil {
			return isa.Operand{}, err
		}
		l.emit(isa.Instr{Op: isa.OpMad, Type: isa.U32, Flags: isa.FLo, NDst: 1,
			Ops: []isa.Operand{isa.R(int(a)), id, isa.Imm(4), isa.Imm(l.barRedScratch)}})
		addr = isa.Addr(int(a), 0)
	}
	l.emit(isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{cr, isa.Imm(0x10001), isa.Imm(0x10000), c}})
	red := isa.Instr{Op: isa.OpRed, Type: isa.U32, Space: isa.Shared, Atom: isa.AtomAdd, Ops: []isa.Operand{addr, cr}}
	l.emit(red)
	l.emit(isa.Instr{Op: isa.OpBarSync, Flags: isa.FAligned, Ops: bar})
	l.emit(isa.Instr{Op: isa.OpLd, Type: isa.U32, Space: isa.Shared, Vec: 1, NDst: 1, Ops: []isa.Operand{tr, addr}})
	l.emit(isa.Instr{Op: isa.OpBarSync, Flags: isa.FAligned, Ops: bar})
	l.emit(isa.Instr{Op: isa.OpNeg, Type: isa.S32, NDst: 1, Ops: []isa.Operand{cr, cr}})
	l.emit(red)
	return tr, nil
}

// barRedResult derives the popc count or the and/or predicate from the total.
func (l *lowerer) barRedResult(op string, d, total isa.Operand) error {
	lo, err := l.temp()
	if err != nil {
		return err
	}
	lr := isa.R(int(lo))
	l.emit(isa.Instr{Op: isa.OpAnd, Type: isa.B32, NDst: 1, Ops: []isa.Operand{lr, total, isa.Imm(0xffff)}})
	switch op {
	case "popc":
		l.emit(isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{d, lr}})
	case "or":
		l.emit(isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{d, lr, isa.Imm(0)}})
	default:
		hi, err := l.temp()
		if err != nil {
			return err
		}
		hr := isa.R(int(hi))
		l.emit(isa.Instr{Op: isa.OpShr, Type: isa.U32, NDst: 1, Ops: []isa.Operand{hr, total, isa.Imm(16)}})
		l.emit(isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpEq, NDst: 1, Ops: []isa.Operand{d, hr, lr}})
	}
	return nil
}
