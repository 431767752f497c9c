package sms

import (
	"strconv"

	"github.com/smsim/smsim/isa"
)

// block lowers statements in a new scope.
func (g *gen) block(ss []stmt) error {
	g.pushScope()
	defer g.popScope()
	for _, s := range ss {
		if err := g.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

// stmt lowers one statement. Temporaries it allocates are free again when it
// ends; instructions it emits carry its position.
func (g *gen) stmt(s stmt) error {
	m := g.mark()
	defer g.release(m)
	g.pos = s.at()
	if len(g.code) > maxInstrs {
		return errAt(g.pos, "program has more than %d instructions", maxInstrs)
	}
	switch s := s.(type) {
	case *letStmt:
		return g.letStmt(s)
	case *assignStmt:
		return g.assignStmt(s)
	case *ifStmt:
		return g.ifStmt(s)
	case *forStmt:
		return g.forStmt(s)
	case *warpsStmt:
		return g.warpsStmt(s)
	case *opStmt:
		return g.op(s, -1)
	}
	return errAt(s.at(), "expected a statement")
}

// letStmt gives the variable its own register; the name is visible only
// after its initial value, so "let x = x" is an error.
func (g *gen) letStmt(s *letStmt) error {
	if old := g.lookup(s.name); old != nil {
		return errAt(s.pos, "duplicate name %s: already declared as a %s at %d:%d", s.name, old.kind, old.pos.Line, old.pos.Col)
	}
	r := g.regs.named(s.name)
	var err error
	if s.op != nil {
		err = g.op(s.op, r)
	} else {
		err = g.into(s.val, r)
	}
	if err != nil {
		return err
	}
	return g.define(&symbol{kind: symVar, name: s.name, pos: s.pos, reg: r})
}

func (g *gen) assignStmt(s *assignStmt) error {
	v, err := g.resolve(s.pos, s.name)
	if err != nil {
		return err
	}
	if v.kind != symVar {
		return errAt(s.pos, "cannot assign to %s %s (only let variables can change)", v.kind, s.name)
	}
	if s.vop != nil {
		return g.op(s.vop, v.reg)
	}
	val := s.val
	if s.op != "=" {
		val = &binaryExpr{pos: s.pos, op: s.op[:len(s.op)-1], x: &nameExpr{pos: s.pos, name: s.name}, y: s.val}
	}
	return g.into(val, v.reg)
}

// ifStmt lowers
//
//	    setp p, cond
//	    @!p bra ELSE
//	    THEN
//	    bra END          (only with an else block)
//	ELSE:
//	    ELSE-BLOCK
//	END:
//
// A constant condition keeps only the arm it selects.
func (g *gen) ifStmt(s *ifStmt) error {
	c, err := g.cond(s.cond)
	if err != nil {
		return err
	}
	if c.isConst {
		live, dead := s.then, s.els
		if !c.c {
			live, dead = dead, live
		}
		if err := g.discard(func() error { return g.block(dead) }); err != nil {
			return err
		}
		return g.block(live)
	}
	skip := g.branch(c.not().operand())
	if err := g.block(s.then); err != nil {
		return err
	}
	if s.els == nil {
		g.patch(skip)
		return nil
	}
	g.pos = s.pos
	end := g.branch(isa.Operand{})
	g.patch(skip)
	if err := g.block(s.els); err != nil {
		return err
	}
	g.patch(end)
	return nil
}

// forStmt lowers a counted loop, tested at the bottom as nvcc does:
//
//	    mov i, LO
//	    setp p, i >= HI; @p bra EXIT     (omitted when the bounds are constant and the loop runs)
//	BODY:
//	    ...
//	    add i, i, STEP
//	    setp p, i < HI; @p bra BODY
//	EXIT:
//
// HI is evaluated once, before the loop. STEP is a non-zero constant; a
// negative step counts down while i > HI.
func (g *gen) forStmt(s *forStmt) error {
	step := int64(1)
	if s.step != nil {
		var err error
		if step, err = g.constant(s.step, "the loop step"); err != nil {
			return err
		}
		if step == 0 {
			return errAt(s.step.at(), "loop step must not be zero")
		}
	}
	lo, loConst, err := g.evalConst(s.lo)
	if err != nil {
		return err
	}
	hi, hiConst, err := g.evalConst(s.hi)
	if err != nil {
		return err
	}
	known := loConst && hiConst
	if known && (step > 0 && lo >= hi || step < 0 && lo <= hi) { // never runs
		return g.discard(func() error { return g.loop(s, step, true) })
	}
	return g.loop(s, step, known)
}

// loop emits the loop; runs says the first test is known to pass.
func (g *gen) loop(s *forStmt, step int64, runs bool) error {
	g.pushScope()
	defer g.popScope()
	i := g.regs.named(s.name)
	if err := g.into(s.lo, i); err != nil {
		return err
	}
	hi, err := g.value(s.hi, -1)
	if err != nil {
		return err
	}
	if hi.named { // the body may change the variable; the bound must not move
		t := g.regs.temp()
		g.mov(t, hi.operand())
		hi = val{reg: t}
	}
	stay, leave := isa.CmpLt, isa.CmpGe
	if step < 0 {
		stay, leave = isa.CmpGt, isa.CmpLe
	}
	exit := -1
	if !runs {
		exit = g.branch(g.setp(leave, isa.R(i), hi.operand()).operand())
	}
	if err := g.define(&symbol{kind: symLoopVar, name: s.name, pos: s.pos, reg: i}); err != nil {
		return err
	}
	top := len(g.code)
	if err := g.block(s.body); err != nil {
		return err
	}
	g.pos = s.pos
	g.emit(isa.Instr{Op: isa.OpAdd, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(i), isa.R(i), isa.Imm(uint64(step))}})
	back := g.branch(g.setp(stay, isa.R(i), hi.operand()).operand())
	g.code[back].Target = int32(top)
	if exit >= 0 {
		g.patch(exit)
	}
	return nil
}

// warpsStmt runs its body on the listed warps (warp = tid / 32): it is an
// if on a uniform condition, so warps never diverge on it.
func (g *gen) warpsStmt(s *warpsStmt) error {
	nw := int64(maxThreads / 32)
	if b := g.prog.Block; b[0] > 0 {
		nw = (int64(b[0]*b[1]*b[2]) + 31) / 32
	}
	var cond expr
	for _, r := range s.ranges {
		c, err := g.warpRange(r, nw)
		if err != nil {
			return err
		}
		if cond == nil {
			cond = c
		} else {
			cond = &binaryExpr{pos: s.pos, op: "||", x: cond, y: c}
		}
	}
	return g.ifStmt(&ifStmt{pos: s.pos, cond: cond, then: s.body})
}

// warpRange checks a constant range against the block's nw warps and
// returns its membership test.
func (g *gen) warpRange(r warpRange, nw int64) (expr, error) {
	p := r.lo.at()
	w := &nameExpr{pos: p, name: "warp"}
	lo, err := g.constant(r.lo, "a warp number")
	if err != nil {
		return nil, err
	}
	if lo < 0 || lo >= nw {
		return nil, errAt(p, "warp %d does not exist: the block has %s (0..%d)", lo, plural(nw, "warp"), nw-1)
	}
	if r.hi == nil {
		op := "=="
		if r.open {
			op = ">="
		}
		return &binaryExpr{pos: p, op: op, x: w, y: &numExpr{pos: p, v: lo}}, nil
	}
	hi, err := g.constant(r.hi, "the end of a warp range")
	if err != nil {
		return nil, err
	}
	if hi <= lo || hi > nw {
		return nil, errAt(r.hi.at(), "warp range %d..%d must end in %d..%d: the end is excluded and the block has %s",
			lo, hi, lo+1, nw, plural(nw, "warp"))
	}
	return &binaryExpr{pos: p, op: "&&",
		x: &binaryExpr{pos: p, op: ">=", x: w, y: &numExpr{pos: p, v: lo}},
		y: &binaryExpr{pos: p, op: "<", x: w, y: &numExpr{pos: p, v: hi}}}, nil
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return itoa64(n) + " " + word + "s"
}

func itoa64(v int64) string { return strconv.FormatInt(v, 10) }
