package sms

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current compiler output")

// goldenSources lists the .sms files with a golden disassembly: every
// example and every testdata/*.sms, by the path their positions show.
func goldenSources(t testing.TB) map[string]string {
	t.Helper()
	out := map[string]string{} // golden name -> path relative to the module root
	for _, pattern := range []string{"../../examples/*.sms", "testdata/*.sms"} {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			name := strings.TrimSuffix(filepath.Base(p), ".sms")
			rel := strings.TrimPrefix(p, "../../")
			if !strings.HasPrefix(p, "../../") {
				rel = "frontend/sms/" + p
			}
			if old, dup := out[name]; dup {
				t.Fatalf("%s and %s would share testdata/%s.golden", old, rel, name)
			}
			out[name] = rel
		}
	}
	return out
}

func readSource(t testing.TB, rel string) []byte {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func TestGoldenDisassembly(t *testing.T) {
	srcs := goldenSources(t)
	if len(srcs) < 15 {
		t.Fatalf("found %d .sms sources, want the 11 examples and the testdata programs", len(srcs))
	}
	for name, rel := range srcs {
		t.Run(name, func(t *testing.T) {
			p, err := Compile(rel, readSource(t, rel))
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, p)
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./frontend/sms -run TestGoldenDisassembly -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("disassembly of %s differs from %s:\n%s", rel, golden, lineDiff(string(got), string(want)))
			}
		})
	}
}

// render is Program.Disasm followed by what Disasm does not print: the
// launch shape, parameters, symbols and each instruction's modifiers.
func render(t testing.TB, p *isa.Program) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := p.Disasm(&b); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(&b, "// block %v grid %v dynamic smem %d (align %d)\n", p.Block, p.Grid, p.DynSmem, p.DynSmemAlign)
	for _, q := range p.Params {
		fmt.Fprintf(&b, "// param %s: offset %d, %d bytes, align %d, %s, default %q\n", q.Name, q.Offset, q.Size, q.Align, q.Type, q.Default)
	}
	for _, s := range p.Symbols {
		fmt.Fprintf(&b, "// symbol %s: %s+%d, %d bytes\n", s.Name, s.Space, s.Offset, s.Size)
	}
	for i := range p.Instrs {
		if d := modifiers(&p.Instrs[i]); d != "" {
			fmt.Fprintf(&b, "// %5d %s\n", i, d)
		}
	}
	return b.Bytes()
}

var flagNames = map[isa.Flags]string{
	isa.FLo: "lo", isa.FDrop: "drop", isa.FNoComplete: "noComplete", isa.FExpectTx: "expect_tx",
	isa.FParity: "parity", isa.FHint: "hint", isa.FStore: "store", isa.FRead: "read",
	isa.FProxyAsync: "proxy.async", isa.FMbarInitFence: "mbarrier_init",
}

var cmpNames = map[isa.CmpOp]string{
	isa.CmpEq: "eq", isa.CmpNe: "ne", isa.CmpLt: "lt", isa.CmpLe: "le", isa.CmpGt: "gt", isa.CmpGe: "ge",
}

// modifiers lists the fields of an instruction that Disasm leaves out.
func modifiers(in *isa.Instr) string {
	var parts []string
	if in.Cmp != isa.CmpNone {
		parts = append(parts, "cmp="+cmpNames[in.Cmp])
	}
	for f := isa.Flags(1); f != 0; f <<= 1 {
		if in.Flags.Has(f) {
			name, ok := flagNames[f]
			if !ok {
				name = fmt.Sprintf("flag%#x", uint64(f))
			}
			parts = append(parts, "."+name)
		}
	}
	if in.Op.IsMbarrier() || in.Op == isa.OpBulkCopy || in.Op == isa.OpBulkTensor || in.Op == isa.OpFence {
		if in.Space != isa.Generic {
			parts = append(parts, "space="+in.Space.String())
		}
		if in.Space2 != isa.Generic {
			parts = append(parts, "src="+in.Space2.String())
		}
	}
	if in.Dim != 0 {
		parts = append(parts, fmt.Sprintf("dim=%d", in.Dim))
	}
	return strings.Join(parts, " ")
}

// lineDiff shows the first differing lines of two texts.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return "(only line endings differ)"
}
