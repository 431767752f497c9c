package sms

import "github.com/smsim/smsim/isa"

// The syntax tree of a .sms file. Nodes keep the position of their first
// token; expressions are evaluated later, when names are known.

type expr interface{ at() isa.Pos }

type (
	// numExpr is an integer literal.
	numExpr struct {
		pos isa.Pos
		v   int64
	}
	// nameExpr is a reference to a constant, variable, builtin or declared object.
	nameExpr struct {
		pos  isa.Pos
		name string
	}
	// indexExpr is NAME[i][j] or NAME[i, j]: a barrier array element, an
	// element address of a shared region or buffer, or a tensor coordinate list.
	indexExpr struct {
		pos  isa.Pos
		name string
		idx  []expr
	}
	unaryExpr struct {
		pos isa.Pos
		op  string
		x   expr
	}
	binaryExpr struct {
		pos  isa.Pos
		op   string
		x, y expr
	}
)

func (e *numExpr) at() isa.Pos    { return e.pos }
func (e *nameExpr) at() isa.Pos   { return e.pos }
func (e *indexExpr) at() isa.Pos  { return e.pos }
func (e *unaryExpr) at() isa.Pos  { return e.pos }
func (e *binaryExpr) at() isa.Pos { return e.pos }

type stmt interface{ at() isa.Pos }

type (
	// letStmt declares a per-lane variable: let NAME = EXPR | let NAME = OP ...
	letStmt struct {
		pos  isa.Pos
		name string
		val  expr    // nil when op is set
		op   *opStmt // a value-producing operation (arrive, try_wait, ld, elect, ...)
	}
	// assignStmt is NAME = EXPR, NAME op= EXPR or NAME = OP ...
	assignStmt struct {
		pos  isa.Pos
		name string
		op   string // "=", "+=", ...
		val  expr
		vop  *opStmt
	}
	ifStmt struct {
		pos       isa.Pos
		cond      expr
		then, els []stmt
	}
	// forStmt is for VAR in LO..HI [step S] { BODY }: VAR = LO, LO+S, ... while < HI.
	forStmt struct {
		pos          isa.Pos
		name         string
		lo, hi, step expr // step nil: 1
		body         []stmt
	}
	// warpsStmt runs BODY on the listed warps; the others skip it.
	warpsStmt struct {
		pos    isa.Pos
		ranges []warpRange
		body   []stmt
	}
	// opStmt is an operation: NAME operand, operand ... [keyword expr ...].
	opStmt struct {
		pos  isa.Pos
		name string
		args []arg
		kws  []kwArg
	}
)

// warpRange is A (hi nil, open false), A..B (B excluded) or A.. (open).
type warpRange struct {
	lo, hi expr
	open   bool
}

// arg is a positional operand; addr marks the [EXPR] form.
type arg struct {
	pos  isa.Pos
	addr bool
	x    expr
}

// kwArg is a keyword operand such as "parity 0" or "latency 8".
type kwArg struct {
	pos isa.Pos
	key string
	x   expr
}

func (s *letStmt) at() isa.Pos    { return s.pos }
func (s *assignStmt) at() isa.Pos { return s.pos }
func (s *ifStmt) at() isa.Pos     { return s.pos }
func (s *forStmt) at() isa.Pos    { return s.pos }
func (s *warpsStmt) at() isa.Pos  { return s.pos }
func (s *opStmt) at() isa.Pos     { return s.pos }

// decl is a top-level declaration. Which fields are used depends on kind.
type decl struct {
	pos   isa.Pos
	kind  string // kernel block grid smem const param barrier shared global tensormap
	name  string
	npos  isa.Pos // position of the name
	args  []expr  // block/grid dims, smem bytes, const/param value
	dims  []expr  // barrier array length, shared/global dimensions
	align expr    // shared / smem alignment, nil for the default
	str   string  // tensormap spec, global fill
	spos  isa.Pos // position of str
}

// file is a parsed .sms source: declarations and code, each in source order.
type file struct {
	decls []*decl
	body  []stmt
	end   isa.Pos
}
