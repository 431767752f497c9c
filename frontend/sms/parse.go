package sms

import "strings"

// Nesting limits keep the recursive-descent parser and the lowering bounded
// on any input.
const (
	maxBlockDepth = 32   // nested { } blocks
	maxExprDepth  = 64   // nested parentheses and unary operators
	maxExprNodes  = 4096 // operators and operands in one expression
)

// declKinds are the words that start a top-level declaration.
var declKinds = map[string]bool{
	"kernel": true, "block": true, "grid": true, "smem": true, "const": true, "param": true,
	"barrier": true, "shared": true, "global": true, "tensormap": true,
}

// opKeywords introduce keyword operands after an operation's positional ones.
var opKeywords = map[string]bool{"parity": true, "token": true, "latency": true, "hint": true}

// stmtWords are the other reserved words.
var stmtWords = map[string]bool{"let": true, "if": true, "else": true, "for": true, "in": true, "step": true, "warps": true, "align": true}

type parser struct {
	toks   []token
	i      int
	depth  int // block nesting
	edepth int // expression nesting
	nodes  int // expression size
}

// parse builds the syntax tree of a whole file.
func parse(toks []token) (*file, error) {
	p := &parser{toks: toks}
	f := &file{}
	for {
		p.skipNewlines()
		t := p.peek()
		if t.kind == tEOF {
			f.end = t.pos
			return f, nil
		}
		if t.kind == tIdent && declKinds[t.text] {
			ds, err := p.decl()
			if err != nil {
				return nil, err
			}
			f.decls = append(f.decls, ds...)
			continue
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		f.body = append(f.body, s)
	}
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) skipNewlines() {
	for p.peek().kind == tNewline {
		p.i++
	}
}

func (p *parser) isPunct(s string) bool {
	t := p.peek()
	return t.kind == tPunct && t.text == s
}

func (p *parser) isWord(s string) bool {
	t := p.peek()
	return t.kind == tIdent && t.text == s
}

// expect consumes punctuation s or reports what was found instead.
func (p *parser) expect(s, context string) (token, error) {
	t := p.peek()
	if t.kind != tPunct || t.text != s {
		return t, errAt(t.pos, "expected '%s' %s, found %s", s, context, t.describe())
	}
	return p.next(), nil
}

// name consumes an identifier that names something new.
func (p *parser) name(what string) (token, error) {
	t := p.peek()
	if t.kind != tIdent {
		return t, errAt(t.pos, "expected %s, found %s", what, t.describe())
	}
	if reserved(t.text) {
		return t, errAt(t.pos, "expected %s, found reserved word %q", what, t.text)
	}
	if strings.Contains(t.text, ".") {
		return t, errAt(t.pos, "expected %s, found %q (names cannot contain '.')", what, t.text)
	}
	return p.next(), nil
}

// reserved reports whether a word cannot name a declaration or variable.
func reserved(w string) bool {
	base, _, _ := strings.Cut(w, ".")
	return declKinds[w] || opKeywords[w] || stmtWords[w] || lookupOp(base) != nil || isBuiltin(w)
}

// endStmt requires the end of a statement: a newline or ';' (consumed), or
// a '}' or the end of the file (left for the caller).
func (p *parser) endStmt(what string) error {
	t := p.peek()
	switch {
	case t.kind == tNewline:
		p.next()
		return nil
	case t.kind == tEOF, t.kind == tPunct && t.text == "}":
		return nil
	}
	return errAt(t.pos, "expected end of line after %s, found %s", what, t.describe())
}

// block parses { statements }.
func (p *parser) block(context string) ([]stmt, error) {
	open, err := p.expect("{", context)
	if err != nil {
		return nil, err
	}
	if p.depth++; p.depth > maxBlockDepth {
		return nil, errAt(open.pos, "blocks nested more than %d deep", maxBlockDepth)
	}
	defer func() { p.depth-- }()
	var out []stmt
	for {
		p.skipNewlines()
		t := p.peek()
		if t.kind == tPunct && t.text == "}" {
			p.next()
			return out, nil
		}
		if t.kind == tEOF {
			return nil, errAt(t.pos, "expected '}' to close the block opened at %d:%d, found end of file", open.pos.Line, open.pos.Col)
		}
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// stmt parses one statement and the separator after it.
func (p *parser) stmt() (stmt, error) {
	t := p.peek()
	if t.kind != tIdent {
		return nil, errAt(t.pos, "expected a statement, found %s", t.describe())
	}
	var s stmt
	var err error
	switch {
	case t.text == "let":
		s, err = p.letStmt()
	case t.text == "if":
		s, err = p.ifStmt()
	case t.text == "for":
		s, err = p.forStmt()
	case t.text == "warps":
		s, err = p.warpsStmt()
	case t.text == "else":
		return nil, errAt(t.pos, "expected a statement, found \"else\" without a preceding if block")
	case declKinds[t.text]:
		return nil, errAt(t.pos, "%s declarations are only allowed at the top level, not inside a block", t.text)
	case p.toks[p.i+1].kind == tPunct && isAssignOp(p.toks[p.i+1].text):
		s, err = p.assignStmt()
	default:
		p.next()
		s, err = p.op(t)
	}
	if err != nil {
		return nil, err
	}
	return s, p.endStmt(describeStmt(t.text))
}

func describeStmt(w string) string {
	switch w {
	case "if", "for", "warps":
		return "the " + w + " block"
	}
	return w
}

func isAssignOp(s string) bool {
	switch s {
	case "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=":
		return true
	}
	return false
}

func (p *parser) letStmt() (stmt, error) {
	kw := p.next()
	n, err := p.name("a variable name after let")
	if err != nil {
		return nil, err
	}
	if _, err := p.expect("=", "after let "+n.text); err != nil {
		return nil, err
	}
	s := &letStmt{pos: kw.pos, name: n.text}
	s.val, s.op, err = p.rhs()
	return s, err
}

func (p *parser) assignStmt() (stmt, error) {
	n := p.next()
	op := p.next()
	s := &assignStmt{pos: n.pos, name: n.text, op: op.text}
	var err error
	s.val, s.vop, err = p.rhs()
	if err == nil && s.vop != nil && op.text != "=" {
		return nil, errAt(op.pos, "expected '=' before operation %s, found '%s'", s.vop.name, op.text)
	}
	return s, err
}

// rhs parses the value of let/assignment: a value-producing operation or an expression.
func (p *parser) rhs() (expr, *opStmt, error) {
	t := p.peek()
	if t.kind == tIdent {
		base, _, _ := strings.Cut(t.text, ".")
		if spec := lookupOp(base); spec != nil {
			if !spec.value {
				return nil, nil, errAt(t.pos, "expected a value, found operation %s, which gives none "+
					"(values come from arrive, arrive_drop, test_wait, try_wait, pending_count, elect, ld)", base)
			}
			p.next()
			s, err := p.op(t)
			return nil, s, err
		}
	}
	e, err := p.expr()
	return e, nil, err
}

func (p *parser) ifStmt() (*ifStmt, error) {
	kw := p.next()
	cond, err := p.expr()
	if err != nil {
		return nil, err
	}
	s := &ifStmt{pos: kw.pos, cond: cond}
	if s.then, err = p.block("after the if condition"); err != nil {
		return nil, err
	}
	save := p.i
	p.skipNewlines()
	if !p.isWord("else") {
		p.i = save
		return s, nil
	}
	p.next()
	if p.isWord("if") {
		inner, err := p.ifStmt()
		if err != nil {
			return nil, err
		}
		s.els = []stmt{inner}
		return s, nil
	}
	s.els, err = p.block("after else")
	return s, err
}

func (p *parser) forStmt() (stmt, error) {
	kw := p.next()
	n, err := p.name("a loop variable after for")
	if err != nil {
		return nil, err
	}
	if !p.isWord("in") {
		return nil, errAt(p.peek().pos, "expected \"in\" after for %s, found %s", n.text, p.peek().describe())
	}
	p.next()
	s := &forStmt{pos: kw.pos, name: n.text}
	if s.lo, err = p.expr(); err != nil {
		return nil, err
	}
	if _, err := p.expect("..", "between the loop bounds (for i in 0..N)"); err != nil {
		return nil, err
	}
	if s.hi, err = p.expr(); err != nil {
		return nil, err
	}
	if p.isWord("step") {
		p.next()
		if s.step, err = p.expr(); err != nil {
			return nil, err
		}
	}
	s.body, err = p.block("after the loop range")
	return s, err
}

func (p *parser) warpsStmt() (stmt, error) {
	kw := p.next()
	s := &warpsStmt{pos: kw.pos}
	for {
		var r warpRange
		var err error
		if r.lo, err = p.expr(); err != nil {
			return nil, err
		}
		if p.isPunct("..") {
			p.next()
			if p.isPunct("{") || p.isPunct(",") {
				r.open = true
			} else if r.hi, err = p.expr(); err != nil {
				return nil, err
			}
		}
		s.ranges = append(s.ranges, r)
		if !p.isPunct(",") {
			break
		}
		p.next()
	}
	var err error
	s.body, err = p.block("after the warp list")
	return s, err
}

// op parses the operands of operation name (already consumed):
// positional operands separated by commas, then keyword operands.
func (p *parser) op(name token) (*opStmt, error) {
	base, _, _ := strings.Cut(name.text, ".")
	if lookupOp(base) == nil {
		return nil, errAt(name.pos, "expected a statement, found unknown operation %s "+
			"(statements: let, if, for, warps, NAME = EXPR, or an operation such as arrive, wait, compute)", name.describe())
	}
	s := &opStmt{pos: name.pos, name: name.text}
	if !p.atOperandEnd() && !p.atKeyword() {
		for {
			a, err := p.operand()
			if err != nil {
				return nil, err
			}
			s.args = append(s.args, a)
			if !p.isPunct(",") {
				break
			}
			p.next()
		}
	}
	for p.atKeyword() {
		k := p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		s.kws = append(s.kws, kwArg{pos: k.pos, key: k.text, x: x})
	}
	return s, nil
}

func (p *parser) atOperandEnd() bool {
	t := p.peek()
	return t.kind == tNewline || t.kind == tEOF || t.kind == tPunct && t.text == "}"
}

func (p *parser) atKeyword() bool {
	t := p.peek()
	return t.kind == tIdent && opKeywords[t.text]
}

func (p *parser) operand() (arg, error) {
	t := p.peek()
	if t.kind == tPunct && t.text == "[" {
		p.next()
		x, err := p.expr()
		if err != nil {
			return arg{}, err
		}
		if _, err := p.expect("]", "to close the address"); err != nil {
			return arg{}, err
		}
		return arg{pos: t.pos, addr: true, x: x}, nil
	}
	x, err := p.expr()
	return arg{pos: t.pos, x: x}, err
}
