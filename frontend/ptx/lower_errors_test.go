package ptx

import (
	"strings"
	"testing"
)

// snippetLine is the source line of the first body line in lowerSnippet.
var snippetLine = strings.Count(snippetHead, "\n") + 1

func TestLowerErrors(t *testing.T) {
	tests := []struct {
		name string
		body string
		line int // of body, 1-based
		col  int
		want string
	}{
		{"unknown opcode", "\ttcgen05.fence::before_thread_sync;", 1, 2, "unsupported instruction tcgen05.fence::before_thread_sync (unknown opcode tcgen05)"},
		{"unknown modifier", "\tadd.xyz.s32 %r1, %r2, %r3;", 1, 2, "unsupported instruction add.xyz.s32 (modifier .xyz)"},
		{"two unknown modifiers", "\tld.global.foo.bar.u32 %r1, [%rd1];", 1, 2, "(modifier .foo.bar)"},
		{"bad operand count", "\tadd.s32 %r1, %r2;", 1, 2, "bad operand count: add.s32 takes 3 operands, found 2"},
		{"missing type", "\tadd %r1, %r2, %r3;", 1, 2, "unsupported instruction add (want one type modifier, found 0)"},
		{"undefined register", "\tmov.u32 %q1, 0;", 1, 10, "undefined register %q1"},
		{"register past its range", "\tmov.u32 %r16, 0;", 1, 10, "undefined register %r16"},
		{"undefined label", "\tbra NOWHERE;", 1, 6, "undefined label NOWHERE"},
		{"undefined symbol", "\tmov.u32 %r1, nosuch;", 1, 15, "undefined symbol nosuch"},
		{"predicate as a value", "\tadd.s32 %r1, %p1, 1;", 1, 15, "predicate %p1 used where a value is expected"},
		{"value as a predicate", "\tselp.b32 %r1, 1, 0, %r2;", 1, 22, "expected a predicate, found %r2"},
		{"label in another scope", "\t{\nIN:\n\tret;\n\t}\n\tbra IN;", 5, 6, "undefined label IN"},
		{"duplicate label", "L:\nL:\n\tret;", 2, 1, "duplicate label L"},
		{"f16 atomic", "\tatom.global.add.noftz.f16 %rs1, [%rd1], %rs2;", 1, 2, "unsupported instruction atom.global.add.noftz.f16"},
		{"non-sync vote", "\tvote.all.pred %p1, %p2;", 1, 2, "only the .sync form of vote is supported"},
		{"indirect call", "\tcall %rd1, ();", 1, 2, "unsupported instruction call (indirect call through %rd1)"},
		{"bulk reduction on a type the ISA leaves out", "\tcp.reduce.async.bulk.global.shared::cta.bulk_group.dec.s32 [%rd1], [%r1], 16;", 1, 2, "cp.reduce.async.bulk.dec is not defined on .s32 elements"},
		{"float rounding on integers", "\tcvt.rzi.s32.s64 %r1, %rd1;", 1, 2, "integer rounding on a conversion from .s64"},
		{"lop3 table in a register", "\tlop3.b32 %r1, %r2, %r3, %r4, %r5;", 1, 2, "lop3 truth table must be an immediate"},
		{"tensor coordinate count", "\tcp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], [%r3];", 1, 90, "a 2d tensor copy with 1 coordinates"},
	}
	for _, tt := range tests {
		_, err := Compile("t.ptx", []byte(snippetHead+tt.body+"\n}\n"))
		if err == nil {
			t.Errorf("%s: no error", tt.name)
			continue
		}
		msg := err.Error()
		prefix := "t.ptx:" + itoa(snippetLine+tt.line-1) + ":" + itoa(tt.col) + ": "
		if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s:\n got %q\nwant prefix %q containing %q", tt.name, msg, prefix, tt.want)
		}
	}
}

func TestLowerCallErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"external function", ".extern .func (.param .b32 r) vprintf(.param .b64 a, .param .b64 b);\n.entry k()\n{\n\tcall.uni (r), vprintf, (a, b);\n}\n",
			"t.ptx:7:2: unsupported instruction call.uni (call of vprintf, which has no body here (external function))"},
		{"argument count", ".func f(.param .b32 a)\n{\n\tret;\n}\n.entry k()\n{\n\tcall f;\n}\n",
			"t.ptx:10:2: call of f with 0 arguments, it takes 1"},
		{"undefined function", ".entry k()\n{\n\tcall nosuch;\n}\n", "t.ptx:6:7: undefined function nosuch"},
		{"brx without a list", ".entry k()\n{\n\t.reg .b32 %r;\nL:\n\tbrx.idx %r, L;\n}\n",
			"t.ptx:8:2: brx.idx needs a .branchtargets list, found L"},
	}
	for _, tt := range tests {
		_, err := Compile("t.ptx", []byte(header+tt.src))
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.name, err, tt.want)
		}
	}
}
