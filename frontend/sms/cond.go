package sms

import "github.com/smsim/smsim/isa"

// pred is a lowered condition: a compile-time truth value, or a predicate
// register that holds the condition (neg: holds its negation).
type pred struct {
	isConst, c bool
	p          int
	neg        bool
}

func (c pred) operand() isa.Operand {
	return isa.Operand{Kind: isa.KPred, Reg: int32(c.p), Neg: c.neg}
}

// not is the negated condition; guarding a branch with not() branches when
// the condition is false.
func (c pred) not() pred {
	c.c, c.neg = !c.c, !c.neg
	return c
}

func cmpOf(op string) (isa.CmpOp, bool) {
	switch op {
	case "==":
		return isa.CmpEq, true
	case "!=":
		return isa.CmpNe, true
	case "<":
		return isa.CmpLt, true
	case "<=":
		return isa.CmpLe, true
	case ">":
		return isa.CmpGt, true
	case ">=":
		return isa.CmpGe, true
	}
	return isa.CmpNone, false
}

// cond lowers e as a condition (non-zero is true) to a predicate.
func (g *gen) cond(e expr) (pred, error) {
	switch e := e.(type) {
	case *unaryExpr:
		if e.op == "!" {
			c, err := g.cond(e.x)
			return c.not(), err
		}
	case *binaryExpr:
		if cmp, ok := cmpOf(e.op); ok {
			return g.compare(e, cmp)
		}
		if e.op == "&&" || e.op == "||" {
			return g.logical(e)
		}
	}
	v, err := g.value(e, -1)
	if err != nil || v.isConst {
		return pred{isConst: true, c: v.c != 0}, err
	}
	return g.setp(isa.CmpNe, v.operand(), isa.Imm(0)), nil
}

func (g *gen) setp(cmp isa.CmpOp, a, b isa.Operand) pred {
	p := g.preds.temp()
	g.emit(isa.Instr{Op: isa.OpSetp, Type: isa.S64, Cmp: cmp, NDst: 1, Ops: []isa.Operand{isa.P(p), a, b}})
	return pred{p: p}
}

func (g *gen) compare(e *binaryExpr, cmp isa.CmpOp) (pred, error) {
	x, err := g.value(e.x, -1)
	if err != nil {
		return pred{}, err
	}
	y, err := g.value(e.y, -1)
	if err != nil {
		return pred{}, err
	}
	if x.isConst && y.isConst {
		return pred{isConst: true, c: foldCompare(e.op, x.c, y.c) != 0}, nil
	}
	return g.setp(cmp, x.operand(), y.operand()), nil
}

// logical lowers && and || by combining both predicates (the operands have
// no side effects, so evaluating both is the same as short-circuiting).
func (g *gen) logical(e *binaryExpr) (pred, error) {
	l, err := g.cond(e.x)
	if err != nil {
		return pred{}, err
	}
	r, err := g.cond(e.y)
	if err != nil {
		return pred{}, err
	}
	and := e.op == "&&"
	switch {
	case l.isConst && l.c == and: // true && r, false || r
		return r, nil
	case l.isConst: // false && r, true || r
		return l, nil
	case r.isConst && r.c == and:
		return l, nil
	case r.isConst:
		return r, nil
	}
	a, b := g.plain(l), g.plain(r)
	p := g.preds.temp()
	op := isa.OpOr
	if and {
		op = isa.OpAnd
	}
	g.emit(isa.Instr{Op: op, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{isa.P(p), a, b}})
	return pred{p: p}, nil
}

// plain returns a predicate operand without negation (and.pred/or.pred take
// plain predicates), emitting not.pred when needed.
func (g *gen) plain(c pred) isa.Operand {
	if !c.neg {
		return isa.P(c.p)
	}
	q := g.preds.temp()
	g.emit(isa.Instr{Op: isa.OpNot, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{isa.P(q), isa.P(c.p)}})
	return isa.P(q)
}
