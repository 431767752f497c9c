package ptx

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxInputSize is the largest source Parse accepts, in bytes.
const MaxInputSize = 256 << 20

// maxInput is the limit in force (lowered by tests).
var maxInput = MaxInputSize

// maxDepth bounds the nesting of blocks and initializer lists.
const maxDepth = 100

// Error is a syntax error. Its Error method renders exactly one line,
// "FILE:LINE:COL: message".
type Error struct {
	Pos Pos
	Msg string
}

// Error renders "FILE:LINE:COL: message"; line breaks in the file name are
// escaped so that the result stays on one line.
func (e *Error) Error() string {
	return lineBreaks.Replace(e.Pos.String()) + ": " + e.Msg
}

var lineBreaks = strings.NewReplacer("\n", `\n`, "\r", `\r`)

// parser is a recursive-descent parser over the tokens of lx, which it
// lexes as it goes: it looks at most one token ahead, so it keeps a short
// window of tokens rather than the whole file's (a 64 MiB source has some
// 20 million). Errors are raised by panicking with *Error and recovered in
// Parse.
type parser struct {
	file   string
	lx     *lexer
	lexed  bool // lx has produced its last token (tEOF or tErr)
	i      int  // the current token, in lx.toks
	instrs int  // instructions of the function body being parsed
	total  int  // instructions of the module so far
	depth  int
	scopes []scope
	mod    *Module
}

// Parse parses one PTX source file. filename is used in positions and
// error messages only. On a syntax error it returns a nil module and an
// *Error.
func Parse(filename string, src []byte) (m *Module, err error) {
	if len(src) > maxInput {
		return nil, &Error{Pos{filename, 1, 1}, fmt.Sprintf("input too large: %d bytes, limit %d", len(src), maxInput)}
	}
	p := &parser{file: filename, lx: newLexer(string(src), 64), mod: &Module{File: filename}}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(*Error)
			if !ok {
				panic(r)
			}
			m, err = nil, e
		}
	}()
	p.push()
	for p.cur().kind != tEOF {
		p.topLevel()
	}
	return p.mod, nil
}

// fill lexes until the token n positions ahead exists or the source ends.
func (p *parser) fill(n int) {
	for p.i+n >= len(p.lx.toks) && !p.lexed {
		p.lexed = !p.lx.step()
	}
}

func (p *parser) cur() token {
	p.fill(0)
	return p.lx.toks[p.i]
}

// peekAt returns the token n positions ahead (the last token if past it).
func (p *parser) peekAt(n int) token {
	p.fill(n)
	if p.i+n < len(p.lx.toks) {
		return p.lx.toks[p.i+n]
	}
	return p.lx.toks[len(p.lx.toks)-1]
}

// next consumes the current token (never the final tEOF or tErr) and
// returns it. Consumed tokens are dropped from the window now and then.
func (p *parser) next() token {
	t := p.cur()
	if t.kind != tEOF && t.kind != tErr {
		p.i++
		if p.i >= tokenWindow {
			p.lx.toks = p.lx.toks[:copy(p.lx.toks, p.lx.toks[p.i:])]
			p.i = 0
		}
	}
	return t
}

// tokenWindow is how many consumed tokens the parser keeps before dropping
// them: enough to make the copy rare, small enough not to matter.
const tokenWindow = 1024

func (p *parser) pos(t token) Pos { return Pos{p.file, int(t.line), int(t.col)} }

func (p *parser) isPunct(s string) bool {
	t := p.cur()
	return t.kind == tPunct && t.text == s
}

func (p *parser) accept(s string) bool {
	if p.isPunct(s) {
		p.next()
		return true
	}
	return false
}

func (p *parser) expect(s string) token {
	if !p.isPunct(s) {
		p.expected("'" + s + "'")
	}
	return p.next()
}

// failAt raises an error at t; a lexical error token reports itself instead.
func (p *parser) failAt(t token, format string, args ...any) {
	if t.kind == tErr {
		panic(&Error{p.pos(t), t.text})
	}
	panic(&Error{p.pos(t), fmt.Sprintf(format, args...)})
}

// expected raises "expected WHAT, found TOKEN" at the current token.
func (p *parser) expected(what string) {
	t := p.cur()
	p.failAt(t, "expected %s, found %s", what, describe(t))
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tPunct:
		return "'" + t.text + "'"
	}
	s := t.text
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// topLevel parses one module-scope directive.
func (p *parser) topLevel() {
	t := p.cur()
	if t.kind != tDir {
		p.expected("directive")
	}
	switch t.text {
	case ".version":
		p.next()
		v := p.cur()
		if v.kind != tNum || !isVersion(v.text) {
			p.expected("version number")
		}
		p.mod.Version = p.next().text
	case ".target":
		p.next()
		p.mod.Target = append(p.mod.Target, p.ident("target name"))
		for p.accept(",") {
			p.mod.Target = append(p.mod.Target, p.ident("target name"))
		}
	case ".address_size":
		p.next()
		p.mod.AddressSize = p.smallInt()
	case ".file":
		p.fileDirective()
	case ".loc":
		p.loc()
	case ".section":
		p.section()
	case ".pragma":
		p.mod.Pragmas = append(p.mod.Pragmas, p.pragma().Values...)
	default:
		p.entity(t)
	}
}

// entity parses an optionally linkage-qualified function or variable.
func (p *parser) entity(start token) {
	linkage := ""
	if isLinkage(p.cur().text) {
		linkage = p.next().text[1:]
	}
	t := p.cur()
	switch {
	case t.kind == tDir && (t.text == ".entry" || t.text == ".func"):
		p.mod.Funcs = append(p.mod.Funcs, p.function(linkage, start))
	case t.kind == tDir && isSpace(t.text):
		p.mod.Decls = append(p.mod.Decls, p.declaration(linkage)...)
	case linkage != "":
		p.expected(".entry, .func or a state space")
	case t.kind == tDir:
		p.failAt(t, "unknown directive %s at module scope", describe(t))
	default:
		p.expected("directive")
	}
}

func isVersion(s string) bool {
	dot := false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '.' && !dot && i > 0 && i < len(s)-1:
			dot = true
		case !isDigit(s[i]):
			return false
		}
	}
	return dot
}

func isLinkage(s string) bool {
	return s == ".visible" || s == ".extern" || s == ".weak" || s == ".common"
}

// ident parses a plain identifier (no dots), e.g. a target or variable name.
func (p *parser) ident(what string) string {
	t := p.cur()
	if t.kind != tWord || !plainName(t.text) {
		p.expected(what)
	}
	return p.next().text
}

// name parses the name a declaration introduces: a plain identifier
// other than the predefined constant WARP_SZ, which operands always read
// as the warp size.
func (p *parser) name(what string) string {
	if t := p.cur(); t.kind == tWord && t.text == warpSizeName {
		p.failAt(t, "%s is a predefined identifier (the warp size) and cannot be declared", warpSizeName)
	}
	return p.ident(what)
}

func plainName(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' || s[i] == ':' {
			return false
		}
	}
	return true
}

// smallInt parses a non-negative decimal-range integer that fits an int32.
func (p *parser) smallInt() int {
	t := p.cur()
	if t.kind != tNum {
		p.expected("integer")
	}
	imm, msg := parseNumber(t.text)
	if msg != "" {
		p.failAt(t, "%s", msg)
	}
	if imm.Kind != ImmInt || imm.Int < 0 || imm.Int > 1<<31-1 {
		p.failAt(t, "expected integer in 0..2147483647, found %s", describe(t))
	}
	p.next()
	return int(imm.Int)
}

// str parses a string literal and returns its value: the text between the
// quotes with \\ and \" unescaped (other escapes are kept as written).
func (p *parser) str() string {
	t := p.cur()
	if t.kind != tStr {
		p.expected("string")
	}
	p.next()
	raw := t.text[1 : len(t.text)-1]
	var b []byte
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' && i+1 < len(raw) && (raw[i+1] == '\\' || raw[i+1] == '"') {
			i++
		}
		b = append(b, raw[i])
	}
	return string(b)
}
