package ptx

import (
	"github.com/smsim/smsim/isa"
)

// control lowers branches, calls and the instructions that end a thread.
func (l *lowerer) control(in *Instr, m *mods) error {
	switch in.Op {
	case "bra":
		uni := m.take("uni")
		if err := l.nops(in, 1); err != nil {
			return err
		}
		lb, err := l.labelOperand(in.Operands[0])
		if err != nil {
			return err
		}
		l.branch(lb, l.guard, uni)
		return nil
	case "brx":
		return l.brx(in, m)
	case "call":
		return l.call(in, m)
	case "ret":
		m.take("uni")
		if err := l.nops(in, 0); err != nil {
			return err
		}
		if n := len(l.rets); n > 0 {
			l.branch(l.rets[n-1], l.guard, false)
			return nil
		}
		l.emit(isa.Instr{Op: isa.OpExit})
		return nil
	}
	op := map[string]isa.Op{"exit": isa.OpExit, "trap": isa.OpTrap, "brkpt": isa.OpBrkpt}[in.Op]
	if err := l.nops(in, 0); err != nil {
		return err
	}
	l.emit(isa.Instr{Op: op})
	return nil
}

// labelOperand resolves a branch target.
func (l *lowerer) labelOperand(o Operand) (*label, error) {
	s, ok := o.(*Sym)
	if !ok || s.Offset != 0 {
		return nil, errAt(o.Position(), "expected a label, found %s", o.String())
	}
	lb := l.sc.label(s.Name)
	if lb == nil {
		return nil, errAt(s.Pos, "undefined label %s", s.Name)
	}
	return lb, nil
}

// negated returns the guard with the opposite sense.
func negated(g isa.Operand) isa.Operand {
	g.Neg = !g.Neg
	return g
}

// brx lowers brx.idx index, tlist to a chain of compares and branches
// (target i when index == i; the last target otherwise, where PTX leaves
// an out-of-range index undefined).
func (l *lowerer) brx(in *Instr, m *mods) error {
	if !m.take("idx") {
		return l.unsupported("missing .idx")
	}
	uni := m.take("uni")
	if err := l.nops(in, 2); err != nil {
		return err
	}
	idx, err := l.val(in.Operands[0], isa.U32)
	if err != nil {
		return err
	}
	s, ok := in.Operands[1].(*Sym)
	var e *entity
	if ok {
		e, _ = l.sc.lookup(s.Name)
	}
	if e == nil || e.kind != entTarget {
		return l.errf("brx.idx needs a .branchtargets list, found %s", in.Operands[1].String())
	}
	targets := make([]*label, len(e.targets))
	for i, name := range e.targets {
		if targets[i] = l.sc.label(name); targets[i] == nil {
			return l.errf("undefined label %s in %s", name, s.Name)
		}
	}
	var skip *label
	if l.guard.Kind != isa.KNone {
		skip = l.newLabel("brx skip")
		l.branch(skip, negated(l.guard), false)
	}
	p, err := l.ptemp()
	if err != nil {
		return err
	}
	for i, lb := range targets[:len(targets)-1] {
		l.emitUnguarded(isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpEq, NDst: 1,
			Ops: []isa.Operand{isa.P(int(p)), idx, isa.Imm(uint64(i))}})
		l.branch(lb, isa.P(int(p)), false)
	}
	l.branch(targets[len(targets)-1], isa.Operand{}, uni)
	if skip != nil {
		l.place(skip)
	}
	return nil
}

// callParts splits call's operands: (returns), function, (arguments), prototype.
func (l *lowerer) callParts(in *Instr) (rets *List, fn Operand, args *List, err error) {
	ops := in.Operands
	i := 0
	if len(ops) > 1 {
		if r, ok := ops[0].(*List); ok {
			rets, i = r, 1
		}
	}
	if i >= len(ops) {
		return nil, nil, nil, l.errf("call without a function")
	}
	fn, i = ops[i], i+1
	if i < len(ops) {
		if a, ok := ops[i].(*List); ok {
			args, i = a, i+1
		}
	}
	if i < len(ops) {
		i++ // prototype or target list of an indirect call
	}
	if i != len(ops) {
		return nil, nil, nil, l.errf("bad operands for call")
	}
	return rets, fn, args, nil
}
