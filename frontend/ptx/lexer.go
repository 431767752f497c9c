package ptx

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF   tokKind = iota
	tErr           // lexical error: text is the message; always the last token
	tWord          // identifier, opcode word or register: may contain '.' and "::"
	tDir           // '.' followed by word characters: directive, type, state space
	tNum           // number literal (starts with a digit); validated by the parser
	tStr           // string literal, text includes the quotes
	tPunct         // one of , ; : { } [ ] ( ) < > = + - ! @ |
)

// token is one lexeme. Line and col are 1-based (col counts bytes).
type token struct {
	kind      tokKind
	text      string
	line, col int32
}

// lexer splits a source into tokens, one step at a time; the first lexical
// error becomes a tErr token that ends the stream.
type lexer struct {
	src       string
	off       int
	line      int
	lineStart int
	toks      []token
}

// newLexer returns a lexer of src with room for n tokens.
func newLexer(src string, n int) *lexer {
	return &lexer{src: src, line: 1, toks: make([]token, 0, n)}
}

func (lx *lexer) emit(kind tokKind, start int, text string) {
	lx.toks = append(lx.toks, token{kind, text, int32(lx.line), int32(start - lx.lineStart + 1)})
}

// step lexes one token (after skipping blanks and comments) and reports
// whether lexing should continue.
func (lx *lexer) step() bool {
	if !lx.skipSpace() {
		return false
	}
	if lx.off >= len(lx.src) {
		lx.emit(tEOF, lx.off, "")
		return false
	}
	start, c := lx.off, lx.src[lx.off]
	switch {
	case isIdentStart(c):
		lx.word(tWord)
	case c == '%' && lx.off+1 < len(lx.src) && isIdentStart(lx.src[lx.off+1]):
		lx.word(tWord)
	case c == '.' && lx.off+1 < len(lx.src) && isIdentStart(lx.src[lx.off+1]):
		lx.word(tDir)
	case isDigit(c):
		lx.number()
	case c == '"':
		return lx.str()
	case isPunct(c):
		lx.off++
		lx.emit(tPunct, start, lx.src[start:lx.off])
	default:
		lx.emit(tErr, start, badChar(lx.src[start:]))
		return false
	}
	return true
}

func badChar(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError && n <= 1 {
		return fmt.Sprintf("unexpected byte 0x%02x", s[0])
	}
	return "unexpected character " + strconv.QuoteRune(r)
}

// skipSpace skips white space and comments; it returns false after emitting
// an error for an unterminated block comment.
func (lx *lexer) skipSpace() bool {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case c == '\n':
			lx.off++
			lx.line++
			lx.lineStart = lx.off
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			lx.off++
		case c == '/' && lx.peek(1) == '/':
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.off++
			}
		case c == '/' && lx.peek(1) == '*':
			if !lx.blockComment() {
				return false
			}
		default:
			return true
		}
	}
	return true
}

func (lx *lexer) peek(n int) byte {
	if lx.off+n < len(lx.src) {
		return lx.src[lx.off+n]
	}
	return 0
}

func (lx *lexer) blockComment() bool {
	line, col := lx.line, lx.off-lx.lineStart+1
	lx.off += 2
	for lx.off < len(lx.src) {
		switch {
		case lx.src[lx.off] == '*' && lx.peek(1) == '/':
			lx.off += 2
			return true
		case lx.src[lx.off] == '\n':
			lx.line++
			lx.lineStart = lx.off + 1
		}
		lx.off++
	}
	lx.toks = append(lx.toks, token{tErr, "unterminated comment", int32(line), int32(col)})
	return false
}

// word lexes an identifier-like token: word characters, dots, and "::"
// between word characters.
func (lx *lexer) word(kind tokKind) {
	start := lx.off
	lx.off++
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if isWordChar(c) || c == '.' {
			lx.off++
			continue
		}
		if c == ':' && lx.peek(1) == ':' && isWordChar(lx.peek(2)) {
			lx.off += 2
			continue
		}
		break
	}
	lx.emit(kind, start, lx.src[start:lx.off])
}

// number lexes a number literal loosely (word characters and dots, plus a
// sign after a decimal exponent); the parser validates it.
func (lx *lexer) number() {
	start := lx.off
	hexish := lx.peek(1) != 0 && isRadixLetter(lx.peek(1)) && lx.src[start] == '0'
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		if isWordChar(c) || c == '.' {
			lx.off++
			continue
		}
		prev := lx.src[lx.off-1]
		if (c == '+' || c == '-') && !hexish && (prev == 'e' || prev == 'E') && isDigit(lx.peek(1)) {
			lx.off += 2
			continue
		}
		break
	}
	lx.emit(tNum, start, lx.src[start:lx.off])
}

func isRadixLetter(c byte) bool {
	switch c {
	case 'x', 'X', 'b', 'B', 'f', 'F', 'd', 'D':
		return true
	}
	return false
}

// str lexes a string literal; strings may not span lines.
func (lx *lexer) str() bool {
	start := lx.off
	for i := start + 1; i < len(lx.src); i++ {
		switch c := lx.src[i]; {
		case c == '"':
			lx.off = i + 1
			lx.emit(tStr, start, lx.src[start:lx.off])
			return true
		case c == '\n':
			i = len(lx.src)
		case c == '\\' && i+1 < len(lx.src) && lx.src[i+1] != '\n':
			i++
		}
	}
	lx.emit(tErr, start, "unterminated string")
	return false
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}

func isWordChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func isPunct(c byte) bool {
	switch c {
	case ',', ';', ':', '{', '}', '[', ']', '(', ')', '<', '>', '=', '+', '-', '!', '@', '|':
		return true
	}
	return false
}
