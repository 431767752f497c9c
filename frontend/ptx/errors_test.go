package ptx

import (
	"strings"
	"testing"
)

func TestSyntaxErrors(t *testing.T) {
	const k = ".visible .entry k()\n{\n\t" // body starts at line 3, column 2
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"unterminated block", k + "ret;\n", "e.ptx:4:1: expected '}' to close block opened at 2:1, found end of file"},
		{"unterminated inline block", k + "{\n.reg .pred p;\n}", "e.ptx:5:2: expected '}' to close block opened at 2:1, found end of file"},
		{"bad operand", k + "mov.u32 %r1, ];\n}", "e.ptx:3:15: expected operand, found ']'"},
		{"operand with two components", k + "mov.u32 %r1, %tid.x.y;\n}", "e.ptx:3:15: bad operand \"%tid.x.y\""},
		{"symbol with component", k + "mov.u32 %r1, sym.x;\n}", "e.ptx:3:15: bad operand \"sym.x\""},
		{"missing semicolon", k + "mov.u32 %r1, 1\n\tret;\n}", "e.ptx:4:2: expected ',' or ';', found \"ret\""},
		{"missing semicolon in declaration", k + ".reg .b32 %r<4>\n\tret;\n}", "e.ptx:4:2: expected ',' or ';', found \"ret\""},
		{"unknown directive at top level", ".foo 1;", "e.ptx:1:1: unknown directive \".foo\" at module scope"},
		{"instruction at top level", "mov.u32 %r1, 1;", "e.ptx:1:1: expected directive, found \"mov.u32\""},
		{"linkage without entity", ".visible .u32 x;", "e.ptx:1:10: expected .entry, .func or a state space, found \".u32\""},
		{"unknown directive in body", k + ".foo;\n}", "e.ptx:3:2: unexpected directive \".foo\" in function body"},
		{"bad number", k + "mov.u32 %r1, 12abc;\n}", "e.ptx:3:15: bad number \"12abc\""},
		{"short f32 bits", k + "mov.f32 %f1, 0f3F80;\n}", "e.ptx:3:15: bad number \"0f3F80\""},
		{"bad octal digit", k + "mov.u32 %r1, 089;\n}", "e.ptx:3:15: bad number \"089\""},
		{"bad decimal float", k + "mov.f64 %fd1, 1.5.5;\n}", "e.ptx:3:16: bad number \"1.5.5\""},
		{"number out of range", k + "mov.u64 %rd1, 99999999999999999999;\n}", "e.ptx:3:16: number \"99999999999999999999\" out of 64-bit range"},
		{"control byte", ".version 9.0\n\x01", "e.ptx:2:1: unexpected character '\\x01'"},
		{"invalid utf-8 byte", ".version 9.0\n.target \xff", "e.ptx:2:9: unexpected byte 0xff"},
		{"preprocessor line", k + "# 1 \"x\"\n}", "e.ptx:3:2: unexpected character '#'"},
		{"eof in parameter list", ".visible .entry k(", "e.ptx:1:19: expected parameter declaration, found end of file"},
		{"eof in operand list", k + "mov.u32 %r1,", "e.ptx:3:14: expected operand, found end of file"},
		{"eof in initializer", ".global .u32 x[2] = {1, 2", "e.ptx:1:26: expected ',' or '}', found end of file"},
		{"eof in section", ".section .debug_info {\n.b8 1\n", "e.ptx:3:1: expected '}' to close section opened at 1:22, found end of file"},
		{"unterminated comment", ".version 9.0 /* x\n", "e.ptx:1:14: unterminated comment"},
		{"unterminated string", ".pragma \"abc\n;", "e.ptx:1:9: unterminated string"},
		{"bad version", ".version x", "e.ptx:1:10: expected version number, found \"x\""},
		{"missing type", ".global x;", "e.ptx:1:9: expected type, found \"x\""},
		{"two types", ".global .u32 .f32 x;", "e.ptx:1:14: second type \".f32\" in declaration"},
		{"guard without instruction", k + "@%p1;\n}", "e.ptx:3:6: expected instruction, found ';'"},
		{"unclosed address", k + "ld.u32 %r1, [%rd1 8];\n}", "e.ptx:3:20: expected ']', found \"8\""},
		{"empty opcode part", k + "mov..u32 %r1, 1;\n}", "e.ptx:3:2: bad opcode \"mov..u32\""},
		{"vector missing comma", k + "mov.b64 {%r1 %r2}, %rd1;\n}", "e.ptx:3:15: expected ',' or '}', found \"%r2\""},
		{"float array size", ".global .u32 x[1.5];", "e.ptx:1:16: expected integer in 0..2147483647, found \"1.5\""},
		{"bad function attribute argument", ".visible .entry k() .maxntid 1, {", "e.ptx:1:33: expected integer, found '{'"},
		{"missing body", ".visible .entry k() ret;", "e.ptx:1:21: expected '{' or ';', found \"ret\""},
		{"bad loc attribute", k + ".loc 1 2 3, foo\n}", "e.ptx:3:14: expected function_name or inlined_at, found \"foo\""},
		{"lexical error beats syntax error", k + "mov.u32 %r1 \x02;\n}", "e.ptx:3:14: unexpected character '\\x02'"},
		{"long token is truncated", ".global " + strings.Repeat("a", 60) + ";", "e.ptx:1:9: expected type, found \"" + strings.Repeat("a", 40) + "...\""},
		{"empty register range", k + ".reg .b32 %r<0>;\n}", "e.ptx:3:14: empty register range %r<0>"},
		{"deep nesting", k + strings.Repeat("{", 200), "e.ptx:3:101: nesting deeper than 100 levels"},
		{"deep initializer nesting", ".global .u32 x = " + strings.Repeat("{", 200), "e.ptx:1:118: nesting deeper than 100 levels"},
		{"register named WARP_SZ", k + ".reg .b32 WARP_SZ;\n}", "e.ptx:3:12: WARP_SZ is a predefined identifier (the warp size) and cannot be declared"},
		{"variable named WARP_SZ", ".global .u32 WARP_SZ;", "e.ptx:1:14: WARP_SZ is a predefined identifier (the warp size) and cannot be declared"},
		{"parameter named WARP_SZ", ".visible .entry k(.param .u32 WARP_SZ)\n{\n}", "e.ptx:1:31: WARP_SZ is a predefined identifier (the warp size) and cannot be declared"},
		{"function named WARP_SZ", ".func WARP_SZ()\n{\n}", "e.ptx:1:7: WARP_SZ is a predefined identifier (the warp size) and cannot be declared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("e.ptx", []byte(tt.src))
			if err == nil {
				t.Fatalf("no error, module %+v", m)
			}
			if m != nil {
				t.Errorf("module returned with error")
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
			if _, ok := err.(*Error); !ok {
				t.Errorf("error type %T, want *Error", err)
			}
		})
	}
}

func TestInputTooLarge(t *testing.T) {
	defer func(n int) { maxInput = n }(maxInput)
	maxInput = 16
	_, err := Parse("big.ptx", []byte(".version 9.0\n.target sm_90a\n"))
	if err == nil || err.Error() != "big.ptx:1:1: input too large: 28 bytes, limit 16" {
		t.Errorf("err = %v", err)
	}
}

func TestErrorStaysOnOneLine(t *testing.T) {
	_, err := Parse("a\nb.ptx", []byte("?"))
	if err == nil || err.Error() != `a\nb.ptx:1:1: unexpected character '?'` {
		t.Errorf("err = %v", err)
	}
}

func TestEmptyInputIsEmptyModule(t *testing.T) {
	m, err := Parse("e.ptx", []byte("  // nothing\n"))
	if err != nil || m == nil || len(m.Funcs) != 0 {
		t.Errorf("Parse = %+v, %v", m, err)
	}
}
