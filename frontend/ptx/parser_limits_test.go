package ptx

import (
	"strings"
	"testing"
)

// bigModule is a module of kernels, each with n instructions.
func bigModule(kernels, n int) []byte {
	var b strings.Builder
	b.WriteString(header)
	for k := 0; k < kernels; k++ {
		b.WriteString(".entry k" + itoa(k) + "()\n{\n")
		b.WriteString(strings.Repeat("\tret;\n", n))
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

// The parser lexes as it reads: however long the source, it holds a short
// window of tokens, not all of them.
func TestParserHoldsAShortWindowOfTokens(t *testing.T) {
	src := bigModule(1, 100_000)
	p := &parser{file: "t.ptx", lx: newLexer(string(src), 64), mod: &Module{File: "t.ptx"}}
	p.push()
	most := 0
	for p.cur().kind != tEOF {
		p.topLevel()
		most = max(most, cap(p.lx.toks))
	}
	if most > 4*tokenWindow {
		t.Errorf("the token window grew to %d tokens for %d bytes of source, want at most %d", most, len(src), 4*tokenWindow)
	}
	if n := len(p.mod.Funcs); n != 1 {
		t.Fatalf("parsed %d functions, want 1", n)
	}
}

// A function body longer than a kernel may be, and a module longer than its
// kernels may be together, are refused while parsing, at the first
// instruction too many.
func TestParseRefusesBodiesAndModulesLongerThanLowerable(t *testing.T) {
	for _, tc := range []struct {
		name       string
		kernels, n int
		line       int
		want       string
	}{
		{"one body of 2^20+1 instructions", 1, maxInstrs + 1, len(strings.Split(header, "\n")) + 2 + maxInstrs,
			"function body has more than 1048576 instructions"},
		{"three bodies of 2^20-1, 2^21+1 in all", 3, maxInstrs - 1, 0, "the module has more than 2097152 instructions"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.ptx", bigModule(tc.kernels, tc.n))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
			if tc.line > 0 && !strings.HasPrefix(err.Error(), "t.ptx:"+itoa(tc.line)+":2: ") {
				t.Errorf("got %v, want it at line %d", err, tc.line)
			}
		})
	}
}
