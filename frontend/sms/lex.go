package sms

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// maxSource bounds the input so that compile time and memory stay small.
const maxSource = 1 << 20

type tokKind uint8

const (
	tEOF     tokKind = iota
	tNewline         // end of a line outside brackets (a statement separator, like ';')
	tIdent           // name; may contain dots between words (ld.shared.u32, arrive.expect_tx)
	tNum             // integer literal, value in num
	tStr             // string literal, text without the quotes
	tPunct           // operator or bracket, text holds it
)

// token is one lexeme with its position.
type token struct {
	kind tokKind
	text string
	num  int64
	pos  isa.Pos
}

// describe names the token for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tNewline:
		if t.text == ";" {
			return "';'"
		}
		return "end of line"
	case tIdent:
		return fmt.Sprintf("%q", t.text)
	case tNum:
		return "number " + t.text
	case tStr:
		return "string " + strconv.Quote(t.text)
	}
	return "'" + t.text + "'"
}

// puncts lists operators longest first, so the lexer matches greedily.
var puncts = []string{
	"<<=", ">>=", "..", "&&", "||", "==", "!=", "<=", ">=", "<<", ">>",
	"+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
	"{", "}", "[", "]", "(", ")", ",", ";", "=", "+", "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">",
}

// lexer splits a whole source into tokens up front.
type lexer struct {
	src       string
	file      string
	off       int
	line      int
	lineStart int
	depth     int // open ( and [: newlines inside them are not separators
	toks      []token
}

// lex tokenizes src; the first lexical error stops it.
func lex(file string, src []byte) ([]token, error) {
	if len(src) > maxSource {
		return nil, errAt(isa.Pos{File: file, Line: 1, Col: 1}, "source is %d bytes; the limit is %d", len(src), maxSource)
	}
	lx := &lexer{src: string(src), file: file, line: 1}
	for {
		done, err := lx.next()
		if err != nil {
			return nil, err
		}
		if done {
			return lx.toks, nil
		}
	}
}

func (lx *lexer) pos(off int) isa.Pos {
	return isa.Pos{File: lx.file, Line: int32(lx.line), Col: int32(off - lx.lineStart + 1)}
}

func (lx *lexer) add(k tokKind, start int, text string, num int64) {
	lx.toks = append(lx.toks, token{kind: k, text: text, num: num, pos: lx.pos(start)})
}

// next lexes one token and reports whether the end of input was reached.
func (lx *lexer) next() (bool, error) {
	lx.skipBlanks()
	if lx.off >= len(lx.src) {
		lx.add(tEOF, lx.off, "", 0)
		return true, nil
	}
	start, c := lx.off, lx.src[lx.off]
	switch {
	case c == '\n':
		if lx.depth == 0 && !lx.lastIsNewline() {
			lx.add(tNewline, start, "\n", 0)
		}
		lx.off++
		lx.line++
		lx.lineStart = lx.off
	case c == '#' || strings.HasPrefix(lx.src[lx.off:], "//"):
		for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
			lx.off++
		}
	case isLetter(c):
		lx.ident()
	case isDigit(c):
		return false, lx.number()
	case c == '"':
		return false, lx.str()
	default:
		return false, lx.punct()
	}
	return false, nil
}

func (lx *lexer) lastIsNewline() bool {
	return len(lx.toks) == 0 || lx.toks[len(lx.toks)-1].kind == tNewline
}

func (lx *lexer) skipBlanks() {
	for lx.off < len(lx.src) {
		switch lx.src[lx.off] {
		case ' ', '\t', '\r':
			lx.off++
		default:
			return
		}
	}
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// ident reads a name. A dot joins the next word when a letter follows it, so
// "ld.shared.u32" is one token but "i..n" is i, "..", n.
func (lx *lexer) ident() {
	start := lx.off
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if isLetter(c) || isDigit(c) {
			lx.off++
			continue
		}
		if c == '.' && lx.off+1 < len(lx.src) && isLetter(lx.src[lx.off+1]) {
			lx.off++
			continue
		}
		break
	}
	lx.add(tIdent, start, lx.src[start:lx.off], 0)
}

// number reads a decimal, 0x hex or 0b binary integer; '_' may separate digits.
// Hex and binary literals may use all 64 bits (0xffffffffffffffff is -1).
func (lx *lexer) number() error {
	start := lx.off
	for lx.off < len(lx.src) && (isLetter(lx.src[lx.off]) || isDigit(lx.src[lx.off])) {
		lx.off++
	}
	text := lx.src[start:lx.off]
	digits, base := strings.ReplaceAll(text, "_", ""), 10
	switch {
	case strings.HasPrefix(digits, "0x") || strings.HasPrefix(digits, "0X"):
		digits, base = digits[2:], 16
	case strings.HasPrefix(digits, "0b") || strings.HasPrefix(digits, "0B"):
		digits, base = digits[2:], 2
	}
	u, err := strconv.ParseUint(digits, base, 64)
	if err != nil || strings.HasPrefix(digits, "+") || strings.HasPrefix(digits, "-") {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return errAt(lx.pos(start), "number %s does not fit in 64 bits", text)
		}
		return errAt(lx.pos(start), "malformed number %q (expected decimal, 0x hex or 0b binary digits)", text)
	}
	if base == 10 && u > 1<<63-1 {
		return errAt(lx.pos(start), "number %s does not fit in a signed 64-bit integer", text)
	}
	lx.add(tNum, start, text, int64(u))
	return nil
}

// str reads a double-quoted string without escapes; it ends on the same line.
func (lx *lexer) str() error {
	start := lx.off
	lx.off++
	for lx.off < len(lx.src) && lx.src[lx.off] != '"' {
		if lx.src[lx.off] == '\n' {
			return errAt(lx.pos(start), "string not terminated: expected '\"' before the end of the line")
		}
		lx.off++
	}
	if lx.off >= len(lx.src) {
		return errAt(lx.pos(start), "string not terminated: expected '\"' before the end of the file")
	}
	lx.off++
	lx.add(tStr, start, lx.src[start+1:lx.off-1], 0)
	return nil
}

func (lx *lexer) punct() error {
	rest := lx.src[lx.off:]
	for _, p := range puncts {
		if !strings.HasPrefix(rest, p) {
			continue
		}
		switch p {
		case "(", "[":
			lx.depth++
		case ")", "]":
			if lx.depth > 0 {
				lx.depth--
			}
		}
		kind := tPunct
		if p == ";" {
			kind = tNewline
		}
		lx.add(kind, lx.off, p, 0)
		lx.off += len(p)
		return nil
	}
	r := []rune(rest)[0]
	return errAt(lx.pos(lx.off), "unexpected character %q", r)
}
