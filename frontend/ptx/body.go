package ptx

import "strings"

// block parses `{ stmt... }` at the '{' token, with its own scope.
func (p *parser) block() *Block {
	open := p.next()
	p.enter(open)
	p.push()
	b := &Block{Pos: p.pos(open)}
	for !p.accept("}") {
		if t := p.cur(); t.kind == tEOF {
			p.failAt(t, "expected '}' to close block opened at %d:%d, found end of file", open.line, open.col)
		}
		b.Stmts = p.stmt(b.Stmts)
	}
	p.pop()
	p.depth--
	return b
}

// stmt parses one statement and appends what it yields to out.
func (p *parser) stmt(out []Stmt) []Stmt {
	t := p.cur()
	switch t.kind {
	case tPunct:
		switch t.text {
		case "{":
			return append(out, p.block())
		case "@":
			return append(out, p.instr())
		case ";":
			p.next() // empty statement
			return out
		}
	case tDir:
		return p.dirStmt(out)
	case tWord:
		if next := p.peekAt(1); next.kind == tPunct && next.text == ":" {
			return append(out, p.labelled())
		}
		return append(out, p.instr())
	}
	p.expected("statement")
	return out
}

// dirStmt parses a directive inside a body: a declaration, .loc or .pragma.
func (p *parser) dirStmt(out []Stmt) []Stmt {
	t := p.cur()
	switch {
	case t.text == ".loc":
		return append(out, p.loc())
	case t.text == ".pragma":
		return append(out, p.pragma())
	case isSpace(t.text) || isLinkage(t.text):
		linkage := ""
		if isLinkage(t.text) {
			linkage = p.next().text[1:]
			if !isSpace(p.cur().text) {
				p.expected("state space")
			}
		}
		for _, d := range p.declaration(linkage) {
			out = append(out, d)
		}
		return out
	}
	p.failAt(t, "unexpected directive %s in function body", describe(t))
	return out
}

// labelled parses `NAME :` and what a label may introduce:
// .callprototype or .branchtargets/.calltargets; otherwise a plain label.
func (p *parser) labelled() Stmt {
	t := p.cur()
	name := p.ident("label")
	p.next() // ':'
	switch p.cur().text {
	case ".callprototype":
		return p.proto(t, name)
	case ".branchtargets", ".calltargets":
		kind := p.next().text[1:]
		tg := &Targets{Pos: p.pos(t), Name: name, Kind: kind, Names: []string{p.ident("target name")}}
		for p.accept(",") {
			tg.Names = append(tg.Names, p.ident("target name"))
		}
		p.expect(";")
		return tg
	}
	return &Label{Pos: p.pos(t), Name: name}
}

// proto parses `.callprototype [(returns)] _ [(params)] attrs ;`.
func (p *parser) proto(t token, name string) *Proto {
	p.next()
	pr := &Proto{Pos: p.pos(t), Name: name}
	p.push()
	if p.isPunct("(") {
		pr.Returns = p.paramList()
	}
	if c := p.cur(); c.kind != tWord || c.text != "_" {
		p.expected("'_'")
	}
	p.next()
	if p.isPunct("(") {
		pr.Params = p.paramList()
	}
	pr.Attrs = p.funcAttrs()
	p.pop()
	p.expect(";")
	return pr
}

// instr parses `[@[!]PRED] OPCODE [operand {, operand}] ;`.
func (p *parser) instr() *Instr {
	start := p.cur()
	in := &Instr{Pos: p.pos(start)}
	if p.accept("@") {
		in.Guard = p.guard(start)
	}
	t := p.cur()
	if t.kind != tWord || !isLetter(t.text[0]) {
		p.expected("instruction")
	}
	in.Op, in.Mods = splitOpcode(t.text)
	if in.Op == "" {
		p.failAt(t, "bad opcode %s", describe(t))
	}
	// A body longer than a kernel may be cannot be lowered into one, nor a
	// module longer than all its kernels may be together; each is refused
	// here, before the rest of it takes memory as a syntax tree.
	if p.instrs++; p.instrs > maxInstrs {
		p.failAt(start, "function body has more than %d instructions, the most a kernel may have", maxInstrs)
	}
	if p.total++; p.total > maxModule {
		p.failAt(start, "the module has more than %d instructions, the most its kernels may have together", maxModule)
	}
	p.next()
	if p.accept(";") {
		return in
	}
	for {
		in.Operands = append(in.Operands, p.operand())
		if p.accept(";") {
			return in
		}
		if !p.isPunct(",") {
			p.expected("',' or ';'")
		}
		p.next()
	}
}

// guard parses the predicate after '@'.
func (p *parser) guard(at token) *Guard {
	g := &Guard{Pos: p.pos(at), Neg: p.accept("!")}
	t := p.cur()
	if t.kind != tWord {
		p.expected("predicate register")
	}
	switch x := p.nameOperand(t).(type) {
	case *Reg:
		g.Pred = x
	case *Sym: // an undeclared plain name: a guard is always a register
		g.Pred = &Reg{Pos: x.Pos, Name: x.Name}
	default:
		p.failAt(t, "expected predicate register, found %s", describe(t))
	}
	return g
}

// splitOpcode splits "a.b.c::d" into "a" and ["b" "c::d"]. It returns an
// empty op if a part is empty.
func splitOpcode(word string) (string, []string) {
	op, rest, found := strings.Cut(word, ".")
	if !found {
		return op, nil
	}
	mods := make([]string, 0, strings.Count(rest, ".")+1)
	for {
		part, tail, more := strings.Cut(rest, ".")
		if part == "" {
			return "", nil
		}
		mods = append(mods, part)
		if !more {
			return op, mods
		}
		rest = tail
	}
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
