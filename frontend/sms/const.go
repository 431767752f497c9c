package sms

import "github.com/smsim/smsim/isa"

// evalConst evaluates e at compile time. ok is false (with no error) when e
// depends on a run-time value; err reports names that do not exist, objects
// that are not values, and arithmetic errors.
func (g *gen) evalConst(e expr) (v int64, ok bool, err error) {
	switch e := e.(type) {
	case *numExpr:
		return e.v, true, nil
	case *nameExpr:
		return g.constName(e)
	case *indexExpr:
		return g.constIndex(e)
	case *unaryExpr:
		x, ok, err := g.evalConst(e.x)
		if !ok || err != nil {
			return 0, ok, err
		}
		return foldUnary(e.op, x), true, nil
	case *binaryExpr:
		x, okx, err := g.evalConst(e.x)
		if err != nil {
			return 0, false, err
		}
		y, oky, err := g.evalConst(e.y)
		if err != nil || !okx || !oky {
			return 0, false, err
		}
		v, err := foldBinary(e.pos, e.op, x, y)
		return v, err == nil, err
	}
	return 0, false, errAt(e.at(), "expected an expression")
}

// constant evaluates an expression that must be known at compile time.
func (g *gen) constant(e expr, what string) (int64, error) {
	v, ok, err := g.evalConst(e)
	if err != nil {
		return 0, err
	}
	if !ok {
		return 0, errAt(e.at(), "expected a compile-time constant for %s, found an expression of run-time values", what)
	}
	return v, nil
}

// constantIn evaluates a constant and checks lo <= v <= hi.
func (g *gen) constantIn(e expr, what string, lo, hi int64) (int64, error) {
	v, err := g.constant(e, what)
	if err == nil && (v < lo || v > hi) {
		err = errAt(e.at(), "%s must be in %d..%d, found %d", what, lo, hi, v)
	}
	return v, err
}

func (g *gen) constName(e *nameExpr) (int64, bool, error) {
	if e.name == "dynsmem" {
		if !g.laidOut {
			return 0, false, errAt(e.pos, "dynsmem is known only after all declarations; use it in code")
		}
		return int64(g.prog.DynSmemBase()), true, nil
	}
	if isBuiltin(e.name) {
		return 0, false, nil
	}
	s, err := g.resolve(e.pos, e.name)
	if err != nil {
		return 0, false, err
	}
	switch s.kind {
	case symConst:
		return s.val, true, nil
	case symShared:
		if !g.laidOut {
			return 0, false, errAt(e.pos, "shared region %s has no offset until all declarations are read; use it in code", e.name)
		}
		return s.val, true, nil
	case symBarrier, symTensor:
		return 0, false, errAt(e.pos, "%s %s is not a value (use it as an operand, e.g. arrive %s)", s.kind, e.name, e.name)
	}
	return 0, false, nil
}

// constIndex folds NAME[i]... of a shared region with constant indices.
func (g *gen) constIndex(e *indexExpr) (int64, bool, error) {
	s, err := g.resolve(e.pos, e.name)
	if err != nil {
		return 0, false, err
	}
	if s.kind != symShared && s.kind != symBuffer {
		return 0, false, errAt(e.pos, "%s %s cannot be indexed in an expression (only shared regions and global buffers give element addresses)", s.kind, e.name)
	}
	if len(e.idx) > len(s.dims) {
		return 0, false, errAt(e.pos, "%s %s has %d dimensions, found %d indices", s.kind, e.name, len(s.dims), len(e.idx))
	}
	base, ok, err := g.constName(&nameExpr{pos: e.pos, name: e.name})
	for k, x := range e.idx {
		v, okk, err2 := g.evalConst(x)
		if err2 != nil {
			return 0, false, err2
		}
		if okk && (v < 0 || v >= s.dims[k]) {
			return 0, false, errAt(x.at(), "index %d of %s is out of range 0..%d", v, e.name, s.dims[k]-1)
		}
		base += v * stride(s.dims, k)
		ok = ok && okk
	}
	return base, ok && err == nil, err
}

// stride is the byte distance between consecutive indices of dimension k.
func stride(dims []int64, k int) int64 {
	s := int64(1)
	for _, d := range dims[k+1:] {
		s *= d
	}
	return s
}

func foldUnary(op string, x int64) int64 {
	switch op {
	case "-":
		return -x
	case "~":
		return ^x
	}
	return b2i(x == 0) // "!"
}

// foldBinary computes x op y with the run-time semantics of the lowered
// instruction (64-bit two's complement), rejecting division by zero and
// negative shift counts.
func foldBinary(pos isa.Pos, op string, x, y int64) (int64, error) {
	switch op {
	case "+":
		return x + y, nil
	case "-":
		return x - y, nil
	case "*":
		return x * y, nil
	case "/", "%":
		if y == 0 {
			return 0, errAt(pos, "division by zero in a constant expression")
		}
		if op == "/" {
			return x / y, nil
		}
		return x % y, nil
	case "&":
		return x & y, nil
	case "|":
		return x | y, nil
	case "^":
		return x ^ y, nil
	case "<<", ">>":
		return foldShift(pos, op, x, y)
	}
	return foldCompare(op, x, y), nil
}

func foldShift(pos isa.Pos, op string, x, y int64) (int64, error) {
	if y < 0 {
		return 0, errAt(pos, "negative shift count %d in a constant expression", y)
	}
	if op == "<<" {
		if y >= 64 {
			return 0, nil
		}
		return x << uint(y), nil
	}
	if y >= 64 {
		y = 63
	}
	return x >> uint(y), nil
}

func foldCompare(op string, x, y int64) int64 {
	switch op {
	case "==":
		return b2i(x == y)
	case "!=":
		return b2i(x != y)
	case "<":
		return b2i(x < y)
	case "<=":
		return b2i(x <= y)
	case ">":
		return b2i(x > y)
	case ">=":
		return b2i(x >= y)
	case "&&":
		return b2i(x != 0 && y != 0)
	}
	return b2i(x != 0 || y != 0) // "||"
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
