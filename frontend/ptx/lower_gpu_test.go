package ptx_test

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// gpuDir holds kernels built and run on an H200 (see testdata/gpu/run.sh):
// their PTX, their results (KERNEL.bin.gz) and the operation each result
// row holds (KERNEL.ops).
const gpuDir = "testdata/gpu"

// gpuThreads is the block size every conformance kernel ran with.
const gpuThreads = 256

// gpuKernel is one conformance kernel: the PTX file and entry that made
// results KERNEL.bin.gz on the GPU.
type gpuKernel struct{ file, entry, name string }

func gpuKernels() []gpuKernel {
	return []gpuKernel{
		{"conf_int.ptx", "_Z5k_intPm", "k_int"},
		{"conf_int64.ptx", "_Z7k_int64Pm", "k_int64"},
		{"conf_f32.ptx", "_Z5k_f32Pm", "k_f32"},
		{"conf_f32.ptx", "_Z6k_f32lPm", "k_f32l"},
		{"conf_f64.ptx", "_Z5k_f64Pm", "k_f64"},
		{"conf_f16.ptx", "_Z5k_f16Pm", "k_f16"},
		{"conf_f16.ptx", "_Z6k_bf16Pm", "k_bf16"},
		{"conf_misc.ptx", "_Z6k_miscPm", "k_misc"},
		{"conf_ctl.ptx", "_Z5k_ctlPm", "k_ctl"},
		{"conf_probe.ptx", "_Z9k_probe32Pm", "k_probe32"},
		{"conf_probe.ptx", "_Z9k_probe64Pm", "k_probe64"},
		{"lib_barrier.ptx", "_Z9k_barrierPm", "k_barrier"},
		{"lib_barrier.ptx", "_Z8k_memcpyPm", "k_memcpy"},
		{"lib_ptx.ptx", "_Z5k_ptxPm", "k_ptx"},
		{"lib_cg.ptx", "_Z4k_cgPm", "k_cg"},
	}
}

// approximate reports whether the hardware result of an operation is an
// approximation the simulator does not reproduce bit for bit (the MUFU
// unit's reciprocal, square root and transcendentals, and the division
// sequences built on them).
func approximate(op string) bool {
	return strings.Contains(op, "approx") || strings.Contains(op, "div.full") || strings.HasPrefix(op, "~")
}

// deviation explains results the simulator is known not to reproduce, or
// that do not depend on the PTX alone ("" for the rest). They are logged,
// not failed, so that fixing one shows up as a change in the log.
func deviation(kernel, op string) string {
	switch {
	case kernel == "k_ctl" && op == "bar.arrive/sync named":
		return "the kernel reads words another warp group writes after a barrier the reader does not wait on (a race)"
	case kernel == "k_ptx" && op == "test_wait":
		return "whether the other warps have arrived when warp 0 tests the phase depends on timing"
	case kernel == "k_f32" && op == "set.lt.f32.f32 %0, %1, %2;":
		return "ptxas 13.0 compiled this set.f32 to an integer select (1, not 1.0f); k_probe32's set.le.f32.f32 gives 1.0f as PTX specifies"
	case strings.Contains(op, "atom.global.add.f32") || strings.Contains(op, "red.global.add.f32"):
		return "sm: global atom/red.add.f32 must flush subnormal inputs and results and return the canonical NaN 0x7fffffff"
	case strings.Contains(op, "atom.shared.add.f32"):
		return "sm: atom.shared.add.f32 must return the canonical NaN 0x7fffffff"
	case strings.Contains(op, "atom.global.add.f64"):
		return "sm: atom.add.f64 leaves a NaN operand as it is (not quieted), the first one first"
	}
	return ""
}

// TestGPUConformance runs every conformance kernel on the simulated SM and
// compares its results with the H200's, bit for bit (approximate
// transcendentals are only logged).
func TestGPUConformance(t *testing.T) {
	progs := map[string][]*isa.Program{}
	for _, k := range gpuKernels() {
		t.Run(k.name, func(t *testing.T) {
			ps, ok := progs[k.file]
			if !ok {
				src, err := os.ReadFile(filepath.Join(gpuDir, k.file))
				if err != nil {
					t.Fatal(err)
				}
				if ps, err = ptx.Compile(k.file, src); err != nil {
					t.Fatal(err)
				}
				progs[k.file] = ps
			}
			want, ops := readExpected(t, k.name)
			got := runConformance(t, findProg(t, ps, k.entry), len(ops))
			for i, op := range ops {
				if why := deviation(k.name, op); why != "" {
					if n := differing(want[i], got[i]); n > 0 {
						t.Logf("op %d %q: %d lanes differ, known: %s", i, op, n, why)
					}
					copy(got[i], want[i])
				}
			}
			compareResults(t, ops, want, got)
		})
	}
}

func findProg(t *testing.T, ps []*isa.Program, name string) *isa.Program {
	t.Helper()
	for _, p := range ps {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no kernel %s", name)
	return nil
}

// readExpected loads a kernel's GPU results as [op][thread] and its op texts.
func readExpected(t *testing.T, name string) ([][]uint64, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(gpuDir, name+".bin.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(gpuDir, name+".ops"))
	if err != nil {
		t.Fatal(err)
	}
	ops := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	if len(raw) != len(ops)*gpuThreads*8 {
		t.Fatalf("%s: %d bytes of results for %d ops", name, len(raw), len(ops))
	}
	return words(raw, len(ops)), ops
}

func words(raw []byte, nops int) [][]uint64 {
	out := make([][]uint64, nops)
	for i := range out {
		out[i] = make([]uint64, gpuThreads)
		for j := range out[i] {
			out[i][j] = binary.LittleEndian.Uint64(raw[(i*gpuThreads+j)*8:])
		}
	}
	return out
}

// runConformance runs prog with one block and an out buffer of nops rows,
// the buffer filled with 0xee bytes as the host filled it.
func runConformance(t *testing.T, prog *isa.Program, nops int) [][]uint64 {
	t.Helper()
	raw, err := runKernel(prog, gpuThreads, nops*gpuThreads*8, 0xee)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return words(raw, nops)
}

// runKernel runs prog with one block of threads on a fresh SM whose global
// memory holds the module data and one out buffer of size bytes filled
// with fill, passed as the first parameter. It returns the buffer.
func runKernel(prog *isa.Program, threads, size int, fill byte) ([]byte, error) {
	gm := memory.NewGlobal()
	for _, d := range prog.Data {
		if err := gm.MapData(d.Addr, d.Bytes, fmt.Sprintf("data at %#x", d.Addr)); err != nil {
			return nil, err
		}
	}
	out, err := gm.Alloc(uint64(size), 0, "out")
	if err != nil {
		return nil, err
	}
	if err := gm.Write(out, bytes.Repeat([]byte{fill}, size)); err != nil {
		return nil, err
	}
	cfg := sm.DefaultConfig()
	h, err := memory.NewHierarchy(cfg.Mem)
	if err != nil {
		return nil, err
	}
	s, err := sm.New(cfg, sim.New(), gm, h)
	if err != nil {
		return nil, err
	}
	if err := s.AttachTMA(gm, h); err != nil {
		return nil, err
	}
	params := make([]byte, prog.ParamBytes)
	binary.LittleEndian.PutUint64(params, out)
	if _, err := s.Run(&sm.Launch{Prog: prog, Block: [3]int{threads, 1, 1}, Grid: [3]int{1, 1, 1},
		Params: params, MaxCycles: 20_000_000}); err != nil {
		return nil, err
	}
	raw := make([]byte, size)
	return raw, gm.Read(out, raw)
}

// differing counts the lanes where a and b differ.
func differing(a, b []uint64) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// compareResults reports every op whose results differ from the GPU's.
func compareResults(t *testing.T, ops []string, want, got [][]uint64) {
	t.Helper()
	for i, op := range ops {
		var bad []int
		for l := range want[i] {
			if want[i][l] != got[i][l] {
				bad = append(bad, l)
			}
		}
		if len(bad) == 0 {
			continue
		}
		if approximate(op) {
			t.Logf("op %d %q (approximate): %d of %d lanes differ, e.g. lane %d got %#x want %#x", i, op, len(bad),
				gpuThreads, bad[0], got[i][bad[0]], want[i][bad[0]])
			continue
		}
		var b strings.Builder
		for _, l := range bad[:min(len(bad), 4)] {
			fmt.Fprintf(&b, "\n    lane %d (inputs %#x %#x %#x): got %#x want %#x", l, want[0][l], want[1][l], want[2][l], got[i][l], want[i][l])
		}
		t.Errorf("op %d %q: %d of %d lanes differ%s", i, op, len(bad), gpuThreads, b.String())
	}
}
