package ptx

// funcAttrNames are the function-header directives kept as attributes.
var funcAttrNames = map[string]bool{
	"maxntid": true, "reqntid": true, "minnctapersm": true, "maxnctapersm": true,
	"maxnreg": true, "explicitcluster": true, "reqnctapercluster": true,
	"maxclusterrank": true, "noreturn": true, "blocksareclusters": true,
	"abi_preserve": true, "abi_preserve_control": true,
}

// function parses `.entry|.func [(returns)] name [(params)] attrs (body|;)`.
// start is the first token of the declaration (linkage or keyword).
func (p *parser) function(linkage string, start token) *Func {
	kw := p.next()
	f := &Func{Pos: p.pos(start), Entry: kw.text == ".entry", Linkage: linkage}
	p.push() // parameters are visible in the body
	if p.isPunct("(") {
		f.Returns = p.paramList()
	}
	f.NamePos = p.pos(p.cur())
	f.Name = p.name("function name")
	if p.isPunct("(") {
		f.Params = p.paramList()
	}
	f.Attrs = p.funcAttrs()
	switch {
	case p.accept(";"):
	case p.isPunct("{"):
		p.instrs = 0
		f.Body = p.block()
	default:
		p.expected("'{' or ';'")
	}
	p.pop()
	return f
}

// paramList parses `( [param {, param}] )`.
func (p *parser) paramList() []*VarDecl {
	p.expect("(")
	var ps []*VarDecl
	if p.accept(")") {
		return ps
	}
	for {
		t := p.cur()
		if t.kind != tDir || !isSpace(t.text) {
			p.expected("parameter declaration")
		}
		d := p.declHead("")
		p.declName(d, false)
		p.declare(d)
		ps = append(ps, d)
		if p.accept(")") {
			return ps
		}
		if !p.isPunct(",") {
			p.expected("',' or ')'")
		}
		p.next()
	}
}

// funcAttrs parses the performance-tuning directives and pragmas between
// a function's parameter list and its body.
func (p *parser) funcAttrs() []Attr {
	var attrs []Attr
	for {
		t := p.cur()
		if t.kind != tDir {
			return attrs
		}
		if t.text == ".pragma" {
			pr := p.pragma()
			attrs = append(attrs, Attr{Pos: pr.Pos, Name: "pragma", Strs: pr.Values})
			continue
		}
		if !funcAttrNames[t.text[1:]] {
			return attrs
		}
		p.next()
		a := Attr{Pos: p.pos(t), Name: t.text[1:]}
		if p.cur().kind == tNum {
			a.Args = append(a.Args, p.intLit())
			for p.accept(",") {
				a.Args = append(a.Args, p.intLit())
			}
		}
		attrs = append(attrs, a)
	}
}

// pragma parses `.pragma "s" {, "s"} ;`.
func (p *parser) pragma() *Pragma {
	t := p.next()
	pr := &Pragma{Pos: p.pos(t), Values: []string{p.str()}}
	for p.accept(",") {
		pr.Values = append(pr.Values, p.str())
	}
	p.expect(";")
	return pr
}

// loc parses `.loc FILE LINE COL {, function_name LABEL[+N] | , inlined_at F L C}`.
// .loc has no terminating semicolon.
func (p *parser) loc() *Loc {
	t := p.next()
	l := &Loc{Pos: p.pos(t)}
	l.File, l.Line, l.Col = p.smallInt(), p.smallInt(), p.smallInt()
	for p.accept(",") {
		switch p.cur().text {
		case "function_name":
			p.next()
			p.ident("label")
			if p.accept("+") {
				p.intLit()
			}
		case "inlined_at":
			p.next()
			p.smallInt()
			p.smallInt()
			p.smallInt()
		default:
			p.expected("function_name or inlined_at")
		}
	}
	return l
}

// fileDirective parses `.file N "path" [, TIMESTAMP, SIZE]` (no semicolon).
func (p *parser) fileDirective() {
	p.next()
	n := p.smallInt()
	name := p.str()
	if p.accept(",") {
		p.intLit()
		p.expect(",")
		p.intLit()
	}
	if p.mod.Files == nil {
		p.mod.Files = map[int]string{}
	}
	p.mod.Files[n] = name
}

// section skips a debug section `.section NAME { ... }`, braces balanced.
func (p *parser) section() {
	p.next()
	if t := p.cur(); t.kind != tDir && t.kind != tWord {
		p.expected("section name")
	}
	p.next()
	open := p.expect("{")
	for depth := 1; depth > 0; p.next() {
		t := p.cur()
		switch {
		case t.kind == tEOF || t.kind == tErr:
			p.failAt(t, "expected '}' to close section opened at %d:%d, found %s", open.line, open.col, describe(t))
		case t.kind == tPunct && t.text == "{":
			depth++
		case t.kind == tPunct && t.text == "}":
			depth--
		}
	}
}

// intLit parses an optionally negated integer literal.
func (p *parser) intLit() int64 {
	neg := p.accept("-")
	t := p.cur()
	if t.kind != tNum {
		p.expected("integer")
	}
	imm, msg := parseNumber(t.text)
	if msg != "" {
		p.failAt(t, "%s", msg)
	}
	if imm.Kind != ImmInt {
		p.failAt(t, "expected integer, found %s", describe(t))
	}
	p.next()
	if neg {
		return -imm.Int
	}
	return imm.Int
}
