package ptx

import "strings"

var stateSpaces = map[string]bool{
	"reg": true, "sreg": true, "const": true, "global": true, "local": true,
	"param": true, "shared": true, "tex": true,
}

// types are the fundamental and opaque types accepted in declarations.
var types = map[string]bool{
	"b8": true, "b16": true, "b32": true, "b64": true, "b128": true,
	"u8": true, "u16": true, "u32": true, "u64": true,
	"s8": true, "s16": true, "s32": true, "s64": true,
	"f16": true, "f16x2": true, "bf16": true, "bf16x2": true, "f32": true, "f64": true,
	"tf32": true, "pred": true, "e4m3": true, "e5m2": true, "e4m3x2": true, "e5m2x2": true,
	"e2m1": true, "e2m1x2": true, "e2m3": true, "e3m2": true, "e2m3x2": true, "e3m2x2": true,
	"ue8m0": true, "ue8m0x2": true, "texref": true, "samplerref": true, "surfref": true,
}

// isSpace reports whether a directive word is a state space, optionally
// qualified (".shared::cta").
func isSpace(dir string) bool {
	if len(dir) < 2 || dir[0] != '.' {
		return false
	}
	name, _, _ := strings.Cut(dir[1:], "::")
	return stateSpaces[name]
}

// declaration parses `SPACE modifiers TYPE name [, name]... ;` at the state
// space token and declares the names in the current scope.
func (p *parser) declaration(linkage string) []*VarDecl {
	head := p.declHead(linkage)
	var out []*VarDecl
	for {
		d := *head
		p.declName(&d, true)
		p.declare(&d)
		out = append(out, &d)
		if p.accept(";") {
			return out
		}
		if !p.isPunct(",") {
			p.expected("',' or ';'")
		}
		p.next()
	}
}

// declHead parses the state space, alignment, vector width, .ptr,
// .attribute and type of a declaration, in any order.
func (p *parser) declHead(linkage string) *VarDecl {
	t := p.next()
	d := &VarDecl{Pos: p.pos(t), Linkage: linkage, Space: t.text[1:]}
	for p.cur().kind == tDir && p.headItem(d) {
	}
	if d.Type == "" {
		p.expected("type")
	}
	return d
}

// headItem consumes one declaration modifier at the current directive
// token, or returns false if it is not one.
func (p *parser) headItem(d *VarDecl) bool {
	t := p.cur()
	name := t.text[1:]
	switch {
	case name == "align":
		p.next()
		if d.Ptr {
			d.PtrAlign = p.smallInt()
		} else {
			d.Align = p.smallInt()
		}
		return true
	case name == "attribute":
		d.Attrs = append(d.Attrs, p.attribute()...)
		return true
	case name == "v2" || name == "v4" || name == "v8":
		d.Vec = int(name[1] - '0')
	case name == "ptr":
		d.Ptr = true
	case d.Ptr && d.PtrSpace == "" && isSpace(t.text):
		d.PtrSpace = name
	case types[name]:
		if d.Type != "" {
			p.failAt(t, "second type %s in declaration", describe(t))
		}
		d.Type = name
	default:
		return false
	}
	p.next()
	return true
}

// attribute parses `.attribute( .name[(args)] {, .name[(args)]} )` and
// returns the names.
func (p *parser) attribute() []string {
	p.next()
	p.expect("(")
	var names []string
	for {
		t := p.cur()
		if t.kind != tDir {
			p.expected("attribute name")
		}
		names = append(names, p.next().text[1:])
		if p.accept("(") {
			p.intLit()
			for p.accept(",") {
				p.intLit()
			}
			p.expect(")")
		}
		if p.accept(")") {
			return names
		}
		if !p.isPunct(",") {
			p.expected("',' or ')'")
		}
		p.next()
	}
}

// declName parses a declared name with its range `<N>`, array dimensions
// and (when full) initializer; d.Pos becomes the name's position.
func (p *parser) declName(d *VarDecl, full bool) {
	d.Pos = p.pos(p.cur())
	d.Name = p.name("variable name")
	if t := p.cur(); full && p.accept("<") {
		if d.Count = p.smallInt(); d.Count == 0 {
			p.failAt(t, "empty register range %s<0>", d.Name)
		}
		p.expect(">")
	}
	for p.accept("[") {
		if p.accept("]") {
			d.Array = append(d.Array, -1)
			continue
		}
		d.Array = append(d.Array, p.smallInt())
		p.expect("]")
	}
	if full && p.accept("=") {
		d.Init = p.init()
	}
}

// init parses an initializer: a scalar or a brace list (nesting bounded).
func (p *parser) init() *Init {
	t := p.cur()
	if !p.accept("{") {
		return p.initScalar()
	}
	p.enter(t)
	in := &Init{Pos: p.pos(t)}
	if !p.accept("}") {
		for {
			in.List = append(in.List, p.init())
			if p.accept("}") {
				break
			}
			if !p.isPunct(",") {
				p.expected("',' or '}'")
			}
			p.next()
		}
	}
	p.depth--
	return in
}

// initScalar parses a number, `sym[+N]`, `generic(sym[+N])[+N]` or a mask
// expression `0xFF00(sym...)`.
func (p *parser) initScalar() *Init {
	t := p.cur()
	in := &Init{Pos: p.pos(t)}
	switch {
	case t.kind == tNum && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "(":
		imm := p.immediate()
		if imm.Kind != ImmInt || imm.Int == 0 {
			p.failAt(t, "bad mask %s", describe(t))
		}
		in.Mask = uint64(imm.Int)
		p.expect("(")
		p.initAddr(in)
		p.expect(")")
	case t.kind == tNum || p.isPunct("-"):
		in.Value = p.immediate()
	case t.kind == tWord:
		p.initAddr(in)
	default:
		p.expected("initializer")
	}
	return in
}

func (p *parser) initAddr(in *Init) {
	t := p.cur()
	if t.kind == tWord && t.text == "generic" && p.peekAt(1).kind == tPunct && p.peekAt(1).text == "(" {
		p.next()
		p.next()
		in.Generic = true
		s := p.symbol()
		p.expect(")")
		s.Offset += p.offset()
		in.Value = s
		return
	}
	in.Value = p.symbol()
}

// symbol parses a plain name with an optional `+N` / `-N` offset.
func (p *parser) symbol() *Sym {
	t := p.cur()
	s := &Sym{Pos: p.pos(t), Name: p.ident("symbol")}
	s.Offset = p.offset()
	return s
}

// offset parses an optional `+N`, `+-N` or `-N`.
func (p *parser) offset() int64 {
	if p.accept("+") {
		return p.intLit()
	}
	if p.isPunct("-") && p.peekAt(1).kind == tNum {
		return p.intLit()
	}
	return 0
}

// enter increments the nesting depth at t, failing beyond maxDepth.
func (p *parser) enter(t token) {
	p.depth++
	if p.depth > maxDepth {
		p.failAt(t, "nesting deeper than %d levels", maxDepth)
	}
}

// scope records the names declared in one block (or parameter list) that
// do not start with '%': true for registers. Register ranges are kept apart.
type scope struct {
	names  map[string]bool
	ranges []regRange
}

type regRange struct {
	base  string
	count int
}

func (p *parser) push() { p.scopes = append(p.scopes, scope{}) }
func (p *parser) pop()  { p.scopes = p.scopes[:len(p.scopes)-1] }

// declare records d in the innermost scope. Names starting with '%' are
// always registers and are not tracked.
func (p *parser) declare(d *VarDecl) {
	if strings.HasPrefix(d.Name, "%") {
		return
	}
	s := &p.scopes[len(p.scopes)-1]
	if d.Count > 0 {
		if d.Space == "reg" {
			s.ranges = append(s.ranges, regRange{d.Name, d.Count})
		}
		return
	}
	if s.names == nil {
		s.names = map[string]bool{}
	}
	s.names[d.Name] = d.Space == "reg"
}

// isReg reports whether the plain name refers to a register in scope.
func (p *parser) isReg(name string) bool {
	for i := len(p.scopes) - 1; i >= 0; i-- {
		s := &p.scopes[i]
		if v, ok := s.names[name]; ok {
			return v
		}
		for _, r := range s.ranges {
			if inRange(name, r) {
				return true
			}
		}
	}
	return false
}

func inRange(name string, r regRange) bool {
	if len(name) <= len(r.base) || name[:len(r.base)] != r.base {
		return false
	}
	n := 0
	for i := len(r.base); i < len(name); i++ {
		if !isDigit(name[i]) {
			return false
		}
		n = n*10 + int(name[i]-'0')
		if n >= r.count {
			return false
		}
	}
	return true
}
