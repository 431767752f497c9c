package sass

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// elfRecord is one .nv.info record as cuobjdump -elf prints it.
type elfRecord struct {
	section, name, format, value string
	line                         int
}

// readElfListing reads the .nv.info records of a cuobjdump -elf listing, with each value's
// whitespace collapsed.
func readElfListing(t *testing.T, path string) []elfRecord {
	t.Helper()
	var out []elfRecord
	section := ""
	inValue := false
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, path)))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, ".nv.info"):
			section, inValue = line, false
		case line != "" && line[0] != '\t' && line[0] != ' ':
			section, inValue = "", false
		case section == "":
		case strings.HasPrefix(line, "\t<0x"):
			out = append(out, elfRecord{section: section, line: n + 1})
			inValue = false
		case strings.HasPrefix(line, "\tAttribute:\t"):
			out[len(out)-1].name = strings.TrimSpace(line[len("\tAttribute:\t"):])
		case strings.HasPrefix(line, "\tFormat:\t"):
			out[len(out)-1].format = strings.TrimSpace(line[len("\tFormat:\t"):])
		case strings.HasPrefix(line, "\tValue:"):
			out[len(out)-1].value = line[len("\tValue:"):]
			inValue = true
		case inValue:
			out[len(out)-1].value += " " + line
		}
	}
	for i := range out {
		out[i].value = strings.Join(strings.Fields(out[i].value), " ")
	}
	return out
}

// renderAttr prints a record the way cuobjdump -elf does, from this package's decoding.
func renderAttr(t *testing.T, c *Cubin, sec string, a *Attribute) string {
	t.Helper()
	fnName := func(sym uint32) string {
		if sym == 0 || int(sym) > len(c.Symbols) {
			t.Fatalf("%s: symbol %d out of range", sec, sym)
		}
		return fmt.Sprintf("%s(0x%x)", c.Symbols[sym-1].Name, sym)
	}
	var b strings.Builder
	switch {
	case a.Format == FormatNVal:
	case a.ID == AttrMercuryISAVersion:
		fmt.Fprintf(&b, "%d.%d", a.Value>>8, a.Value&0xff)
	case a.Format != FormatSVal:
		fmt.Fprintf(&b, "0x%x", a.Value)
	case a.ID == AttrRegCount || a.ID == AttrFrameSize || a.ID == AttrMinStackSize:
		w, err := words(a, sec, 2)
		if err != nil {
			t.Fatal(err)
		}
		what := map[AttrID]string{AttrRegCount: "register count: %d", AttrFrameSize: "frame size: 0x%x", AttrMinStackSize: "min stack size: 0x%x"}[a.ID]
		fmt.Fprintf(&b, "function: %s "+what, fnName(w[0]), w[1])
	case a.ID == AttrKParamInfo:
		p, err := decodeKParam(a, sec)
		if err != nil {
			t.Fatal(err)
		}
		space := "CBANK"
		if !p.InCBank {
			space = "not CBANK"
		}
		fmt.Fprintf(&b, "Index : 0x%x Ordinal : 0x%x Offset : 0x%x Size : 0x%x Pointee's logAlignment : 0x%x Space : 0x%x cbank : 0x%x Parameter Space : %s",
			p.Index, p.Ordinal, p.Offset, p.Size, p.PointeeLogAlign, p.Space, p.CBank, space)
	case a.ID == AttrMbarrierInstrOffsets:
		ms, err := decodeMbarriers(a, sec)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ms {
			kind := m.Kind.String()
			if strings.HasPrefix(kind, "MBARRIER_KIND_") {
				kind = "Unknown Instruction"
			}
			imm := ""
			if m.Imm != 0 {
				imm = fmt.Sprintf(" + %d", m.Imm)
			}
			stride := "?"
			if m.Stride == 1 {
				stride = "MBARRIER_STRIDE_X4"
			}
			fmt.Fprintf(&b, "0x%x : Instruction Kind : %s (R%d + UR%d%s) Stride : %s ", m.Offset, kind, m.Base.Num, m.UBase.Num, imm, stride)
		}
	case a.ID == AttrIndirectBranchTargets:
		ibs, err := decodeIndirect(a, sec)
		if err != nil {
			t.Fatal(err)
		}
		for _, ib := range ibs {
			fmt.Fprintf(&b, "Offset of Indirect Branch: 0x%x Number of targets: %d Targets:", ib.Offset, len(ib.Targets))
			for _, x := range ib.Targets {
				fmt.Fprintf(&b, " 0x%x", x)
			}
			b.WriteByte(' ')
		}
	default:
		for _, w := range a.Words() {
			fmt.Fprintf(&b, "0x%x ", w)
		}
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestAttributesMatchCuobjdump holds the .nv.info decoding to NVIDIA's own: for three cubins
// (testdata/cubin/*.elf.txt) every record's name, format and value as cuobjdump -elf prints them
// must equal this package's reading, rendered the same way.
func TestAttributesMatchCuobjdump(t *testing.T) {
	for _, tc := range []struct{ cubin, listing string }{
		{"testdata/cubin/attrs.cubin", "testdata/cubin/attrs.elf.txt"},
		{"../../calibration/h200/steps.cubin", "testdata/cubin/steps.elf.txt"},
		{"../../calibration/h200/cpipe.cubin", "testdata/cubin/cpipe.elf.txt"},
	} {
		c, err := ReadCubin(tc.cubin, readFile(t, tc.cubin))
		if err != nil {
			t.Fatal(err)
		}
		mine := map[string][]Attribute{".nv.info": c.Info}
		for _, f := range c.Funcs {
			mine[".nv.info."+f.Name] = f.Info
		}
		seen := map[string]int{}
		recs := readElfListing(t, tc.listing)
		for _, r := range recs {
			k := seen[r.section]
			seen[r.section]++
			as := mine[r.section]
			if k >= len(as) {
				t.Errorf("%s:%d: %s has more records than the cubin reader found (%d)", tc.listing, r.line, r.section, len(as))
				continue
			}
			a := &as[k]
			got := fmt.Sprintf("%v %v %s", a.ID, a.Format, renderAttr(t, c, r.section, a))
			want := fmt.Sprintf("%s %s %s", r.name, r.format, r.value)
			if got != want {
				t.Errorf("%s:%d: record %d of %s:\ngot  %s\nwant %s", tc.listing, r.line, k, r.section, got, want)
			}
		}
		for sec, as := range mine {
			if seen[sec] != len(as) {
				t.Errorf("%s: %s: cuobjdump lists %d records, the reader %d", tc.listing, sec, seen[sec], len(as))
			}
		}
		if len(recs) < 20 {
			t.Errorf("%s: read only %d records", tc.listing, len(recs))
		}
	}
}

// TestNvdisasmMatchesCuobjdump parses nvdisasm's listings (labels, annotations, directives) and
// wants the instructions of the cuobjdump listing of the same cubin: the same addresses, opcodes,
// operands and encodings, targets at the addresses cuobjdump prints, and BRX targets equal to the
// cubin's jump tables.
func TestNvdisasmMatchesCuobjdump(t *testing.T) {
	for _, tc := range []struct{ nvdisasm, cuobjdump, cubin string }{
		{"testdata/cubin/attrs.nvdisasm", "testdata/cubin/attrs.sass", "testdata/cubin/attrs.cubin"},
		{"testdata/cubin/steps.hex.nvdisasm", "../../calibration/h200/steps.sass", "../../calibration/h200/steps.cubin"},
	} {
		nv, err := Parse(tc.nvdisasm, readFile(t, tc.nvdisasm))
		if err != nil {
			t.Fatal(err)
		}
		cu, err := Parse(tc.cuobjdump, readFile(t, tc.cuobjdump))
		if err != nil {
			t.Fatal(err)
		}
		c, err := ReadCubin(tc.cubin, readFile(t, tc.cubin))
		if err != nil {
			t.Fatal(err)
		}
		if nv.Target != cu.Target || len(nv.Functions) != len(cu.Functions) {
			t.Fatalf("%s: target %q, %d functions; cuobjdump %q, %d", tc.nvdisasm, nv.Target, len(nv.Functions), cu.Target, len(cu.Functions))
		}
		brx := 0
		for _, fn := range nv.Functions {
			ref := cu.Function(fn.Name)
			if ref == nil || len(ref.Instructions) != len(fn.Instructions) {
				t.Fatalf("%s: function %s does not match the cuobjdump listing", tc.nvdisasm, fn.Name)
			}
			var jumps map[uint32][]uint32
			for _, f := range c.Funcs {
				if f.Name == fn.Name {
					jumps = map[uint32][]uint32{}
					for _, ib := range f.IndirectBranches {
						jumps[ib.Offset] = ib.Targets
					}
				}
			}
			for i := range fn.Instructions {
				a, b := &fn.Instructions[i], &ref.Instructions[i]
				if msg := sameInstruction(a, b); msg != "" {
					t.Errorf("%s:%d: %s\n  nvdisasm  %s\n  cuobjdump %s", tc.nvdisasm, a.Line, msg, a, b)
				}
				if a.Op == "BRX" {
					brx++
					if fmt.Sprint(a.BranchTargets) != fmt.Sprint(jumps[a.Addr]) {
						t.Errorf("%s:%d: BRX targets %x, the cubin's jump table %x", tc.nvdisasm, a.Line, a.BranchTargets, jumps[a.Addr])
					}
				}
			}
		}
		if brx == 0 {
			t.Errorf("%s: no BRX", tc.nvdisasm)
		}
	}
}

// sameInstruction compares an nvdisasm instruction with cuobjdump's; a label operand equals an
// integer or target at the same address.
func sameInstruction(a, b *Instruction) string {
	if a.Addr != b.Addr || a.Mnemonic != b.Mnemonic || a.Guard != b.Guard {
		return "different instruction"
	}
	if a.HasEnc && (a.Enc != b.Enc || a.Ctrl != b.Ctrl) {
		return "different encoding"
	}
	if len(a.Operands) != len(b.Operands) {
		return "different operand count"
	}
	for k := range a.Operands {
		x, y := a.Operands[k], b.Operands[k]
		if x.Kind == KindTarget && x.Name != "" {
			if (y.Kind != KindTarget && y.Kind != KindInt) || x.Int != y.Int {
				return fmt.Sprintf("operand %d: label %s at 0x%x, cuobjdump %s", k, x.Name, x.Int, y.String())
			}
			continue
		}
		if x.String() != y.String() || x.Kind != y.Kind {
			return fmt.Sprintf("operand %d differs", k)
		}
	}
	return ""
}

// TestAttrsCubin checks the launch-shape and resource attributes of attrs.cubin against the
// directives of attrs.ptx that produced them.
func TestAttrsCubin(t *testing.T) {
	c, err := ReadCubin("attrs.cubin", readFile(t, "testdata/cubin/attrs.cubin"))
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) *Func {
		f := c.Func(name)
		if f == nil {
			t.Fatalf("no function %s", name)
		}
		return f
	}
	cl, misc, call := get("attr_cluster"), get("attr_misc"), get("attr_call")
	tests := []struct {
		name      string
		got, want any
	}{
		{".reqntid 128, 1, 1", cl.ReqNTID, [3]uint32{128, 1, 1}},
		{".reqnctapercluster 2, 1, 1", cl.ClusterDims, [3]uint32{2, 1, 1}},
		{".explicitcluster", cl.ExplicitCluster, true},
		{"pointer declared .ptr .global .align 16", [2]uint8{cl.Params[0].PointeeLogAlign, cl.Params[0].Space}, [2]uint8{4, 4}},
		{"tensor map .align 64 at a 64-aligned bank address", cl.Params[2].CBankOffset, uint32(0x240)},
		{"shared mbarrier of 8 bytes", cl.StaticShared(), uint64(16)},
		{".maxntid 256, 1, 1", misc.MaxThreads, [3]uint32{256, 1, 1}},
		{".maxclusterrank 4", misc.MaxClusterRank, uint32(4)},
		{".minnctapersm 2 with 256 threads caps registers at 128", misc.MaxRegCount, uint32(128)},
		{"64-byte local array", misc.FrameSize, uint32(64)},
		{"brx.idx over three labels", len(misc.IndirectBranches[0].Targets), 3},
		{"bar.sync", misc.Barriers, 1},
		{".maxnreg 40", call.MaxRegCount, uint32(40)},
		{"unconstrained kernel", cl.MaxRegCount, uint32(255)},
		{".global .u32 gcounter", c.GlobalSize, uint64(4)},
		{".global .u32 ginit[4] = {1, 2, 3, 4}", fmt.Sprintf("%x", c.GlobalInit), "01000000020000000300000004000000"},
	}
	for _, tc := range tests {
		if fmt.Sprint(tc.got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}
