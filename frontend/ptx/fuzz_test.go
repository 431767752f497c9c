package ptx

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"testing"
)

// fuzzSeeds are small inputs covering each construct.
var fuzzSeeds = []string{
	header + ".extern .shared .align 16 .b8 smem[];\n.global .align 8 .u64 p[2] = {generic(smem)+4, 0xFF(g)};",
	header + ".visible .entry k(.param .u64 .ptr .align 1 a)\n.maxntid 128, 1, 1\n{\n.reg .b32 %r<4>;\n@!%p1 bra $L;\n$L:\nret;\n}",
	header + ".func (.param .b32 r) f(.param .b32 a)\n{\n{\n.reg .pred p;\nsetp.ne.s32 p|%p2, %r1, 0;\nselp.u32 %r2, 1, 0, !p;\n}\n}",
	header + ".entry k()\n{\nld.global.nc.v4.u32 {%r1, _, %r3, %r4}, [%rd1+-8];\ncp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];\n}",
	header + ".entry k()\n{\n{\n.param .b64 param0;\nproto: .callprototype (.param .b32 _) _ (.param .b64 _);\ncall (retval0), %rd2, (param0), proto;\ncall.uni f, (param0);\n}\n}",
	header + ".entry k()\n{\nmov.f32 %f1, 0f3F800000;\nmov.f64 %fd1, -0d3FF0000000000000;\nmov.u32 %r1, 0x1FU;\nmov.f64 %fd2, 1.5e-3;\nmov.u32 %r2, %tid.x;\n}",
	".file 1 \"a.cu\"\n.section .debug_str {\n$L__info_string0:\n.b8 65,0\n}\n.entry k()\n{\n.loc 1 2 3, function_name $L__info_string0, inlined_at 1 1 1\n.pragma \"nounroll\";\nret;\n}",
	".entry k() { /* c */ ret; // x\n}",
}

func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	for _, name := range []string{"microbench.ptx", "hwprobe.ptx"} {
		for _, chunk := range calibSeeds(string(readCalib(f, name))) {
			f.Add([]byte(chunk))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		m, err := Parse("fuzz.ptx", src)
		if err != nil {
			checkError(t, src, err)
			return
		}
		if m == nil {
			t.Fatal("nil module without error")
		}
		for _, fn := range m.Funcs {
			for _, in := range fn.Instrs() {
				checkRoundTrip(t, in)
			}
		}
	})
}

// checkRoundTrip asserts that an instruction's String() parses back to an
// instruction with the same String(). Instructions naming plain (scoped)
// registers are skipped: out of their scope the names read as symbols.
func checkRoundTrip(t *testing.T, in *Instr) {
	text := in.String()
	if hasPlainReg(in) {
		return
	}
	m, err := Parse("rt.ptx", []byte(".entry k()\n{\n"+text+";\n}\n"))
	if err != nil {
		t.Fatalf("reparse %q: %v", text, err)
	}
	ins := m.Funcs[0].Instrs()
	if len(ins) != 1 || ins[0].String() != text {
		t.Fatalf("round trip of %q gave %v", text, ins)
	}
}

func hasPlainReg(in *Instr) bool {
	found := false
	var visit func(o Operand)
	visit = func(o Operand) {
		switch o := o.(type) {
		case *Reg:
			found = found || !strings.HasPrefix(o.Name, "%")
		case *Addr:
			if o.Base != nil {
				visit(o.Base)
			}
			for _, c := range o.Coords {
				visit(c)
			}
		case *Vector:
			for _, e := range o.Elems {
				visit(e)
			}
		case *List:
			for _, e := range o.Elems {
				visit(e)
			}
		case *Not:
			visit(o.X)
		case *Pair:
			visit(o.A)
			visit(o.B)
		}
	}
	for _, o := range in.Operands {
		visit(o)
	}
	return found
}

// calibSeeds cuts a calibration PTX file into small seeds: the module
// header, each entry's signature with an empty body, and windows of body
// lines (cut where braces balance, at most about maxSeed bytes) wrapped in
// an empty kernel. Go's minimizer is quadratic in input size, so one large
// interesting input (a whole 57 KB file) stalls fuzzing for a minute.
func calibSeeds(src string) []string {
	var kept []string
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "//") {
			kept = append(kept, l)
		}
	}
	parts := strings.Split(strings.Join(kept, "\n"), "\n.visible .entry")
	seeds := []string{parts[0]}
	for _, p := range parts[1:] {
		sig, body, _ := strings.Cut(p, "\n{\n")
		seeds = append(seeds, ".visible .entry"+sig+"\n{\n}\n")
		seeds = append(seeds, bodyWindows(body)...)
	}
	return seeds
}

func bodyWindows(body string) []string {
	const maxSeed = 256
	var out []string
	var w strings.Builder
	flush := func() {
		out = append(out, ".entry k()\n{\n"+w.String()+"}\n")
		w.Reset()
	}
	depth := 0
	for _, l := range strings.Split(body, "\n") {
		if depth == 0 && w.Len() > 0 && w.Len()+len(l) > maxSeed {
			flush()
		}
		if depth += strings.Count(l, "{") - strings.Count(l, "}"); depth < 0 {
			break // the entry's closing brace
		}
		w.WriteString(l + "\n")
	}
	if w.Len() > 0 {
		flush()
	}
	return out
}

// checkError asserts err is a one-line *Error whose position lies inside src.
func checkError(t *testing.T, src []byte, err error) {
	var pe *Error
	if !errors.As(err, &pe) {
		t.Fatalf("error %T, want *Error", err)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\n\r") {
		t.Fatalf("multi-line error %q", msg)
	}
	prefix := "fuzz.ptx:" + strconv.Itoa(pe.Pos.Line) + ":" + strconv.Itoa(pe.Pos.Col) + ": "
	if !strings.HasPrefix(msg, prefix) || len(msg) == len(prefix) {
		t.Fatalf("error %q lacks prefix %q and a message", msg, prefix)
	}
	lines := bytes.Split(src, []byte("\n"))
	if pe.Pos.Line < 1 || pe.Pos.Line > len(lines) {
		t.Fatalf("error line %d outside 1..%d: %s", pe.Pos.Line, len(lines), msg)
	}
	if n := len(lines[pe.Pos.Line-1]); pe.Pos.Col < 1 || pe.Pos.Col > n+1 {
		t.Fatalf("error column %d outside 1..%d: %s", pe.Pos.Col, n+1, msg)
	}
}

func TestFuzzSeedsParse(t *testing.T) {
	seeds := append([]string(nil), fuzzSeeds...)
	for _, name := range []string{"microbench.ptx", "hwprobe.ptx"} {
		chunks := calibSeeds(string(readCalib(t, name)))
		if len(chunks) < 50 {
			t.Errorf("%s split into %d chunks", name, len(chunks))
		}
		seeds = append(seeds, chunks...)
	}
	for i, s := range seeds {
		if _, err := Parse("seed.ptx", []byte(s)); err != nil {
			t.Errorf("seed %d: %v", i, err)
		}
	}
}

func BenchmarkParseMicrobench(b *testing.B) {
	src := readCalib(b, "microbench.ptx")
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, err := Parse("microbench.ptx", src); err != nil {
			b.Fatal(err)
		}
	}
}
