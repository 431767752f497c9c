package sms

import "github.com/smsim/smsim/isa"

// val is the result of lowering an expression: a constant or a register.
type val struct {
	c       int64
	reg     int
	isConst bool
	named   bool // reg belongs to a variable and may change later
}

func constVal(c int64) val { return val{c: c, isConst: true} }

func (v val) operand() isa.Operand {
	if v.isConst {
		return isa.Imm(uint64(v.c))
	}
	return isa.R(v.reg)
}

// dest is dst when the caller gave one, else a new temporary.
func (g *gen) dest(dst int) int {
	if dst >= 0 {
		return dst
	}
	return g.regs.temp()
}

// operand lowers e to an instruction source operand.
func (g *gen) operand(e expr) (isa.Operand, error) {
	v, err := g.value(e, -1)
	return v.operand(), err
}

// into lowers e so that its value ends up in register dst.
func (g *gen) into(e expr, dst int) error {
	v, err := g.value(e, dst)
	if err == nil && (v.isConst || v.reg != dst) {
		g.mov(dst, v.operand())
	}
	return err
}

func (g *gen) mov(dst int, src isa.Operand) {
	g.emit(isa.Instr{Op: isa.OpMov, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(dst), src}})
}

// value lowers e. Constant subexpressions are folded; an instruction that
// computes the top-level result writes dst when dst >= 0.
func (g *gen) value(e expr, dst int) (val, error) {
	switch e := e.(type) {
	case *numExpr:
		return constVal(e.v), nil
	case *nameExpr:
		return g.nameValue(e, dst)
	case *indexExpr:
		return g.indexValue(e, dst)
	case *unaryExpr:
		return g.unaryValue(e, dst)
	case *binaryExpr:
		return g.binaryValue(e, dst)
	}
	return val{}, errAt(e.at(), "expected an expression")
}

func (g *gen) nameValue(e *nameExpr, dst int) (val, error) {
	switch e.name {
	case "clock":
		d := g.dest(dst)
		g.emit(isa.Instr{Op: isa.OpMov, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Spec(isa.SClock64)}})
		return val{reg: d}, nil
	case "tid", "lane", "warp", "ctaid", "ntid", "nwarps":
		return val{reg: g.builtinReg(e.name)}, nil
	}
	if c, ok, err := g.constName(e); err != nil || ok {
		return constVal(c), err
	}
	s, err := g.resolve(e.pos, e.name)
	if err != nil {
		return val{}, err
	}
	switch s.kind {
	case symParam, symBuffer:
		return val{reg: g.paramReg(s)}, nil
	case symVar, symLoopVar:
		return val{reg: s.reg, named: true}, nil
	}
	return val{}, errAt(e.pos, "%s %s is not a value", s.kind, e.name)
}

// indexValue lowers the element address NAME[i][j] = NAME + i*stride0 + j*stride1.
func (g *gen) indexValue(e *indexExpr, dst int) (val, error) {
	if c, ok, err := g.constIndex(e); err != nil || ok {
		return constVal(c), err
	}
	return g.value(g.expandIndex(e, g.lookup(e.name)), dst)
}

// expandIndex rewrites NAME[i][j] as NAME + i*stride0 + j*stride1.
func (g *gen) expandIndex(e *indexExpr, s *symbol) expr {
	var sum expr = &nameExpr{pos: e.pos, name: e.name}
	for k, x := range e.idx {
		term := x
		if st := stride(s.dims, k); st != 1 {
			term = &binaryExpr{pos: x.at(), op: "*", x: x, y: &numExpr{pos: x.at(), v: st}}
		}
		sum = &binaryExpr{pos: e.pos, op: "+", x: sum, y: term}
	}
	return sum
}

func (g *gen) unaryValue(e *unaryExpr, dst int) (val, error) {
	if e.op == "!" {
		return g.boolValue(e, dst)
	}
	x, err := g.value(e.x, -1)
	if err != nil || x.isConst {
		return constVal(foldUnary(e.op, x.c)), err
	}
	d := g.dest(dst)
	in := isa.Instr{Op: isa.OpNeg, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(d), x.operand()}}
	if e.op == "~" {
		in.Op, in.Type = isa.OpNot, isa.B64
	}
	g.emit(in)
	return val{reg: d}, nil
}

// arith maps an arithmetic operator to its opcode, type and flags.
func arith(op string) (isa.Op, isa.Type, isa.Flags, bool) {
	switch op {
	case "+":
		return isa.OpAdd, isa.S64, 0, true
	case "-":
		return isa.OpSub, isa.S64, 0, true
	case "*":
		return isa.OpMul, isa.S64, isa.FLo, true
	case "/":
		return isa.OpDiv, isa.S64, 0, true
	case "%":
		return isa.OpRem, isa.S64, 0, true
	case "&":
		return isa.OpAnd, isa.B64, 0, true
	case "|":
		return isa.OpOr, isa.B64, 0, true
	case "^":
		return isa.OpXor, isa.B64, 0, true
	case "<<":
		return isa.OpShl, isa.B64, 0, true
	case ">>":
		return isa.OpShr, isa.S64, 0, true
	}
	return isa.OpNop, isa.TNone, 0, false
}

func (g *gen) binaryValue(e *binaryExpr, dst int) (val, error) {
	op, typ, flags, ok := arith(e.op)
	if !ok {
		return g.boolValue(e, dst)
	}
	x, err := g.value(e.x, -1)
	if err != nil {
		return val{}, err
	}
	y, err := g.value(e.y, -1)
	if err != nil {
		return val{}, err
	}
	if x.isConst && y.isConst {
		c, err := foldBinary(e.pos, e.op, x.c, y.c)
		return constVal(c), err
	}
	if y.isConst {
		if _, err := foldBinary(e.pos, e.op, 1, y.c); err != nil {
			return val{}, err // division by zero or a negative shift count
		}
	}
	d := g.dest(dst)
	g.emit(isa.Instr{Op: op, Type: typ, Flags: flags, NDst: 1, Ops: []isa.Operand{isa.R(d), x.operand(), y.operand()}})
	return val{reg: d}, nil
}

// boolValue lowers a condition used as a number: 1 when true, 0 when false.
func (g *gen) boolValue(e expr, dst int) (val, error) {
	c, err := g.cond(e)
	if err != nil || c.isConst {
		return constVal(b2i(c.c)), err
	}
	d := g.dest(dst)
	g.selp(d, c.operand())
	return val{reg: d}, nil
}

// selp sets d to 1 where predicate p holds and 0 elsewhere.
func (g *gen) selp(d int, p isa.Operand) {
	g.emit(isa.Instr{Op: isa.OpSelp, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Imm(1), isa.Imm(0), p}})
}

// address lowers an address expression to a KAddr operand, folding the
// constant terms of a sum into the offset: [tile[1] + lane*4] is [r + 1152].
func (g *gen) address(e expr) (isa.Operand, error) {
	rest, off, err := g.splitConst(e)
	if err != nil || rest == nil {
		return isa.Addr(-1, off), err
	}
	v, err := g.value(rest, -1)
	if v.isConst {
		return isa.Addr(-1, v.c+off), err
	}
	return isa.Addr(v.reg, off), err
}

// splitConst separates a sum into its run-time part (nil if none) and the
// sum of its constant terms. Element addresses NAME[i] count as sums.
func (g *gen) splitConst(e expr) (expr, int64, error) {
	switch x := e.(type) {
	case *indexExpr:
		c, ok, err := g.constIndex(x) // checks constant indices against the dimensions
		if err != nil || ok {
			return nil, c, err
		}
		return g.splitConst(g.expandIndex(x, g.lookup(x.name)))
	case *binaryExpr:
		if x.op == "+" || x.op == "-" {
			return g.splitSum(x)
		}
	}
	c, ok, err := g.evalConst(e)
	if err != nil || ok {
		return nil, c, err
	}
	return e, 0, nil
}

func (g *gen) splitSum(x *binaryExpr) (expr, int64, error) {
	l, lc, err := g.splitConst(x.x)
	if err != nil {
		return nil, 0, err
	}
	r, rc, err := g.splitConst(x.y)
	if err != nil {
		return nil, 0, err
	}
	if x.op == "-" {
		if r != nil { // keep the subtraction of a run-time value as it is
			r, rc = x.y, 0
		}
		rc = -rc
	}
	switch {
	case r == nil:
		return l, lc + rc, nil
	case l == nil && x.op == "-":
		return &unaryExpr{pos: x.pos, op: "-", x: r}, lc, nil
	case l == nil:
		return r, lc + rc, nil
	}
	return &binaryExpr{pos: x.pos, op: x.op, x: l, y: r}, lc + rc, nil
}
