package sass

import (
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestParseCorpus parses every committed listing: no errors, no operand the parser does not know,
// an encoding on every instruction, and every instruction printed back exactly as cuobjdump wrote
// it (cuobjdump puts a space before the comma after some float literals, "+INF , PT"; that space
// is the only difference allowed).
func TestParseCorpus(t *testing.T) {
	n, unknown := 0, 0
	eachInstruction(t, func(pf *parsedFile, f *Function, in *Instruction) {
		n++
		for _, o := range in.Operands {
			if o.Kind == KindUnknown {
				unknown++
				t.Errorf("%s:%d: unknown operand %q in %s", pf.path, in.Line, o.Name, in)
			}
		}
		if !in.HasEnc {
			t.Errorf("%s:%d: no encoding", pf.path, in.Line)
		}
		want := strings.ReplaceAll(pf.sourceText(in.Line), " ,", ",")
		if got := in.String(); got != want {
			t.Errorf("%s:%d: prints as %q, want %q", pf.path, in.Line, got, want)
		}
	})
	if n < 60000 {
		t.Errorf("parsed %d instructions; the committed SASS has about 70,000", n)
	}
	t.Logf("%d instructions, %d unknown operands", n, unknown)
}

// TestParseStripped checks that a listing printed without encodings parses to the same
// instructions as with them.
func TestParseStripped(t *testing.T) {
	pf := parsedCorpus(t)[0]
	enc := regexp.MustCompile(`(?m)\s*/\* 0x[0-9a-f]{16} \*/$`)
	stripped := enc.ReplaceAll(pf.src, nil)
	f, err := Parse("stripped", stripped)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Functions) != len(pf.f.Functions) {
		t.Fatalf("got %d functions, want %d", len(f.Functions), len(pf.f.Functions))
	}
	for i := range f.Functions {
		a, b := f.Functions[i].Instructions, pf.f.Functions[i].Instructions
		if len(a) != len(b) {
			t.Fatalf("%s: got %d instructions, want %d", f.Functions[i].Name, len(a), len(b))
		}
		for k := range a {
			if a[k].HasEnc || a[k].String() != b[k].String() || a[k].Addr != b[k].Addr {
				t.Fatalf("line %d: got %q (encoded %v), want %q", a[k].Line, a[k].String(), a[k].HasEnc, b[k].String())
			}
		}
	}
}

func parseOne(t *testing.T, text string) *Instruction {
	t.Helper()
	f, err := Parse("t.sass", []byte("\t\tFunction : k\n        /*0000*/  "+text+" ;\n"))
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	return &f.Functions[0].Instructions[0]
}

// TestParseOperands types one instruction per operand form of the committed SASS (and the
// nvdisasm forms the text may contain).
func TestParseOperands(t *testing.T) {
	r := func(n uint8) Reg { return Reg{GPR, n} }
	ur := func(n uint8) Reg { return Reg{UGPR, n} }
	tests := []struct {
		name, text string
		guard      Guard
		op         string
		mods       []string
		want       []Operand
	}{
		{"register and constant", "LDC R1, c[0x0][0x28]", Guard{}, "LDC", nil,
			[]Operand{{Kind: KindReg, Reg: r(1)}, {Kind: KindConst, Bank: 0, Int: 0x28}}},
		{"reuse, zero register, true predicate", "ISETP.NE.AND P1, PT, R2.reuse, RZ, PT", Guard{}, "ISETP", []string{"NE", "AND"},
			[]Operand{{Kind: KindReg, Reg: Reg{Pred, 1}}, {Kind: KindReg, Reg: Reg{Pred, PT}},
				{Kind: KindReg, Reg: r(2), Mods: ModReuse}, {Kind: KindReg, Reg: r(RZ)}, {Kind: KindReg, Reg: Reg{Pred, PT}}}},
		{"negated guard and branch target", "@!P0 BRA 0x4d0", Guard{Reg{Pred, 0}, true}, "BRA", nil,
			[]Operand{{Kind: KindTarget, Int: 0x4d0}}},
		{"uniform guard", "@!UP0 UMOV UR5, 0x400", Guard{Reg{UPred, 0}, true}, "UMOV", nil,
			[]Operand{{Kind: KindReg, Reg: ur(5)}, {Kind: KindInt, Int: 0x400}}},
		{"negative immediate, logical not", "LOP3.LUT P0, RZ, R2, -0x21524111, RZ, 0xc0, !PT", Guard{}, "LOP3", []string{"LUT"},
			[]Operand{{Kind: KindReg, Reg: Reg{Pred, 0}}, {Kind: KindReg, Reg: r(RZ)}, {Kind: KindReg, Reg: r(2)},
				{Kind: KindInt, Int: -0x21524111}, {Kind: KindReg, Reg: r(RZ)}, {Kind: KindInt, Int: 0xc0},
				{Kind: KindReg, Reg: Reg{Pred, PT}, Mods: ModLNot}}},
		{"descriptor memory with offset", "STG.E.64 desc[UR8][R4.64+0x8], R2", Guard{}, "STG", []string{"E", "64"},
			[]Operand{{Kind: KindMem, Desc: ur(8), Reg: r(4), Suffix: ".64", Int: 8}, {Kind: KindReg, Reg: r(2)}}},
		{"negative memory offset", "LDS.U16 R19, [R7+-0x80]", Guard{}, "LDS", []string{"U16"},
			[]Operand{{Kind: KindReg, Reg: r(19)}, {Kind: KindMem, Reg: r(7), Int: -0x80}}},
		{"register plus uniform plus offset", "LDS.128 R12, [R13+UR5+0x4000]", Guard{}, "LDS", []string{"128"},
			[]Operand{{Kind: KindReg, Reg: r(12)}, {Kind: KindMem, Reg: r(13), Index: ur(5), Int: 0x4000}}},
		{"uniform-only address", "SYNCS.EXCH.64 URZ, [UR6], UR4", Guard{}, "SYNCS", []string{"EXCH", "64"},
			[]Operand{{Kind: KindReg, Reg: ur(URZ)}, {Kind: KindMem, Reg: ur(6)}, {Kind: KindReg, Reg: ur(4)}}},
		{"indexed constant", "LDC R4, c[0x2][R6+0x18]", Guard{}, "LDC", nil,
			[]Operand{{Kind: KindReg, Reg: r(4)}, {Kind: KindConst, Bank: 2, Reg: r(6), Int: 0x18}}},
		{"register-bank constant", "LDC R0, cx[UR4][R2]", Guard{}, "LDC", nil,
			[]Operand{{Kind: KindReg, Reg: r(0)}, {Kind: KindConst, Desc: ur(4), Reg: r(2)}}},
		{"special registers", "S2UR UR6, SR_CgaCtaId", Guard{}, "S2UR", nil,
			[]Operand{{Kind: KindReg, Reg: ur(6)}, {Kind: KindSpecial, Name: "SR_CgaCtaId"}}},
		{"dotted special register", "S2R R2, SR_TID.X", Guard{}, "S2R", nil,
			[]Operand{{Kind: KindReg, Reg: r(2)}, {Kind: KindSpecial, Name: "SR_TID.X"}}},
		{"abs with reuse and float", "FSETP.GEU.AND P0, PT, |R21|.reuse, 1.469367938527859385e-39, PT", Guard{}, "FSETP", []string{"GEU", "AND"},
			[]Operand{{Kind: KindReg, Reg: Reg{Pred, 0}}, {Kind: KindReg, Reg: Reg{Pred, PT}},
				{Kind: KindReg, Reg: r(21), Mods: ModAbs | ModReuse},
				{Kind: KindFloat, Name: "1.469367938527859385e-39", Float: 1.469367938527859385e-39}, {Kind: KindReg, Reg: Reg{Pred, PT}}}},
		{"half selectors and negation", "HADD2 R10, |R8|.H0_H0, -RZ.H0_H0", Guard{}, "HADD2", nil,
			[]Operand{{Kind: KindReg, Reg: r(10)}, {Kind: KindReg, Reg: r(8), Mods: ModAbs, Suffix: ".H0_H0"},
				{Kind: KindReg, Reg: r(RZ), Mods: ModNeg, Suffix: ".H0_H0"}}},
		{"reuse before the half selector", "HADD2.F32 R4, -RZ, R14.reuse.H0_H0", Guard{}, "HADD2", []string{"F32"},
			[]Operand{{Kind: KindReg, Reg: r(4)}, {Kind: KindReg, Reg: r(RZ), Mods: ModNeg},
				{Kind: KindReg, Reg: r(14), Mods: ModReuse, Suffix: ".H0_H0"}}},
		{"bitwise not of a uniform register", "IADD3.X R17, R14, ~UR5, RZ, P1, !PT", Guard{}, "IADD3", []string{"X"},
			[]Operand{{Kind: KindReg, Reg: r(17)}, {Kind: KindReg, Reg: r(14)}, {Kind: KindReg, Reg: ur(5), Mods: ModNot},
				{Kind: KindReg, Reg: r(RZ)}, {Kind: KindReg, Reg: Reg{Pred, 1}}, {Kind: KindReg, Reg: Reg{Pred, PT}, Mods: ModLNot}}},
		{"infinities and NaN", "FSETP.GTU.FTZ.AND P1, PT, |R32|, +INF , PT", Guard{}, "FSETP", []string{"GTU", "FTZ", "AND"},
			[]Operand{{Kind: KindReg, Reg: Reg{Pred, 1}}, {Kind: KindReg, Reg: Reg{Pred, PT}}, {Kind: KindReg, Reg: r(32), Mods: ModAbs},
				{Kind: KindFloat, Name: "+INF", Float: math.Inf(1)}, {Kind: KindReg, Reg: Reg{Pred, PT}}}},
		{"two half immediates", "HFMA2.MMA R2, -RZ, RZ, 0, 5.9604644775390625e-08", Guard{}, "HFMA2", []string{"MMA"},
			[]Operand{{Kind: KindReg, Reg: r(2)}, {Kind: KindReg, Reg: r(RZ), Mods: ModNeg}, {Kind: KindReg, Reg: r(RZ)},
				{Kind: KindFloat, Name: "0"}, {Kind: KindFloat, Name: "5.9604644775390625e-08", Float: 5.9604644775390625e-08}}},
		{"scoreboard", "DEPBAR.LE SB0, 0x1", Guard{}, "DEPBAR", []string{"LE"},
			[]Operand{{Kind: KindReg, Reg: Reg{Scoreboard, 0}}, {Kind: KindInt, Int: 1}}},
		{"convergence barrier and target", "BSSY B0, 0x110", Guard{}, "BSSY", nil,
			[]Operand{{Kind: KindReg, Reg: Reg{Barrier, 0}}, {Kind: KindTarget, Int: 0x110}}},
		{"barrier register move", "BMOV.32.CLEAR R4, B6", Guard{}, "BMOV", []string{"32", "CLEAR"},
			[]Operand{{Kind: KindReg, Reg: r(4)}, {Kind: KindReg, Reg: Reg{Barrier, 6}}}},
		{"space-separated displacement", "BRX R4 -0x380", Guard{}, "BRX", nil,
			[]Operand{{Kind: KindReg, Reg: r(4)}, {Kind: KindInt, Int: -0x380}}},
		{"return displacement", "RET.REL.NODEC R12 0x0", Guard{}, "RET", []string{"REL", "NODEC"},
			[]Operand{{Kind: KindReg, Reg: r(12)}, {Kind: KindInt}}},
		{"collective target", "WARPSYNC.COLLECTIVE R7, 0x0", Guard{}, "WARPSYNC", []string{"COLLECTIVE"},
			[]Operand{{Kind: KindReg, Reg: r(7)}, {Kind: KindTarget}}},
		{"warpsync mask is not a target", "WARPSYNC 0xffffffff", Guard{}, "WARPSYNC", nil,
			[]Operand{{Kind: KindInt, Int: 0xffffffff}}},
		{"predicate register set", "P2R R0, PR, RZ, 0x1", Guard{}, "P2R", nil,
			[]Operand{{Kind: KindReg, Reg: r(0)}, {Kind: KindSpecial, Name: "PR"}, {Kind: KindReg, Reg: r(RZ)}, {Kind: KindInt, Int: 1}}},
		{"register list", "MOV {R4,R5}, R6", Guard{}, "MOV", nil,
			[]Operand{{Kind: KindList, List: []Reg{r(4), r(5)}}, {Kind: KindReg, Reg: r(6)}}},
		{"no operands", "NOP", Guard{}, "NOP", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := parseOne(t, tc.text)
			if in.Guard != tc.guard || in.Op != tc.op || fmt.Sprint(in.Mods) != fmt.Sprint(tc.mods) {
				t.Errorf("got guard %+v op %q mods %q, want %+v %q %q", in.Guard, in.Op, in.Mods, tc.guard, tc.op, tc.mods)
			}
			if len(in.Operands) != len(tc.want) {
				t.Fatalf("got %d operands %v, want %d", len(in.Operands), in.Operands, len(tc.want))
			}
			for i := range tc.want {
				if got, want := fmt.Sprintf("%+v", in.Operands[i]), fmt.Sprintf("%+v", tc.want[i]); got != want {
					t.Errorf("operand %d: got %s, want %s", i, got, want)
				}
			}
		})
	}
}

// TestParseErrors feeds malformed listings and wants one located error each.
func TestParseErrors(t *testing.T) {
	const fn = "\t\tFunction : k\n"
	tests := []struct{ name, src, want string }{
		{"instruction before any function", "/*0000*/ NOP ;\n", "t.sass:1:1: instruction outside a function"},
		{"bad address", fn + "/*00g0*/ NOP ;\n", "t.sass:2:3: bad instruction address: want /*hex*/"},
		{"address going back", fn + "/*0010*/ NOP ;\n/*0000*/ NOP ;\n", "t.sass:3:3: address 0x0 does not follow 0x10"},
		{"missing semicolon", fn + "/*0000*/ NOP\n", "t.sass:2:13: missing ';' at the end of the instruction"},
		{"missing high word at the end", fn + "/*0000*/ NOP ; /* 0x0000000000007918 */\n",
			"t.sass:2:1: missing the high encoding word after this instruction"},
		{"high word replaced by an instruction", fn + "/*0000*/ NOP ; /* 0x0000000000007918 */\n/*0010*/ NOP ;\n",
			"t.sass:3:1: want the high encoding word /* 0x... */ of the instruction on line 2"},
		{"garbage after the semicolon", fn + "/*0000*/ NOP ; junk\n", "t.sass:2:16: after ';' want the encoding comment /* 0x... */"},
		{"bad guard", fn + "/*0000*/ @Q0 NOP ;\n", "t.sass:2:11: bad guard predicate: want P0-P6, PT, UP0-UP6 or UPT"},
		{"lower-case opcode", fn + "/*0000*/ nop ;\n", `t.sass:2:10: bad opcode "nop"`},
		{"empty modifier", fn + "/*0000*/ IMAD..X R0 ;\n", `t.sass:2:10: empty modifier in opcode "IMAD..X"`},
		{"unclosed address", fn + "/*0000*/ LDS R0, [R1 ;\n", "t.sass:2:22: missing ']'"},
		{"bank too large", fn + "/*0000*/ LDC R0, c[0x100][0x0] ;\n", "t.sass:2:20: bad constant bank: want c[0x0-0xff]"},
		{"bad hex", fn + "/*0000*/ MOV R0, 0xZZ ;\n", "t.sass:2:18: bad hex integer"},
		{"unclosed abs", fn + "/*0000*/ FADD R0, |R1, R2 ;\n", "t.sass:2:22: missing closing '|'"},
		{"modifier on an immediate", fn + "/*0000*/ MOV R0, ~0x1 ;\n", "t.sass:2:18: modifier on integer operand"},
		{"register out of range", fn + "/*0000*/ MOV R0, R256 ;\n", "t.sass:2:18: register R256 out of range"},
		{"dangling comma", fn + "/*0000*/ MOV R0, ;\n", "t.sass:2:17: missing operand after ','"},
		{"target between instructions", fn + "/*0000*/ BRA 0x8 ;\n/*0010*/ NOP ;\n",
			"t.sass:2:1: branch target 0x8 is not an instruction address of k"},
		{"undefined label", fn + "/*0000*/ BRA `(.L_x_9) ;\n", "t.sass:2:1: undefined label .L_x_9"},
		{"label defined twice", fn + ".L_x_0:\n/*0000*/ NOP ;\n.L_x_0:\n/*0010*/ NOP ;\n", "t.sass:4:1: label .L_x_0 defined twice"},
		{"unexpected line", fn + "hello world\n", `t.sass:2:1: unexpected line "hello world"`},
		{"too many operands", fn + "/*0000*/ NOP " + strings.Repeat("R0, ", 16) + "R0 ;\n", "t.sass:2:78: more than 16 operands"},
		{"line too long", fn + strings.Repeat(" ", 5000) + "\n", "t.sass:2:4097: line longer than 4096 bytes"},
		{"unknown directive", fn + ".frobnicate 3\n", "t.sass:2:1: unknown directive .frobnicate"},
		{"bad annotation", fn + "/*0000*/ BRX R4 -0x10 (*BRANCH*) ;\n", `t.sass:2:23: bad annotation: want (*"text"*)`},
		{"annotation naming no label", fn + "/*0000*/ BRX R4 -0x10 (*\"BRANCH_TARGETS .L_x_1\"*) ;\n", "t.sass:2:1: undefined label .L_x_1"},
		{"label in an empty function", fn + ".L_x_0:\n\t\t..........\n", "t.sass:2:1: label .L_x_0 in a function without instructions"},
		{"mixed architectures", "\tcode for sm_90a\n\tcode for sm_80\n", "t.sass:2:11: listing mixes sm_90a and sm_80 code; give one architecture per file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.sass", []byte(tc.src))
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, want an *Error", err)
			}
			if err.Error() != tc.want {
				t.Errorf("got  %s\nwant %s", err, tc.want)
			}
		})
	}
}

// TestLabels checks the branch-target map: cuobjdump's absolute targets, nvdisasm's label lines,
// label operands, BRANCH_TARGETS annotations and end labels, and calls that leave the function.
func TestLabels(t *testing.T) {
	src := "\tcode for sm_90a\n\t.section\t.text.k,\"ax\",@progbits\n" +
		"        /*0000*/                   BSSY B0, 0x30 ;\n" +
		".L_x_1:\n" +
		"        /*0010*/               @P0 BRA `(.L_x_1) ;\n" +
		"        /*0020*/                   CALL.REL.NOINC 0x1000 ;\n" +
		"        /*0030*/                   BSYNC B0 ;\n" +
		"        /*0040*/                   BRA 0x10 ;\n" +
		"        /*0050*/                   BRX R4 -0x60 (*\"BRANCH_TARGETS .L_x_1,.L_x_9\"*) ;\n" +
		".L_x_9:\n"
	f, err := Parse("t.sass", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%+v", f.Functions[0].Labels)
	want := "[{Addr:16 Name:.L_x_1 Index:1 From:[16 64 80]} {Addr:48 Name: Index:3 From:[0]} {Addr:96 Name:.L_x_9 Index:-1 From:[80]} {Addr:4096 Name: Index:-1 From:[32]}]"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	fn := &f.Functions[0]
	if l, ok := fn.Label(0x30); !ok || l.Index != 3 {
		t.Errorf("Label(0x30) = %+v, %v", l, ok)
	}
	if i, ok := fn.Index(0x40); !ok || i != 4 {
		t.Errorf("Index(0x40) = %d, %v", i, ok)
	}
	if op, ok := fn.Instructions[1].Target(); !ok || op.Int != 0x10 || op.String() != "`(.L_x_1)" {
		t.Errorf("Target() = %+v, %v", op, ok)
	}
	if brx := fn.Instructions[5]; fmt.Sprint(brx.BranchTargets) != "[16 96]" || brx.Annotation != "BRANCH_TARGETS .L_x_1,.L_x_9" {
		t.Errorf("BRX targets %v, annotation %q", brx.BranchTargets, brx.Annotation)
	}
}

// TestCorpusLabels checks that every branch in the committed SASS lands on an instruction of its
// own function.
func TestCorpusLabels(t *testing.T) {
	n := 0
	for _, pf := range parsedCorpus(t) {
		for _, f := range pf.f.Functions {
			for _, l := range f.Labels {
				n++
				if l.Index < 0 {
					t.Errorf("%s: %s: target 0x%x from %x is outside the function", pf.path, f.Name, l.Addr, l.From)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no labels in the corpus")
	}
}

// TestParseGolden dumps the typed parse of a small listing that gathers the operand forms of the
// committed SASS.
func TestParseGolden(t *testing.T) {
	src := readFile(t, "testdata/sample.sass")
	f, err := Parse("sample.sass", src)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "golden/sample.golden", dumpFile(f))
}

// dumpFile prints a parsed listing with every field, one operand per line.
func dumpFile(f *File) string {
	var b strings.Builder
	fmt.Fprintf(&b, "arch %s target %s\n", f.Arch, f.Target)
	for _, fn := range f.Functions {
		fmt.Fprintf(&b, "function %s (line %d) flags %q\n", fn.Name, fn.Line, fn.HeaderFlags)
		for _, in := range fn.Instructions {
			fmt.Fprintf(&b, "  %04x line %d  %-40s", in.Addr, in.Line, in.String())
			if in.HasEnc {
				fmt.Fprintf(&b, "  %016x %016x  %s", in.Enc.Lo, in.Enc.Hi, in.Ctrl)
			}
			b.WriteByte('\n')
			for i, o := range in.Operands {
				fmt.Fprintf(&b, "      %d %-8s %s\n", i, kindName(o.Kind), dumpOperand(o))
			}
		}
		for _, l := range fn.Labels {
			fmt.Fprintf(&b, "  label 0x%x %q index %d from %x\n", l.Addr, l.Name, l.Index, l.From)
		}
	}
	return b.String()
}

func dumpOperand(o Operand) string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	if o.Mods != 0 {
		add("mods=%05b", o.Mods)
	}
	if o.Reg.Valid() {
		add("reg=%s", o.Reg)
	}
	if o.Suffix != "" {
		add("suffix=%s", o.Suffix)
	}
	if o.Index.Valid() {
		add("index=%s%s", o.Index, o.IndexSuffix)
	}
	if o.Desc.Valid() {
		add("desc=%s", o.Desc)
	}
	if o.Kind == KindConst && !o.Desc.Valid() {
		add("bank=%d", o.Bank)
	}
	if o.Name != "" {
		add("name=%s", o.Name)
	}
	switch o.Kind {
	case KindInt, KindMem, KindConst, KindTarget:
		add("int=%d", o.Int)
	case KindFloat:
		add("float=%g", o.Float)
	case KindList:
		add("list=%v", o.List)
	}
	return strings.Join(parts, " ")
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := readListing(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readListing reads path, or path.gz where only that exists (the
// repository keeps its largest listings gzipped).
func readListing(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return readGzipped(path + ".gz")
	}
	return b, err
}

// readGzipped reads a gzipped file's contents.
func readGzipped(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return io.ReadAll(zr)
}
