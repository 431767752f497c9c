package ptx

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

// snippetHead declares what the lowering tests' snippets use.
const snippetHead = header + `.global .align 4 .u32 gv[4] = {1, 2, 3, 4};
.const .align 4 .b32 cv[2];
.extern .shared .align 16 .b8 dyn[];
.visible .entry k(.param .u64 k_p0, .param .u32 k_p1, .param .align 128 .b8 k_map[128])
{
	.reg .pred %p<8>;
	.reg .b16 %rs<8>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<16>;
	.reg .f32 %f<8>;
	.reg .f64 %fd<8>;
	.shared .align 8 .b8 sbuf[64];
	.local .align 8 .b8 stack[16];
`

// lowerSnippet lowers body (instructions) inside the standard kernel.
func lowerSnippet(t *testing.T, body string) *isa.Program {
	t.Helper()
	ps, err := Compile("t.ptx", []byte(snippetHead+body+"\n}\n"))
	if err != nil {
		t.Fatalf("Compile(%q): %v", body, err)
	}
	return ps[0]
}

// render prints the instructions of p lowered from source (all but the
// final exit), with register names instead of numbers.
func render(p *isa.Program) string {
	var out []string
	for i := range p.Instrs[:len(p.Instrs)-1] {
		out = append(out, renderInstr(p, &p.Instrs[i]))
	}
	return strings.Join(out, "; ")
}

var flagNames = []string{"sat", "ftz", "approx", "hi", "lo", "wide", "uni", "cc", "carryin", "drop", "nocomplete",
	"expecttx", "parity", "noinc", "multicast", "store", "read", "to", "clamp", "volatile", "nc", "proxyasync",
	"mbarinit", "proxytensormap", "aligned", "hint", "remote", "abs", "nan", "f32res", "shiftamt", "im2col",
	"cachehint", "full", "l2only"}

func renderInstr(p *isa.Program, in *isa.Instr) string {
	var b strings.Builder
	if in.Guard.Kind == isa.KPred {
		fmt.Fprintf(&b, "@%s ", renderOperand(p, in.Guard))
	}
	b.WriteString(in.Op.String())
	for _, t := range []isa.Type{in.Type, in.Type2} {
		if t != isa.TNone {
			b.WriteString("." + t.String())
		}
	}
	var attrs []string
	add := func(name string, v int, zero int) {
		if v != zero {
			attrs = append(attrs, fmt.Sprintf("%s=%d", name, v))
		}
	}
	if in.Space != isa.Generic {
		attrs = append(attrs, "space="+in.Space.String())
	}
	if in.Space2 != isa.Generic {
		attrs = append(attrs, "space2="+in.Space2.String())
	}
	for i, n := range flagNames {
		if in.Flags.Has(1 << i) {
			attrs = append(attrs, n)
		}
	}
	add("rnd", int(in.Rnd), 0)
	add("cmp", int(in.Cmp), 0)
	add("bool", int(in.Bool), 0)
	add("atom", int(in.Atom), 0)
	add("sem", int(in.Sem), 0)
	add("scope", int(in.Scope), 0)
	add("mode", int(in.Mode), 0)
	add("vec", int(in.Vec), 0)
	add("dim", int(in.Dim), 0)
	add("ndst", int(in.NDst), 1)
	if len(attrs) > 0 {
		b.WriteString(" {" + strings.Join(attrs, " ") + "}")
	}
	for i, o := range in.Ops {
		if i == 0 {
			b.WriteString(" ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(renderOperand(p, o))
	}
	if in.Op.IsBranch() {
		fmt.Fprintf(&b, " -> %d", in.Target)
	}
	return b.String()
}

func renderOperand(p *isa.Program, o isa.Operand) string {
	neg := ""
	if o.Neg {
		neg = "!"
	}
	switch o.Kind {
	case isa.KReg:
		return p.RegNames[o.Reg]
	case isa.KPred:
		return neg + p.PredNames[o.Reg]
	case isa.KImm:
		if o.Imm > 1<<20 {
			return fmt.Sprintf("%#x", o.Imm)
		}
		return fmt.Sprint(o.Imm)
	case isa.KSpecial:
		return o.Special.String()
	case isa.KAddr:
		if o.Reg < 0 {
			return fmt.Sprintf("[%#x]", o.Imm)
		}
		if o.Imm != 0 {
			return fmt.Sprintf("[%s%+d]", p.RegNames[o.Reg], int64(o.Imm))
		}
		return "[" + p.RegNames[o.Reg] + "]"
	case isa.KSink:
		return "_"
	}
	return "?"
}

// lowerCase is one instruction (or a few) and their expected lowering.
type lowerCase struct{ src, want string }

func runLowerCases(t *testing.T, cases []lowerCase) {
	t.Helper()
	for _, c := range cases {
		p := lowerSnippet(t, c.src)
		if got := render(p); got != c.want {
			t.Errorf("%s\n got: %s\nwant: %s", c.src, got, c.want)
		}
	}
}
