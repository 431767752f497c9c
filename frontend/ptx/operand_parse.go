package ptx

import "strings"

// operand parses one instruction operand: `!x`, `a|b`, or a primary.
func (p *parser) operand() Operand {
	t := p.cur()
	if p.accept("!") {
		return &Not{Pos: p.pos(t), X: p.simple()}
	}
	x := p.primary()
	if p.accept("|") {
		return &Pair{Pos: p.pos(t), A: x, B: p.simple()}
	}
	return x
}

// primary parses an address, vector, call list or simple operand.
func (p *parser) primary() Operand {
	switch {
	case p.isPunct("["):
		return p.address()
	case p.isPunct("{"):
		return p.vector()
	case p.isPunct("("):
		return p.list()
	}
	return p.simple()
}

// simple parses a register, symbol (with optional offset), sink or
// immediate.
func (p *parser) simple() Operand {
	t := p.cur()
	switch {
	case t.kind == tNum || p.isPunct("-"):
		return p.immediate()
	case t.kind == tWord:
		x := p.nameOperand(t)
		if s, ok := x.(*Sym); ok {
			s.Offset = p.offset()
		}
		return x
	}
	p.expected("operand")
	return nil
}

// nameOperand consumes the word t and classifies it: `_` is a Sink, a
// '%' name or a plain name declared as a register in scope is a Reg (split
// at its first dot into name and component), anything else a Sym.
func (p *parser) nameOperand(t token) Operand {
	p.next()
	pos, text := p.pos(t), t.text
	if text == "_" {
		return &Sink{Pos: pos}
	}
	base, comp, _ := strings.Cut(text, ".")
	if strings.Contains(text, ":") || strings.HasSuffix(text, ".") || strings.Contains(comp, ".") {
		p.failAt(t, "bad operand %s", describe(t))
	}
	if base[0] == '%' || p.isReg(base) {
		return &Reg{Pos: pos, Name: base, Comp: comp, Special: base[0] == '%' && isSpecial(base)}
	}
	if comp != "" {
		p.failAt(t, "bad operand %s", describe(t))
	}
	if text == warpSizeName {
		// WARP_SZ is the one predefined constant of the PTX ISA (its
		// "Predefined identifiers"): the number of threads in a warp, an
		// immediate wherever one is allowed (nvcc writes warpSize as
		// `mov.u32 %r1, WARP_SZ;`).
		return &Imm{Pos: pos, Kind: ImmInt, Int: warpSize, Text: text}
	}
	return &Sym{Pos: pos, Name: text}
}

// address parses `[base[+off] {, coord}]` or `[imm]`.
func (p *parser) address() *Addr {
	open := p.next()
	a := &Addr{Pos: p.pos(open)}
	t := p.cur()
	switch {
	case t.kind == tWord && t.text != "_":
		a.Base = p.nameOperand(t)
		a.Offset = p.offset()
	case t.kind == tNum || p.isPunct("-"):
		a.Offset = p.intLit()
	default:
		p.expected("address")
	}
	for p.accept(",") {
		if p.isPunct("{") {
			a.Coords = append(a.Coords, p.vector())
		} else {
			a.Coords = append(a.Coords, p.simple())
		}
	}
	if !p.isPunct("]") {
		p.expected("']'")
	}
	p.next()
	return a
}

// vector parses `{x, y, ...}` of simple operands.
func (p *parser) vector() *Vector {
	open := p.next()
	v := &Vector{Pos: p.pos(open)}
	for {
		v.Elems = append(v.Elems, p.simple())
		if p.accept("}") {
			return v
		}
		if !p.isPunct(",") {
			p.expected("',' or '}'")
		}
		p.next()
	}
}

// list parses the parenthesized argument list of call: `(a, b)` or `()`.
func (p *parser) list() *List {
	open := p.next()
	l := &List{Pos: p.pos(open)}
	if p.accept(")") {
		return l
	}
	for {
		l.Elems = append(l.Elems, p.simple())
		if p.accept(")") {
			return l
		}
		if !p.isPunct(",") {
			p.expected("',' or ')'")
		}
		p.next()
	}
}

// immediate parses an optionally negated number literal.
func (p *parser) immediate() *Imm {
	start := p.cur()
	neg := p.accept("-")
	t := p.cur()
	if t.kind != tNum {
		p.expected("number")
	}
	v, msg := parseNumber(t.text)
	if msg != "" {
		p.failAt(t, "%s", msg)
	}
	p.next()
	imm := &v
	imm.Pos = p.pos(start)
	if neg {
		imm.negate()
	}
	return imm
}
