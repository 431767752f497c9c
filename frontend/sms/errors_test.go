package sms

import (
	"errors"
	"strings"
	"testing"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown barrier", "arrive b\n",
			"e.sms:1:8: unknown name b (expected a constant, variable, barrier, region, buffer or one of tid, lane, warp, ctaid, ntid, nwarps, clock, dynsmem)"},
		{"too many arrive operands", "barrier b\narrive b, 1, 2\n",
			"e.sms:2:1: arrive takes 1 or 2 operands, found 3 (usage: arrive[.expect_tx][.noComplete] BAR[, TX][, COUNT])"},
		{"constant barrier index past the end", "barrier full[4]\narrive full[4]\n",
			"e.sms:2:13: barrier index 4 out of range: full has 4 elements (0..3)"},
		{"negative barrier index", "barrier full[4]\nwait full[-1] parity 0\n",
			"e.sms:2:11: barrier index -1 out of range: full has 4 elements (0..3)"},
		{"barrier array without index", "barrier full[4]\narrive full\n",
			"e.sms:2:8: barrier array full needs one index (full[i]), found 0"},
		{"index on a single barrier", "barrier b\narrive b[0]\n",
			"e.sms:2:8: barrier b is not an array, found an index"},
		{"duplicate barrier", "barrier b\nbarrier b\n",
			"e.sms:2:9: duplicate name b: already declared as a barrier at 1:9"},
		{"variable shadows a declaration", "const N = 2\nif lane < 3 { let N = 1 }\n",
			"e.sms:2:15: duplicate name N: already declared as a constant at 1:7"},
		{"assignment to a loop variable", "for i in 0..4 { i = 2 }\n",
			"e.sms:1:17: cannot assign to loop variable i (only let variables can change)"},
		{"unclosed block", "if lane < 16 {\n    compute 1\n",
			"e.sms:3:1: expected '}' to close the block opened at 1:14, found end of file"},
		{"missing operand", "let x = 1 +\n",
			"e.sms:1:12: expected an expression, found end of line"},
		{"constant division by zero", "let y = tid / 0\n",
			"e.sms:1:13: division by zero in a constant expression"},
		{"negative shift", "let x = 1 << -1\n",
			"e.sms:1:11: negative shift count -1 in a constant expression"},
		{"wait without parity or token", "barrier b\nwait b\n",
			"e.sms:2:1: wait needs exactly one of \"parity P\" or \"token T\" after the barrier (usage: wait BAR parity P [hint NS] | wait BAR token T [hint NS])"},
		{"parity out of range", "barrier b\nwait b parity 2\n",
			"e.sms:2:15: parity must be 0 or 1, found 2"},
		{"keyword the operation does not take", "barrier b\nwait b latency 3\n",
			"e.sms:2:8: wait does not take \"latency\" (usage: wait BAR parity P [hint NS] | wait BAR token T [hint NS])"},
		{"hint on test_wait", "barrier b\nlet ok = test_wait b parity 0 hint 5\n",
			"e.sms:2:31: test_wait does not take \"hint\" (usage: test_wait BAR parity P | test_wait BAR token T)"},
		{"unknown operation", "foo 1\n",
			"e.sms:1:1: expected a statement, found unknown operation \"foo\" (statements: let, if, for, warps, NAME = EXPR, or an operation such as arrive, wait, compute)"},
		{"block too large", "block 2000\n", "e.sms:1:7: block dimension must be in 1..1024, found 2000"},
		{"block threads over the limit", "block 32, 32, 32\n", "e.sms:1:1: block has 32768 threads; the limit is 1024"},
		{"block given twice", "block 32\nblock 64\n", "e.sms:2:1: block given twice (first at 1:1)"},
		{"warp outside the block", "block 64\nwarps 2 { }\n", "e.sms:2:7: warp 2 does not exist: the block has 2 warps (0..1)"},
		{"warp range past the block", "block 64\nwarps 1..3 { }\n",
			"e.sms:2:10: warp range 1..3 must end in 2..2: the end is excluded and the block has 2 warps"},
		{"warps on a lane value", "warps lane { }\n",
			"e.sms:1:7: expected a compile-time constant for a warp number, found an expression of run-time values"},
		{"run-time compute count", "compute tid\n",
			"e.sms:1:9: expected a compile-time constant for the compute instruction count, found an expression of run-time values"},
		{"empty shared region", "shared s[0]\n", "e.sms:1:10: a dimension of s must be in 1..1048576, found 0"},
		{"alignment not a power of two", "shared s[16] align 3\n", "e.sms:1:20: alignment must be a power of two, found 3"},
		{"unknown fill", "global g[16] bogus\n",
			"e.sms:1:14: expected a fill (zero, seq, or a string such as \"random:7\", \"byte:0xff\", \"file:PATH\"), found \"bogus\""},
		{"tensor map without a string", "tensormap t 42\n",
			"e.sms:1:13: expected the tensor map as a string (\"f16,8192x16384,box=64x64,buf=NAME\") after tensormap t, found number 42"},
		{"barrier used as a value", "barrier b\nlet x = b + 1\n",
			"e.sms:2:9: barrier b is not a value (use it as an operand, e.g. arrive b)"},
		{"operation without a value assigned", "barrier b\nlet x = init b, 1\n",
			"e.sms:2:9: expected a value, found operation init, which gives none (values come from arrive, arrive_drop, test_wait, try_wait, pending_count, elect, ld)"},
		{"compound assignment of an operation", "barrier b\nlet x = 1\nx += arrive b\n",
			"e.sms:3:3: expected '=' before operation arrive, found '+='"},
		{"load from an unknown space", "ld.local [0]\n",
			"e.sms:1:1: expected ld.shared or ld.global with an optional type (.u32, .u64, ...), found ld.local"},
		{"load without brackets", "ld.shared 0\n", "e.sms:1:11: expected an address in brackets ([EXPR]), found an expression"},
		{"float load type", "ld.shared.f32 [0]\n",
			"e.sms:1:1: expected an integer type (.u8 .u16 .u32 .u64 .s8 ... .b64) on ld, found .f32"},
		{"bulk copy without barrier", "copy.bulk [0], [0], 16\n",
			"e.sms:1:1: copy.bulk takes 4 operands, found 3 (usage: copy.bulk [DST], [SRC], BYTES, BAR | copy.tensor [DST], MAP[c0, ...], BAR)"},
		{"six tensor coordinates", "tensormap T \"x\"\nbarrier b\ncopy.tensor [0], T[1,2,3,4,5,6], b\n",
			"e.sms:3:18: tensor copies have 1 to 5 coordinates, found 6"},
		{"barrier as tensor map", "barrier b\ncopy.tensor [0], b[1], b\n", "e.sms:2:18: expected a tensor map, found barrier b"},
		{"malformed hex", "let x = 0x\n", "e.sms:1:9: malformed number \"0x\" (expected decimal, 0x hex or 0b binary digits)"},
		{"number overflow", "let x = 99999999999999999999\n", "e.sms:1:9: number 99999999999999999999 does not fit in 64 bits"},
		{"stray character", "let x = 1 @ 2\n", "e.sms:1:11: unexpected character '@'"},
		{"unterminated string", "tensormap t \"abc\n", "e.sms:1:13: string not terminated: expected '\"' before the end of the line"},
		{"zero loop step", "for i in 0..4 step 0 { }\n", "e.sms:1:20: loop step must not be zero"},
		{"missing in", "for i 0..4 { }\n", "e.sms:1:7: expected \"in\" after for i, found number 0"},
		{"else without block", "if 1 { } else\n", "e.sms:1:14: expected '{' after else, found end of line"},
		{"else without if", "else { }\n", "e.sms:1:1: expected a statement, found \"else\" without a preceding if block"},
		{"declaration inside a block", "barrier b\nif 1 { barrier c }\n",
			"e.sms:2:8: barrier declarations are only allowed at the top level, not inside a block"},
		{"two statements on a line", "let x = 1 let y = 2\n", "e.sms:1:11: expected end of line after let, found \"let\""},
		{"unknown modifier", "barrier b\narrive.bogus b\n",
			"e.sms:2:1: unexpected modifier .bogus on arrive (expected .expect_tx or .noComplete)"},
		{"noComplete without count", "barrier b\narrive.noComplete b\n",
			"e.sms:2:1: arrive.noComplete takes 2 operands, found 1 (usage: arrive[.expect_tx][.noComplete] BAR[, TX][, COUNT])"},
		{"run-time constant", "const C = tid\n",
			"e.sms:1:11: expected a compile-time constant for const C, found an expression of run-time values"},
		{"region offset in a declaration", "shared s[4]\nconst E = s\n",
			"e.sms:2:11: shared region s has no offset until all declarations are read; use it in code"},
		{"reserved word as a name", "let let = 1\n", "e.sms:1:5: expected a variable name after let, found reserved word \"let\""},
		{"index out of a region", "shared tile[4][4]\nlet x = tile[4]\n", "e.sms:2:14: index 4 of tile is out of range 0..3"},
		{"too many indices", "shared tile[4][4]\nlet x = tile[1][2][3]\n",
			"e.sms:2:9: shared region tile has 2 dimensions, found 3 indices"},
		{"two-dimensional barrier array", "barrier b[2][3]\n", "e.sms:1:14: barrier arrays have one dimension, found 2"},
		{"nesting too deep", "let x = " + strings.Repeat("(", 70) + "1" + strings.Repeat(")", 70) + "\n",
			"e.sms:1:73: expression nested more than 64 deep"},
		{"blocks too deep", strings.Repeat("if lane {\n", 40), "e.sms:33:9: blocks nested more than 32 deep"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Compile("e.sms", []byte(tc.src))
			if err == nil {
				t.Fatalf("compiled %d instructions, want error %q", len(p.Instrs), tc.want)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %q\nwant %q", err.Error(), tc.want)
			}
			var ce *Error
			if !errors.As(err, &ce) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %T is not a one-line *Error", err)
			}
		})
	}
}

func TestInputOverTheSizeLimitIsRejected(t *testing.T) {
	src := strings.Repeat("#", maxSource+1)
	_, err := Compile("big.sms", []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "big.sms:1:1: source is ") {
		t.Errorf("got %v, want a size error at big.sms:1:1", err)
	}
}
