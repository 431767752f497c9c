package sass

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
)

type readCubin struct {
	path string
	c    *Cubin
}

var (
	cubinsOnce sync.Once
	cubins     []readCubin
	cubinsErr  error
)

// corpusCubins reads every committed cubin once per test binary.
func corpusCubins(t testing.TB) []readCubin {
	t.Helper()
	paths := corpus(t, ".cubin")
	cubinsOnce.Do(func() {
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				cubinsErr = err
				return
			}
			c, err := ReadCubin(p, b)
			if err != nil {
				cubinsErr = err
				return
			}
			cubins = append(cubins, readCubin{p, c})
		}
	})
	if cubinsErr != nil {
		t.Fatal(cubinsErr)
	}
	return cubins
}

// listingOf returns the parsed .sass beside a cubin.
func listingOf(t *testing.T, cubinPath string) *parsedFile {
	t.Helper()
	want := strings.TrimSuffix(cubinPath, ".cubin") + ".sass"
	for i := range parsedCorpus(t) {
		if corpusParsed[i].path == want {
			return &corpusParsed[i]
		}
	}
	t.Fatalf("no listing %s beside %s", want, cubinPath)
	return nil
}

// TestCubinMatchesListing checks every committed cubin against the cuobjdump listing made from it:
// the same functions, and at every address of the listing the same 128-bit word in .text.
func TestCubinMatchesListing(t *testing.T) {
	n := 0
	for _, rc := range corpusCubins(t) {
		pf := listingOf(t, rc.path)
		if len(pf.f.Functions) != len(rc.c.Funcs) {
			t.Errorf("%s: %d functions, the listing %d", rc.path, len(rc.c.Funcs), len(pf.f.Functions))
		}
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			fn := pf.f.Function(f.Name)
			if fn == nil {
				t.Errorf("%s: %s is not in the listing", rc.path, f.Name)
				continue
			}
			if err := f.CheckText(fn); err != nil {
				t.Errorf("%s: %v", rc.path, err)
			}
			if len(fn.Instructions) != f.NumInstructions() {
				t.Errorf("%s: %s: %d instructions in the listing, %d in .text", rc.path, f.Name, len(fn.Instructions), f.NumInstructions())
			}
			n += len(fn.Instructions)
		}
	}
	t.Logf("%d instructions compared", n)
}

// ptxasEntry is one entry of a ptxas -v report (device functions that ptxas reports without a
// "Used" line have been inlined and have no code of their own).
type ptxasEntry struct {
	frame, cumulative, regs, barriers, smem int
}

var ptxasRe = regexp.MustCompile(`Function properties for (\S+)\n\s+(\d+) bytes stack frame.*\n.*Used (\d+) registers, used (\d+) barriers(?:, (\d+) bytes cumulative stack size)?(?:, (\d+) bytes smem)?`)

// readPtxas parses a ptxas -v report into its functions and the module's gmem bytes.
func readPtxas(t *testing.T, path string) (map[string]ptxasEntry, int) {
	t.Helper()
	b := readFile(t, path)
	out := map[string]ptxasEntry{}
	atoi := func(s string) int { v, _ := strconv.Atoi(s); return v }
	for _, m := range ptxasRe.FindAllStringSubmatch(string(b), -1) {
		out[m[1]] = ptxasEntry{atoi(m[2]), atoi(m[5]), atoi(m[3]), atoi(m[4]), atoi(m[6])}
	}
	if n := strings.Count(string(b), "Compiling entry function"); n != len(out) {
		t.Fatalf("%s: read %d of %d entries", path, len(out), n)
	}
	gm := regexp.MustCompile(`(\d+) bytes gmem`).FindSubmatch(b)
	if gm == nil {
		t.Fatalf("%s: no gmem line", path)
	}
	return out, atoi(string(gm[1]))
}

// TestCubinMatchesPtxasReport checks the resources read from every committed cubin against the
// ptxas -v report made with it: registers, named barriers, static shared memory (the .nv.shared
// section less the 1 KiB reserved region), stack frame, cumulative stack and global memory
// (.nv.global and .nv.global.init together).
func TestCubinMatchesPtxasReport(t *testing.T) {
	for _, rc := range corpusCubins(t) {
		rep, gmem := readPtxas(t, strings.TrimSuffix(rc.path, ".cubin")+".ptxas")
		if got := rc.c.GlobalSize + uint64(len(rc.c.GlobalInit)); got != uint64(gmem) {
			t.Errorf("%s: .nv.global and .nv.global.init hold %d bytes, ptxas reports %d bytes gmem", rc.path, got, gmem)
		}
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			p, ok := rep[f.Name]
			if !ok {
				t.Errorf("%s: %s not in the ptxas report", rc.path, f.Name)
				continue
			}
			got := ptxasEntry{int(f.FrameSize), int(f.MinStackSize), f.Registers, f.Barriers, int(f.StaticShared())}
			if got != p {
				t.Errorf("%s: %s: cubin %+v, ptxas %+v", rc.path, f.Name, got, p)
			}
		}
	}
}

// ptxParams reads the parameter sizes of every .entry of a PTX file.
func ptxParams(t *testing.T, path string) map[string][]int {
	t.Helper()
	entry := regexp.MustCompile(`\.entry\s+(\S+)\s*\(`)
	param := regexp.MustCompile(`^\s*\.param\s+(?:\.align\s+\d+\s+)?\.([busf])(\d+)\s+(?:\.ptr\s+(?:\.\w+\s+|\d+\s+)*)?(\w+)(?:\[(\d+)\])?,?\s*$`)
	out := map[string][]int{}
	cur := ""
	sc := bufio.NewScanner(bytes.NewReader(readFile(t, path)))
	for sc.Scan() {
		line := sc.Text()
		if m := entry.FindStringSubmatch(line); m != nil {
			cur = m[1]
			out[cur] = []int{}
			continue
		}
		if cur == "" {
			continue
		}
		if m := param.FindStringSubmatch(line); m != nil {
			bitsz, _ := strconv.Atoi(m[2])
			n := 1
			if m[4] != "" {
				n, _ = strconv.Atoi(m[4])
			}
			out[cur] = append(out[cur], bitsz/8*n)
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), ")") {
			cur = ""
		} else if strings.Contains(line, ".param") {
			t.Fatalf("%s: cannot read parameter line %q", path, line)
		}
	}
	return out
}

// TestCubinParamsMatchPTX checks each kernel's parameter layout against the .entry declaration
// it was assembled from: the same count and the same sizes in order.
func TestCubinParamsMatchPTX(t *testing.T) {
	n := 0
	for _, rc := range corpusCubins(t) {
		decl := ptxParams(t, strings.TrimSuffix(rc.path, ".cubin")+".ptx")
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			sizes, ok := decl[f.Name]
			if !ok {
				t.Errorf("%s: no .entry %s in the PTX", rc.path, f.Name)
				continue
			}
			got := make([]int, len(f.Params))
			for k, p := range f.Params {
				got[k] = int(p.Size)
			}
			if fmt.Sprint(got) != fmt.Sprint(sizes) {
				t.Errorf("%s: %s: parameter sizes %v, the PTX declares %v", rc.path, f.Name, got, sizes)
			}
			n += len(sizes)
		}
	}
	t.Logf("%d parameters compared", n)
}

// TestCubinParamBase checks the parameter block of every kernel: it starts at c[0x0][0x210], its
// size agrees with EIATTR_CBANK_PARAM_SIZE and bank 0 is exactly the block's end long.
func TestCubinParamBase(t *testing.T) {
	for _, rc := range corpusCubins(t) {
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			size := -1
			for _, a := range f.Info {
				if a.ID == AttrCBankParamSize {
					size = int(a.Value)
				}
			}
			b0, ok := f.Bank(0)
			if f.ParamBase != ParamBaseSM90 || int(f.ParamSize) != size || !ok || len(b0.Data) != int(f.ParamBase+f.ParamSize) {
				t.Errorf("%s: %s: base 0x%x size %d (CBANK_PARAM_SIZE %d), bank 0 of %d bytes", rc.path, f.Name, f.ParamBase, f.ParamSize, size, len(b0.Data))
			}
		}
	}
}

// TestCubinOffsetsPointAtInstructions checks the instruction-offset attributes against the
// listing: EXIT offsets at EXITs, mbarrier offsets at SYNCS instructions (or NOPs: 20 entries in
// cpipe.cubin point at NOPs where ptxas left no instruction), indirect branches at BRX with
// targets that are instructions, warp-collective offsets at instructions.
func TestCubinOffsetsPointAtInstructions(t *testing.T) {
	counts := map[string]int{}
	for _, rc := range corpusCubins(t) {
		pf := listingOf(t, rc.path)
		for i := range rc.c.Funcs {
			f := &rc.c.Funcs[i]
			fn := pf.f.Function(f.Name)
			at := func(what string, off uint32, ops ...string) {
				k, ok := fn.Index(off)
				if !ok {
					t.Errorf("%s: %s: %s offset 0x%x is not an instruction", rc.path, f.Name, what, off)
					return
				}
				counts[what]++
				if len(ops) > 0 && !contains(ops, fn.Instructions[k].Op) {
					t.Errorf("%s: %s: %s offset 0x%x is %s, want one of %v", rc.path, f.Name, what, off, &fn.Instructions[k], ops)
				}
			}
			exits := 0
			for _, in := range fn.Instructions {
				if in.Op == "EXIT" {
					exits++
				}
			}
			if exits != len(f.ExitOffsets) {
				t.Errorf("%s: %s: %d EXITs, EIATTR_EXIT_INSTR_OFFSETS lists %d", rc.path, f.Name, exits, len(f.ExitOffsets))
			}
			for _, o := range f.ExitOffsets {
				at("exit", o, "EXIT")
			}
			for _, m := range f.MbarrierInstrs {
				at("mbarrier", m.Offset, "SYNCS", "NOP")
			}
			for _, o := range f.CoopGroupOffsets {
				at("coop-group", o)
			}
			if len(f.CoopGroupMaskRegs) != len(f.CoopGroupOffsets) {
				t.Errorf("%s: %s: %d coop-group offsets, %d mask register words", rc.path, f.Name, len(f.CoopGroupOffsets), len(f.CoopGroupMaskRegs))
			}
			for _, o := range f.IntWarpWideOffsets {
				at("int-warp-wide", o)
			}
			for _, o := range f.S2RCTAIDOffsets {
				at("s2r-ctaid", o, "S2R", "S2UR")
			}
			for _, b := range f.IndirectBranches {
				at("brx", b.Offset, "BRX")
				for _, tg := range b.Targets {
					at("brx-target", tg)
				}
			}
		}
	}
	for _, k := range []string{"exit", "mbarrier", "coop-group", "int-warp-wide", "brx", "brx-target"} {
		if counts[k] == 0 {
			t.Errorf("no %s offsets in the corpus", k)
		}
	}
	t.Logf("%v", counts)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestCubinGolden dumps what ReadCubin takes from three committed cubins.
func TestCubinGolden(t *testing.T) {
	for _, name := range []string{"../../calibration/h200/steps.cubin", "../../testdata/cuda/libcu.cubin", "testdata/cubin/attrs.cubin"} {
		c, err := ReadCubin(name, readFile(t, name))
		if err != nil {
			t.Fatal(err)
		}
		base := name[strings.LastIndexByte(name, '/')+1:]
		golden(t, "golden/"+base+".golden", dumpCubin(c))
	}
}

func dumpCubin(c *Cubin) string {
	var b strings.Builder
	fmt.Fprintf(&b, "sm %d api %d elf-flags 0x%x toolkit %q\n", c.SM, c.CUDAAPIVersion, c.ELFFlags, c.Toolkit)
	fmt.Fprintf(&b, "global %d bytes, init %x\n", c.GlobalSize, c.GlobalInit)
	for _, k := range c.Banks {
		fmt.Fprintf(&b, "bank %d: %d bytes %x\n", k.Bank, len(k.Data), k.Data)
	}
	for _, a := range c.Info {
		fmt.Fprintf(&b, "info %s\n", dumpAttr(a))
	}
	for _, f := range c.Funcs {
		fmt.Fprintf(&b, "func %s entry %v: %d instructions, %d registers, %d barriers, %d mbarriers\n",
			f.Name, f.Entry, f.NumInstructions(), f.Registers, f.Barriers, f.Mbarriers)
		fmt.Fprintf(&b, "  params at c[0x0][0x%x], %d bytes\n", f.ParamBase, f.ParamSize)
		for _, p := range f.Params {
			fmt.Fprintf(&b, "  param %+v\n", p)
		}
		fmt.Fprintf(&b, "  frame %d min-stack %d max-stack %d crs-stack %d maxreg %d\n", f.FrameSize, f.MinStackSize, f.MaxStackSize, f.CRSStackSize, f.MaxRegCount)
		fmt.Fprintf(&b, "  shared %d (align %d, reserved %d, static %d) scratch %d reserved-used %v reserved-0 %d\n", f.SharedSize, f.SharedAlign, f.ReservedShared, f.StaticShared(),
			f.SharedScratch, f.ReservedSmemUsed, f.ReservedSmem0Size)
		fmt.Fprintf(&b, "  maxthreads %v reqntid %v cluster %v explicit %v max-rank %d blocks-are-clusters %v\n",
			f.MaxThreads, f.ReqNTID, f.ClusterDims, f.ExplicitCluster, f.MaxClusterRank, f.BlocksAreClusters)
		fmt.Fprintf(&b, "  exits %x s2rctaid %x coop %x mask-regs %x int-warp-wide %x\n", f.ExitOffsets, f.S2RCTAIDOffsets, f.CoopGroupOffsets, f.CoopGroupMaskRegs, f.IntWarpWideOffsets)
		fmt.Fprintf(&b, "  sw-war %d api %d\n", f.SWWar, f.CUDAAPIVersion)
		for _, m := range f.MbarrierInstrs {
			fmt.Fprintf(&b, "  mbarrier 0x%x %v (%v + %v + %d) stride %d pad %d\n", m.Offset, m.Kind, m.Base, m.UBase, m.Imm, m.Stride, m.Pad)
		}
		for _, ib := range f.IndirectBranches {
			fmt.Fprintf(&b, "  brx 0x%x flags %d targets %x\n", ib.Offset, ib.Flags, ib.Targets)
		}
		for _, k := range f.Banks {
			fmt.Fprintf(&b, "  bank %d: %d bytes, %d non-zero\n", k.Bank, len(k.Data), len(k.Data)-bytes.Count(k.Data, []byte{0}))
		}
		for _, a := range f.Info {
			fmt.Fprintf(&b, "  info %s\n", dumpAttr(a))
		}
	}
	for _, s := range c.Symbols {
		fmt.Fprintf(&b, "symbol %q value 0x%x size %d info 0x%x other 0x%x in %q\n", s.Name, s.Value, s.Size, s.Info, s.Other, s.Section)
	}
	for _, r := range c.Relocs {
		fmt.Fprintf(&b, "reloc %s+0x%x type %d %s%+d\n", r.Section, r.Offset, r.Type, r.Symbol, r.Addend)
	}
	return b.String()
}

func dumpAttr(a Attribute) string {
	if a.Format == FormatSVal {
		return fmt.Sprintf("+0x%x %v %v %x", a.Offset, a.ID, a.Format, a.Data)
	}
	return fmt.Sprintf("+0x%x %v %v 0x%x", a.Offset, a.ID, a.Format, a.Value)
}
