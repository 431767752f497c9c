package run_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/run"
)

// nvccLaunch is one launch of a kernel nvcc compiled: the PTX file (relative
// to the repository root), the entry, the launch shape and the --arg values.
type nvccLaunch struct {
	file     string
	kernel   string
	block    int
	grid     int
	smem     int
	launches int
	args     []string
}

// job builds the job that runs l through the whole pipeline (arguments,
// machine, SM, TMA), as `smsim run` would.
func (l nvccLaunch) job(tb testing.TB, src *run.Source) *run.Job {
	tb.Helper()
	prog, err := src.Kernel(l.kernel)
	if err != nil {
		tb.Fatal(err)
	}
	cfg, err := run.LoadConfig("h200", nil)
	if err != nil {
		tb.Fatal(err)
	}
	return &run.Job{Source: src, Prog: prog, Config: cfg, Block: [3]int{l.block, 1, 1}, Grid: [3]int{max(l.grid, 1), 1, 1},
		Smem: l.smem, Args: l.args, Launches: max(l.launches, 1), MaxCycles: 500_000_000}
}

func (l nvccLaunch) source(tb testing.TB) *run.Source {
	tb.Helper()
	src, err := run.Load(filepath.Join("..", l.file))
	if err != nil {
		tb.Fatal(err)
	}
	return src
}

// runJob executes j and fails tb on any error.
func runJob(tb testing.TB, j *run.Job) *run.Outcome {
	tb.Helper()
	out, err := run.Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// benchLaunch simulates l once per iteration and reports the simulator's
// speed: warp instructions and simulated cycles per host second, summed over
// all of the launch's repetitions (--launches).
func benchLaunch(b *testing.B, l nvccLaunch) {
	src := l.source(b)
	b.ReportAllocs()
	b.ResetTimer()
	var instrs, cycles uint64
	for i := 0; i < b.N; i++ {
		out := runJob(b, l.job(b, src))
		instrs += out.WarpInstrs
		cycles += out.Cycles
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(instrs)/s, "warp-instr/s")
	b.ReportMetric(float64(cycles)/s, "cycles/s")
}

// appCase is the launch of apps/h200/manifest.json's case bench/config,
// exactly as it ran on the H200.
func appCase(tb testing.TB, bench, config string) nvccLaunch {
	tb.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "apps", "h200", "manifest.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var cases []struct {
		Bench, Config, PTX, Kernel string
		Block, Grid                [3]int
		Smem, Launches             int
		Args                       []string
	}
	if err := json.Unmarshal(raw, &cases); err != nil {
		tb.Fatal(err)
	}
	for _, c := range cases {
		if c.Bench == bench && c.Config == config {
			return nvccLaunch{file: filepath.Join("apps", "h200", c.PTX), kernel: c.Kernel, block: c.Block[0],
				grid: c.Grid[0], smem: c.Smem, launches: c.Launches, args: c.Args}
		}
	}
	tb.Fatalf("apps/h200/manifest.json has no case %s %s", bench, config)
	return nvccLaunch{}
}

// The float operands of the FFMA loops below: 0.999 and 0.5 as f32 bits,
// so that the chains stay normal numbers (the calibration suite's k_rate
// arguments, 3 and 1, are subnormal bit patterns).
const (
	f32Bits0999 = "1065336439" // 0x3f7fbe77
	f32BitsHalf = "1056964608" // 0x3f000000
)

// nvccBenchmarks are the nvcc-compiled kernels the Nvcc benchmarks run, by name.
func nvccBenchmarks(tb testing.TB) map[string]nvccLaunch {
	cal := func(file string) string { return filepath.Join("calibration", "h200", file) }
	return map[string]nvccLaunch{
		// 32 warps, each a dependent chain of 32 fma.rn.f32 a loop trip (branch.cu k_loop<1, 32>).
		"FFMAChain": {file: cal("branch.ptx"), kernel: "_Z6k_loopILi1ELi32EEviffiPx", block: 1024,
			args: []string{"256", "1.0001", "0.5", "3", "buf:16"}},
		// 32 warps, eight independent fma.rn.f32 chains a thread (throughput.cu k_rate<FFMA>).
		"FFMARate": {file: cal("throughput.ptx"), kernel: "_Z6k_rateILi3EEvijjPx", block: 1024,
			args: []string{"128", f32Bits0999, f32BitsHalf, "buf:16"}},
		// f16, bf16, f16x2 and bf16x2 arithmetic and conversions in every rounding mode (isa_mix.cu mix_half).
		"HalfMix": {file: filepath.Join("testdata", "cuda", "isa_mix.ptx"), kernel: "mix_half", block: 1024, grid: 4,
			args: []string{"buf:32768:random:35", "0", "buf:262144"}},
		// cvt.rn.f16.f32 then cvt.f32.f16, eight chains, 32 warps (convert.cu k_cvt<f2h_pair, 8>).
		"ConvertF16": {file: cal("convert.ptx"), kernel: "_Z5k_cvtILi4ELi8EEvijPx", block: 1024,
			args: []string{"64", "3", "buf:16"}},
		// cvt.rn.f32.u32 (convert.cu k_cvt<i2f_u32, 8>).
		"ConvertI2F": {file: cal("convert.ptx"), kernel: "_Z5k_cvtILi0ELi8EEvijPx", block: 1024,
			args: []string{"64", "3", "buf:16"}},
		// cvt.rzi.s32.f32 alternating with ex2.approx.ftz.f32 (convert.cu k_cvt<f2i_ex2, 8>).
		"ConvertF2IEx2": {file: cal("convert.ptx"), kernel: "_Z5k_cvtILi7ELi8EEvijPx", block: 1024,
			args: []string{"64", "3", "buf:16"}},
		// 32 warps in a converged mbarrier arrive / try_wait loop (microbench.cu k_arrive_wait<CONV>).
		"ArriveWait": {file: cal("microbench.ptx"), kernel: "_Z13k_arrive_waitILi0EEviPx", block: 1024,
			args: []string{"200", "buf:8"}},
		// The warp-specialised bulk-copy pipeline: 4 consumer warps, 4 stages of 16 KiB, 256 FMAs a tile.
		"PipeBench": {file: cal("pipeline.ptx"), kernel: "pipe_bench", block: 160, smem: 4 * 16384, launches: 2,
			args: []string{"buf:262144", "262144", "16384", "4", "256", "64", "8", "buf:512"}},
		// One thread through 22 dependent chains, one of each class: integer, f32, f64, f16x2,
		// conversions, MUFU, shared and global loads, shared atomics (pipeline.cu lat_chains).
		"LatencyChains": {file: cal("pipeline.ptx"), kernel: "lat_chains", block: 1,
			args: []string{"1024", "610839777", "324508639", "buf:512"}},
		// apps/h200: application kernels, each with its manifest's launch.
		"ReducePlain": appCase(tb, "reduce_sum", "n262144_threads1024"),
		"Softmax":     appCase(tb, "softmax_rows", "rows64_len512_threads256"),
		"GemmTMA":     appCase(tb, "gemm_tma", "k256_stages4"),
		"CpAsyncPipe": appCase(tb, "cpasync_pipe", "tile4096_stages3_threads256"),
		// The tensor cores' warp-specialised GEMM: wgmma m64n128k16 from shared memory, TMA-fed.
		"GemmWgmma": appCase(tb, "gemm_wgmma", "f16_256x256x512_stages4"),
	}
}

// nvccNames are the benchmarks of nvccBenchmarks in the order they run.
var nvccNames = []string{"FFMAChain", "FFMARate", "HalfMix", "ConvertF16", "ConvertI2F", "ConvertF2IEx2",
	"ReducePlain", "Softmax", "ArriveWait", "PipeBench", "GemmTMA", "CpAsyncPipe", "LatencyChains", "GemmWgmma"}

// BenchmarkNvcc runs each kernel of nvccBenchmarks through the whole
// pipeline from its PTX (-bench 'Nvcc/FFMAChain$' picks one).
func BenchmarkNvcc(b *testing.B) {
	ls := nvccBenchmarks(b)
	for _, name := range nvccNames {
		b.Run(name, func(b *testing.B) { benchLaunch(b, ls[name]) })
	}
}

// BenchmarkNvccSASS runs the same kernels from the SASS the H200 ran (the
// cuobjdump listing beside each PTX file, with its cubin), issued by their
// control bits: the SASS frontend, its lowering and the control-bit issue
// have hot spots of their own.
func BenchmarkNvccSASS(b *testing.B) {
	ls := nvccBenchmarks(b)
	for _, name := range nvccNames {
		b.Run(name, func(b *testing.B) { benchLaunch(b, ls[name].fromSASS()) })
	}
}

// fromSASS is the launch l of the kernel's SASS listing instead of its PTX.
func (l nvccLaunch) fromSASS() nvccLaunch {
	l.file = strings.TrimSuffix(l.file, ".ptx") + ".sass"
	return l
}

// TestNvccBenchmarksRun runs every benchmark kernel once, so that a kernel
// the simulator cannot run (or a launch the manifest no longer has) fails
// the tests rather than only the benchmarks.
func TestNvccBenchmarksRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every benchmark kernel once")
	}
	for name, l := range nvccBenchmarks(t) {
		for _, l := range []nvccLaunch{l, l.fromSASS()} {
			t.Run(name+"/"+filepath.Ext(l.file)[1:], func(t *testing.T) {
				out := runJob(t, l.job(t, l.source(t)))
				if out.WarpInstrs == 0 {
					t.Errorf("%s: no warp instructions", l.file)
				}
			})
		}
	}
}
