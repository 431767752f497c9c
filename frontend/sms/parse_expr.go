package sms

// binaryPrec gives the precedence of binary operators, as in Go: higher binds
// tighter, so "lane & 1 == 0" is "(lane & 1) == 0".
var binaryPrec = map[string]int{
	"||": 1,
	"&&": 2,
	"==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3,
	"+": 4, "-": 4, "|": 4, "^": 4,
	"*": 5, "/": 5, "%": 5, "<<": 5, ">>": 5, "&": 5,
}

// expr parses a whole expression, bounding its size.
func (p *parser) expr() (expr, error) {
	p.nodes = 0
	return p.binary(1)
}

func (p *parser) count(t token) error {
	if p.nodes++; p.nodes > maxExprNodes {
		return errAt(t.pos, "expression has more than %d operators and operands", maxExprNodes)
	}
	return nil
}

// binary parses operators of precedence prec and above (precedence climbing).
func (p *parser) binary(prec int) (expr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		q, ok := binaryPrec[t.text]
		if t.kind != tPunct || !ok || q < prec {
			return x, nil
		}
		p.next()
		if err := p.count(t); err != nil {
			return nil, err
		}
		y, err := p.binary(q + 1)
		if err != nil {
			return nil, err
		}
		x = &binaryExpr{pos: t.pos, op: t.text, x: x, y: y}
	}
}

func (p *parser) unary() (expr, error) {
	t := p.peek()
	if t.kind == tPunct && (t.text == "-" || t.text == "!" || t.text == "~") {
		p.next()
		if err := p.nest(t); err != nil {
			return nil, err
		}
		defer func() { p.edepth-- }()
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return &unaryExpr{pos: t.pos, op: t.text, x: x}, nil
	}
	return p.primary()
}

func (p *parser) nest(t token) error {
	if p.edepth++; p.edepth > maxExprDepth {
		return errAt(t.pos, "expression nested more than %d deep", maxExprDepth)
	}
	return p.count(t)
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	if err := p.count(t); err != nil {
		return nil, err
	}
	switch {
	case t.kind == tNum:
		return &numExpr{pos: t.pos, v: t.num}, nil
	case t.kind == tIdent:
		if reserved(t.text) && !isBuiltin(t.text) {
			return nil, errAt(t.pos, "expected an expression, found reserved word %q", t.text)
		}
		if !p.isPunct("[") {
			return &nameExpr{pos: t.pos, name: t.text}, nil
		}
		return p.index(t)
	case t.kind == tPunct && t.text == "(":
		if err := p.nest(t); err != nil {
			return nil, err
		}
		defer func() { p.edepth-- }()
		x, err := p.binary(1)
		if err != nil {
			return nil, err
		}
		_, err = p.expect(")", "to close the parenthesis")
		return x, err
	}
	return nil, errAt(t.pos, "expected an expression, found %s", t.describe())
}

// index parses NAME[a][b] or NAME[a, b] (name already consumed).
func (p *parser) index(name token) (expr, error) {
	e := &indexExpr{pos: name.pos, name: name.text}
	for p.isPunct("[") {
		open := p.next()
		if err := p.nest(open); err != nil {
			return nil, err
		}
		for {
			x, err := p.binary(1)
			if err != nil {
				return nil, err
			}
			e.idx = append(e.idx, x)
			if !p.isPunct(",") {
				break
			}
			p.next()
		}
		p.edepth--
		if _, err := p.expect("]", "to close the index"); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// decl parses one top-level declaration line (barrier lines may declare several).
func (p *parser) decl() ([]*decl, error) {
	kw := p.next()
	d := &decl{pos: kw.pos, kind: kw.text}
	var err error
	switch kw.text {
	case "kernel":
		err = p.declName(d)
	case "block", "grid":
		d.args, err = p.exprList(3)
	case "smem":
		err = p.declSmem(d)
	case "const", "param":
		err = p.declValue(d)
	case "barrier":
		return p.declBarriers(kw)
	case "shared":
		err = p.declShared(d)
	case "global":
		err = p.declGlobal(d)
	case "tensormap":
		err = p.declTensormap(d)
	}
	if err != nil {
		return nil, err
	}
	return []*decl{d}, p.endStmt(kw.text + " declaration")
}

func (p *parser) declName(d *decl) error {
	n, err := p.name(d.kind + " name")
	d.name, d.npos = n.text, n.pos
	return err
}

func (p *parser) exprList(maxN int) ([]expr, error) {
	var out []expr
	for {
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		out = append(out, x)
		if !p.isPunct(",") || len(out) == maxN {
			return out, nil
		}
		p.next()
	}
}

func (p *parser) declSmem(d *decl) error {
	x, err := p.expr()
	if err != nil {
		return err
	}
	d.args = []expr{x}
	return p.declAlign(d)
}

func (p *parser) declAlign(d *decl) error {
	if !p.isWord("align") {
		return nil
	}
	p.next()
	var err error
	d.align, err = p.expr()
	return err
}

func (p *parser) declValue(d *decl) error {
	if err := p.declName(d); err != nil {
		return err
	}
	if _, err := p.expect("=", "after "+d.kind+" "+d.name); err != nil {
		return err
	}
	x, err := p.expr()
	d.args = []expr{x}
	return err
}

// dims parses one or more [EXPR] after a name.
func (p *parser) dims(d *decl, need bool) error {
	if need && !p.isPunct("[") {
		return errAt(p.peek().pos, "expected '[' and a size in bytes after %s %s, found %s", d.kind, d.name, p.peek().describe())
	}
	for p.isPunct("[") {
		p.next()
		x, err := p.expr()
		if err != nil {
			return err
		}
		d.dims = append(d.dims, x)
		if _, err := p.expect("]", "to close the size"); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) declBarriers(kw token) ([]*decl, error) {
	var out []*decl
	for {
		d := &decl{pos: kw.pos, kind: kw.text}
		if err := p.declName(d); err != nil {
			return nil, err
		}
		if err := p.dims(d, false); err != nil {
			return nil, err
		}
		out = append(out, d)
		if !p.isPunct(",") {
			return out, p.endStmt("barrier declaration")
		}
		p.next()
	}
}

func (p *parser) declShared(d *decl) error {
	if err := p.declName(d); err != nil {
		return err
	}
	if err := p.dims(d, true); err != nil {
		return err
	}
	return p.declAlign(d)
}

func (p *parser) declGlobal(d *decl) error {
	if err := p.declName(d); err != nil {
		return err
	}
	if err := p.dims(d, true); err != nil {
		return err
	}
	if t := p.peek(); t.kind == tIdent || t.kind == tStr {
		p.next()
		d.str, d.spos = t.text, t.pos
	}
	return nil
}

func (p *parser) declTensormap(d *decl) error {
	if err := p.declName(d); err != nil {
		return err
	}
	t := p.peek()
	if t.kind != tStr {
		return errAt(t.pos, "expected the tensor map as a string (\"f16,8192x16384,box=64x64,buf=NAME\") after tensormap %s, found %s", d.name, t.describe())
	}
	p.next()
	d.str, d.spos = t.text, t.pos
	return nil
}
