package run

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/sass"
	"github.com/smsim/smsim/sm"
)

// TestHandWrittenSASSRuns runs testdata/sass/ops.sass, a listing written by
// hand (no cubin, no encodings) around the SASS forms the corpus's runs do
// not reach: ATOMS.CAST.SPIN (the fall-back loop of generic 64-bit
// atomics), QSPC, P2R, BMOV of a convergence barrier, VOTE.EQ. Without
// encodings it has no schedule, so Load refuses it; the test checks only
// what it computes and takes it through sass.LoadFunctional.
func TestHandWrittenSASSRuns(t *testing.T) {
	path := filepath.Join("testdata", "sass", "ops.sass")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sass.LoadFunctional(path, b)
	if err != nil {
		t.Fatal(err)
	}
	src := moduleSource(path, m)
	prog, err := src.Kernel("ops")
	if err != nil {
		t.Fatal(err)
	}
	j := &Job{Source: src, Prog: prog, Config: sm.DefaultConfig(), Block: [3]int{1, 1, 1}, Grid: [3]int{1, 1, 1}, Smem: 16,
		Args: []string{"buf:64"}, Launches: 1, MaxCycles: 1_000_000, Dumps: []DumpSpec{{Name: "0", Type: "u32", Count: 6}}}
	out, err := Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(out.Dumps[0].Values)
	// CAST stores once (1) and then fails (0); memory holds 9; P0 (shared)
	// set, P1 (global) clear; B1 held lane 0; VOTE.EQ of one lane holds.
	if want := "[1 0 9 1 1 1]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSASSWithoutEncodingsNeedsTheCubinBeside: a listing printed without
// its encodings runs with NAME.cubin beside NAME.sass, which gives every
// instruction's control bits; without it Load refuses it with an input
// error at its first instruction that says so, rather than run it with no
// schedule (every stall 0, no load waited for).
func TestSASSWithoutEncodingsNeedsTheCubinBeside(t *testing.T) {
	probe := filepath.Join("..", "calibration", "h200", "wgmma_probe") // committed without encodings
	dir := t.TempDir()
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	alone := filepath.Join(dir, "probe.sass")
	copyFile(probe+".sass.gz", alone+".gz") // gzipped, as the repository keeps it: Load reads it for probe.sass
	for _, c := range []struct{ path, want string }{
		{alone, alone + ":5:36: the listing has no instruction encodings (LDC at 0x0 of tm_s8_s32_n128_ss is its first instruction); " +
			"smsim times SASS by the control bits of the encodings (stall counts, yield, scoreboards): dump the cubin with " +
			"`cuobjdump -sass probe.cubin`, which prints every instruction's encoding, or put the cubin beside the listing as probe.cubin"},
		{filepath.Join("testdata", "sass", "ops.sass"), "ops.sass:6:36: the listing has no instruction encodings (LDC at 0x0 of _Z3opsPj"},
	} {
		_, err := Load(c.path)
		var in *InputError
		if !errors.As(err, &in) || ExitStatus(err) != ExitInput || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v (exit %d), want an input error %q", c.path, err, ExitStatus(err), c.want)
		}
	}
	copyFile(probe+".cubin", filepath.Join(dir, "probe.cubin"))
	for _, path := range []string{alone, filepath.Join(dir, "probe.cubin")} {
		src, err := Load(path)
		if err != nil {
			t.Fatalf("%s with the cubin beside it: %v", path, err)
		}
		prog, err := src.Kernel("tm_s8_s32_n128_ss")
		if err != nil {
			t.Fatal(err)
		}
		stalls := 0
		for _, in := range prog.Instrs {
			stalls += int(in.Ctrl.Stall)
		}
		if !prog.Scheduled || stalls == 0 {
			t.Errorf("%s: scheduled %v, %d stall cycles in all; want the cubin's schedule", path, prog.Scheduled, stalls)
		}
	}
}

// TestSASSDivisionAndRootsAreCorrectlyRounded runs the SASS of
// testdata/cuda's mix_float on 2048 threads of random bit patterns (NaN,
// infinities, subnormals among them) and checks the IEEE results the H200
// computes exactly against the host: x / y (div.rn.f32: MUFU.RCP, FFMA
// refinement, FCHK and the slow subroutine it calls), 1/y (rcp.rn.f32) and
// sqrtf(|x|).
func TestSASSDivisionAndRootsAreCorrectlyRounded(t *testing.T) {
	src, err := Load(filepath.Join("..", "testdata", "cuda", "isa_mix.sass"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := src.Kernel("mix_float")
	if err != nil {
		t.Fatal(err)
	}
	const threads = 2048
	j := &Job{Source: src, Prog: prog, Config: sm.DefaultConfig(), Block: [3]int{64, 1, 1}, Grid: [3]int{threads / 64, 1, 1},
		Args: []string{"buf:16384:random:77", "1", fmt.Sprintf("buf:%d", threads*48*4)}, Launches: 1, MaxCycles: 100_000_000,
		Dumps: []DumpSpec{{Name: "0", Type: "u32", Count: 2 * threads}, {Name: "2", Type: "u32", Count: 48 * threads}}}
	out, err := Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		t.Fatal(err)
	}
	word := func(d int, i int) uint32 { return out.Dumps[d].Values[i].(uint32) }
	same := func(got uint32, want float32) bool {
		if want != want {
			return got == 0x7fffffff // NVIDIA's canonical NaN
		}
		return got == math.Float32bits(want)
	}
	bad := 0
	for g := 0; g < threads; g++ {
		x, y := math.Float32frombits(word(0, 2*g)), math.Float32frombits(word(0, 2*g+1))
		r := func(k int) uint32 { return word(1, 48*g+k) }
		checks := []struct {
			what string
			k    int
			want float32
		}{
			{"x/y", 4, float32(float64(x) / float64(y))},
			{"1/y", 6, float32(1 / float64(y))},
			{"sqrt|x|", 7, float32(math.Sqrt(math.Abs(float64(x))))},
		}
		for _, c := range checks {
			if !same(r(c.k), c.want) && bad < 10 {
				bad++
				t.Errorf("thread %d: %s of x=%#x y=%#x: got %#x, want %#x", g, c.what, math.Float32bits(x), math.Float32bits(y),
					r(c.k), math.Float32bits(c.want))
			}
		}
	}
}

// TestSASSAgreesWithPTXOnRandomInputs runs testdata/cuda's isa_mix kernels
// (integer, float, half, MUFU, vote, local-memory and control-flow mixes,
// whose PTX runs reproduce the H200) on 1024 threads of random inputs from
// both their PTX and their SASS, and requires the same output words: a
// differential check of the SASS semantics well beyond the manifest's 64
// threads. The slots computed from approximations (the approximate table)
// are compared within its tolerance.
func TestSASSAgreesWithPTXOnRandomInputs(t *testing.T) {
	dir := filepath.Join("..", "testdata", "cuda")
	ptx, err := Load(filepath.Join(dir, "isa_mix.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	sass, err := Load(filepath.Join(dir, "isa_mix.sass"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kernel, approx string
		block          int
		in, out        int      // bytes per thread
		mid            []string // scalar arguments between the input and the output
	}{
		{"mix_int64", "", 64, 16, 192, nil},
		{"mix_float", "mix_float_tame_64", 64, 8, 192, []string{"0"}},
		{"mix_float", "mix_float_rawbits_64", 64, 8, 192, []string{"1"}},
		{"mix_half", "", 64, 8, 64, []string{"0"}},
		{"mix_half", "", 64, 8, 64, []string{"1"}},
		{"mix_mufu", "mix_mufu_64", 64, 4, 48, nil},
		{"mix_vote", "", 64, 4, 96, nil},
		{"mix_local", "", 32, 192, 192, []string{"16"}},
		{"mix_control", "", 32, 4, 16, nil},
	} {
		t.Run(c.kernel+fmt.Sprint(c.mid), func(t *testing.T) {
			const threads = 1024
			args := append([]string{fmt.Sprintf("buf:%d:random:%d", threads*c.in, 90+len(c.mid))}, c.mid...)
			args = append(args, fmt.Sprintf("buf:%d", threads*c.out))
			outIdx := fmt.Sprint(len(args) - 1)
			words := threads * c.out / 4
			run := func(src *Source) []any {
				prog, err := src.Kernel(c.kernel)
				if err != nil {
					t.Fatal(err)
				}
				j := &Job{Source: src, Prog: prog, Config: sm.DefaultConfig(), Block: [3]int{c.block, 1, 1},
					Grid: [3]int{threads / c.block, 1, 1}, Args: args, Launches: 1, MaxCycles: 500_000_000,
					Dumps: []DumpSpec{{Name: outIdx, Type: "hex", Count: words}}}
				out, err := Execute(j)
				if err == nil {
					err = out.Err
				}
				if err != nil {
					t.Fatal(err)
				}
				return out.Dumps[0].Values
			}
			want, got := run(ptx), run(sass)
			ap, hasApprox := approximate[c.approx]
			bad := 0
			for i := range want {
				if hasApprox && ap.covers(i) && closeF32(got[i], want[i], ap.tolerance(i)) {
					continue
				}
				if fmt.Sprint(got[i]) != fmt.Sprint(want[i]) {
					if bad < 5 {
						t.Errorf("word %d (thread %d slot %d): SASS %v, PTX %v", i, i*4/c.out, i%(c.out/4), got[i], want[i])
					}
					bad++
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d words differ", bad, len(want))
			}
		})
	}
}

// TestSASSAgreesWithPTXOnOtherSeeds runs every testdata/cuda manifest case
// again with other random inputs (each random:SEED of the arguments moved
// by 1000) from both its PTX and its SASS, and requires the same dumps.
func TestSASSAgreesWithPTXOnOtherSeeds(t *testing.T) {
	dir := filepath.Join("..", "testdata", "cuda")
	sources := map[string]*Source{}
	load := func(f string) *Source {
		if s, ok := sources[f]; ok {
			return s
		}
		s, err := Load(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		sources[f] = s
		return s
	}
	reseed := regexp.MustCompile(`random:(\d+)`)
	for _, c := range loadManifest(t) {
		t.Run(c.Name, func(t *testing.T) {
			args := make([]string, len(c.Args))
			for i, a := range c.Args {
				args[i] = reseed.ReplaceAllStringFunc(a, func(m string) string {
					n, _ := strconv.Atoi(m[len("random:"):])
					return fmt.Sprintf("random:%d", n+1000)
				})
			}
			run := func(file string) [][]any {
				src := load(file)
				prog, err := src.Kernel(c.Kernel)
				if err != nil {
					t.Fatal(err)
				}
				j := &Job{Source: src, Prog: prog, Config: sm.DefaultConfig(), Block: c.Block, Grid: c.Grid, Smem: c.Smem,
					Args: args, Launches: 1, MaxCycles: 500_000_000}
				for _, d := range c.Dumps {
					j.Dumps = append(j.Dumps, DumpSpec{Name: d.Param, Type: d.Type, Count: d.Count})
				}
				out, err := Execute(j)
				if err == nil {
					err = out.Err
				}
				if err != nil {
					t.Fatalf("%s: %v", file, err)
				}
				var vs [][]any
				for _, d := range out.Dumps {
					vs = append(vs, d.Values)
				}
				return vs
			}
			want := run(c.PTX)
			got := run(strings.TrimSuffix(c.PTX, ".ptx") + ".sass")
			ap, hasApprox := approximate[c.Name]
			for k := range want {
				for i := range want[k] {
					if hasApprox && ap.covers(i) && closeF32(got[k][i], want[k][i], ap.tolerance(i)) {
						continue
					}
					if fmt.Sprint(got[k][i]) != fmt.Sprint(want[k][i]) {
						t.Errorf("param %s[%d]: SASS %v, PTX %v", c.Dumps[k].Param, i, got[k][i], want[k][i])
						break
					}
				}
			}
		})
	}
}
