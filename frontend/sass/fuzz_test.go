package sass

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// relist prints a parsed listing back in cuobjdump's layout, with nvdisasm label lines for named
// labels.
func relist(f *File) []byte {
	var b bytes.Buffer
	if f.Arch != "" {
		fmt.Fprintf(&b, "\tcode for %s\n", f.Arch)
	}
	if f.Target != "" {
		fmt.Fprintf(&b, "\t.target\t%s\n", f.Target)
	}
	for _, fn := range f.Functions {
		fmt.Fprintf(&b, "\t\tFunction : %s\n", fn.Name)
		if fn.HeaderFlags != "" {
			fmt.Fprintf(&b, "\t.headerflags\t@\"%s\"\n", fn.HeaderFlags)
		}
		names := labelNames(fn)
		for i, in := range fn.Instructions {
			for _, n := range names[in.Addr] {
				fmt.Fprintf(&b, "%s:\n", n)
			}
			fmt.Fprintf(&b, "        /*%04x*/  %s ;", in.Addr, in.String())
			if in.HasEnc {
				fmt.Fprintf(&b, "  /* 0x%016x */\n  /* 0x%016x */", in.Enc.Lo, in.Enc.Hi)
			}
			b.WriteByte('\n')
			if i == len(fn.Instructions)-1 {
				for _, n := range names[in.Addr+16] {
					fmt.Fprintf(&b, "%s:\n", n)
				}
			}
		}
		b.WriteString("\t\t..........\n")
	}
	return b.Bytes()
}

// labelNames collects every label name a parsed function uses, by address: the label map's names,
// those of label operands and those of BRANCH_TARGETS annotations.
func labelNames(fn Function) map[uint32][]string {
	names := map[uint32][]string{}
	seen := map[string]bool{}
	add := func(addr uint32, n string) {
		if n != "" && !seen[n] {
			seen[n] = true
			names[addr] = append(names[addr], n)
		}
	}
	for _, l := range fn.Labels {
		add(l.Addr, l.Name)
	}
	for _, in := range fn.Instructions {
		for _, o := range in.Operands {
			if o.Kind == KindTarget {
				add(uint32(o.Int), o.Name)
			}
		}
		if list, ok := strings.CutPrefix(in.Annotation, "BRANCH_TARGETS "); ok {
			for k, n := range strings.Split(list, ",") {
				add(in.BranchTargets[k], strings.TrimSpace(n))
			}
		}
	}
	return names
}

// FuzzParseListing parses arbitrary text: never a panic, errors are located *Error values, and a
// listing that parses prints back to text that parses to the same instructions.
func FuzzParseListing(f *testing.F) {
	// Excerpts rather than whole files: the fuzzer mutates small inputs far faster.
	f.Add(headLines(readFile(f, "testdata/sample.sass"), 40))
	f.Add(headLines(readFile(f, "testdata/cubin/attrs.nvdisasm"), 60))
	f.Add([]byte("\t\tFunction : k\n.L_x_0:\n/*0000*/ @!P0 BRA `(.L_x_0) ;\n/*0010*/ LDS R0, [R1+-0x4] ;\n"))
	f.Add([]byte("\t\tFunction : k\n/*0000*/ FSETP.GTU.AND P0, PT, |R3|.reuse, +INF , PT ; /* 0x7f8000000300780b */\n /* 0x000fe20003f0c200 */\n"))
	f.Add([]byte("\t\tFunction : k\n/*0000*/ LDC R0, cx[UR4][R2.64+0x8] ;\n/*0010*/ MOV {R4,R5}, desc[UR4][R2.64+UR5] ;\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		f1, err := Parse("f.sass", src)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("error %v is not a located *Error", err)
			}
			return
		}
		again := relist(f1)
		f2, err := Parse("relisted.sass", again)
		if err != nil {
			t.Fatalf("relisted listing does not parse: %v\n%s", err, again)
		}
		if a, b := instructionsOf(f1), instructionsOf(f2); a != b {
			t.Fatalf("relisted listing differs:\n%s\nvs\n%s", a, b)
		}
	})
}

// headLines returns the first n lines of b.
func headLines(b []byte, n int) []byte {
	k := 0
	for i := 0; i < n && k < len(b); i++ {
		j := bytes.IndexByte(b[k:], '\n')
		if j < 0 {
			return b
		}
		k += j + 1
	}
	return b[:k]
}

func instructionsOf(f *File) string {
	var b strings.Builder
	for _, fn := range f.Functions {
		fmt.Fprintf(&b, "%s %q\n", fn.Name, fn.HeaderFlags)
		for _, in := range fn.Instructions {
			fmt.Fprintf(&b, "%x %s %v %x %x %v\n", in.Addr, in.String(), in.HasEnc, in.Enc.Lo, in.Enc.Hi, in.Ctrl)
			for _, o := range in.Operands {
				fmt.Fprintf(&b, "  %s\n", dumpOperand(o))
			}
		}
		for _, l := range fn.Labels {
			fmt.Fprintf(&b, "label %+v\n", l)
		}
	}
	return b.String()
}

// sectionBytes returns the bytes of a section of a committed cubin.
func sectionBytes(t testing.TB, path, name string) []byte {
	t.Helper()
	b := readFile(t, path)
	ef, err := elf.NewFile(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	s := ef.Section(name)
	if s == nil {
		t.Fatalf("%s: no section %s", path, name)
	}
	return b[s.Offset : s.Offset+s.Size]
}

// FuzzParseNvInfo decodes arbitrary .nv.info bytes: never a panic, and records that parse encode
// back to the same bytes.
func FuzzParseNvInfo(f *testing.F) {
	f.Add(sectionBytes(f, "../../calibration/h200/steps.cubin", ".nv.info.step_latency"))
	f.Add(sectionBytes(f, "../../calibration/h200/steps.cubin", ".nv.info"))
	f.Add(bytes.Join([][]byte{rec(FormatSVal, AttrReqNTID, 128, 1, 1), rec(FormatNVal, AttrExplicitCluster, 0),
		rec(FormatSVal, AttrIndirectBranchTargets, 0x370, 0, 1, 0x400)}, nil))
	f.Fuzz(func(t *testing.T, b []byte) {
		as, err := parseAttributes(b, "s")
		if err != nil {
			return
		}
		var out []byte
		for _, a := range as {
			out = append(out, byte(a.Format), byte(a.ID))
			if a.Format == FormatSVal {
				out = binary.LittleEndian.AppendUint16(out, uint16(len(a.Data)))
				out = append(out, a.Data...)
			} else {
				out = binary.LittleEndian.AppendUint16(out, a.Value)
			}
		}
		if !bytes.Equal(out, b) {
			t.Fatalf("records encode to %x, read from %x", out, b)
		}
		fn := Func{Info: as}
		_ = fn.decodeInfo("s")
	})
}

// FuzzParseCubin reads arbitrary bytes as a cubin: never a panic, and what is read is usable.
func FuzzParseCubin(f *testing.F) {
	f.Add(readFile(f, "../../calibration/h200/steps.cubin"))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := ReadCubin("f.cubin", b)
		if err != nil {
			var ce *CubinError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *CubinError", err)
			}
			return
		}
		for i := range c.Funcs {
			fn := &c.Funcs[i]
			for k := 0; k < fn.NumInstructions(); k++ {
				_ = fn.Encoding(k)
			}
			_ = fn.StaticShared()
		}
	})
}

// FuzzParseMangled derives parameter types from arbitrary names: never a panic, and a layout that
// succeeds has increasing, non-overlapping offsets.
func FuzzParseMangled(f *testing.F) {
	for _, s := range []string{"_Z6k_spinxPi", "_Z6k_desc14CUtensorMap_stS_iiiiiPx", "_Z6k_partILi4EEvPK4int4iiiiPx", "kspin", "_Z1kDF16_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		ts, err := ParamTypes(name)
		if err != nil {
			return
		}
		ps, err := LayoutParams(ts)
		if err != nil {
			return
		}
		for i := 1; i < len(ps); i++ {
			if ps[i].Offset < ps[i-1].Offset+ps[i-1].Size {
				t.Fatalf("%s: parameter %d at %d overlaps %+v", name, i, ps[i].Offset, ps[i-1])
			}
		}
	})
}

// BenchmarkParse parses all committed SASS (16 MB) per iteration.
func BenchmarkParse(b *testing.B) {
	var srcs [][]byte
	size := 0
	for _, p := range corpus(b, ".sass") {
		src, err := readListing(p)
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		size += len(src)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			if _, err := Parse("b.sass", src); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadCubin reads all committed cubins per iteration.
func BenchmarkReadCubin(b *testing.B) {
	var bins [][]byte
	size := 0
	for _, p := range corpus(b, ".cubin") {
		bin, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		bins = append(bins, bin)
		size += len(bin)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, bin := range bins {
			if _, err := ReadCubin("b.cubin", bin); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// mutate applies n random byte edits (replace, delete, duplicate) to a copy of b.
func mutate(r *rand.Rand, b []byte, n int) []byte {
	b = append([]byte(nil), b...)
	for m := 0; m < n && len(b) > 1; m++ {
		i := r.Intn(len(b))
		switch r.Intn(3) {
		case 0:
			b[i] = byte(r.Intn(256))
		case 1:
			b = append(b[:i], b[i+1:]...)
		default:
			b = append(b[:i], append([]byte{b[r.Intn(len(b))]}, b[i:]...)...)
		}
	}
	return b
}

// TestMutatedInputs runs the fuzz properties on a fixed set of random edits of whole committed
// files, which the fuzzer mutates too slowly on this scale: no panic, errors of the documented
// types, and listings that print back to themselves.
func TestMutatedInputs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, path := range []string{"testdata/sample.sass", "testdata/cubin/attrs.nvdisasm"} {
		src := readFile(t, path)
		for k := 0; k < 1000; k++ {
			b := mutate(r, src, 1+r.Intn(8))
			f, err := Parse("m.sass", b)
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Fatalf("%s edit %d: %v is not an *Error", path, k, err)
				}
				continue
			}
			g, err := Parse("relisted.sass", relist(f))
			if err != nil || instructionsOf(f) != instructionsOf(g) {
				t.Fatalf("%s edit %d: the relisted listing does not read back (%v)", path, k, err)
			}
		}
	}
	for _, path := range []string{"testdata/cubin/attrs.cubin", "../../calibration/h200/steps.cubin"} {
		bin := readFile(t, path)
		for k := 0; k < 3000; k++ {
			if _, err := ReadCubin("m.cubin", mutate(r, bin, 1+r.Intn(8))); err != nil {
				var ce *CubinError
				if !errors.As(err, &ce) {
					t.Fatalf("%s edit %d: %v is not a *CubinError", path, k, err)
				}
			}
		}
	}
}
