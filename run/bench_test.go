package run_test

import (
	"os"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// benchRun simulates one kernel per iteration through the whole pipeline
// (arguments, machine, SM, TMA) and reports the simulator's speed: warp
// instructions and simulated cycles per host second.
func benchRun(b *testing.B, path string, sets ...string) {
	benchRunObserved(b, path, false, sets...)
}

// benchRunObserved is benchRun, with the instruction profile attached
// (--profile, --report instructions) when profiled.
func benchRunObserved(b *testing.B, path string, profiled bool, sets ...string) {
	src, err := run.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	prog, err := src.Kernel("")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var instrs, cycles uint64
	for i := 0; i < b.N; i++ {
		cfg, err := run.LoadConfig("h200", sets)
		if err != nil {
			b.Fatal(err)
		}
		j := &run.Job{Source: src, Prog: prog, Config: cfg, Block: prog.Block, Grid: [3]int{1, 1, 1}, Launches: 1}
		if profiled {
			j.Observer = report.NewProfile(prog)
		}
		out, err := run.Execute(j)
		if err == nil {
			err = out.Err
		}
		if err != nil {
			b.Fatal(err)
		}
		instrs += out.Result.Stats.WarpInstructions
		cycles += out.Result.Cycles
	}
	s := b.Elapsed().Seconds()
	b.ReportMetric(float64(instrs)/s, "warp-instr/s")
	b.ReportMetric(float64(cycles)/s, "cycles/s")
}

// BenchmarkComputeBound: 32 warps in a dependent multiply-add loop.
func BenchmarkComputeBound(b *testing.B) { benchRun(b, "testdata/bench_fma.sms") }

// BenchmarkBarrierBound: 32 warps in the calibration suite's arrive/wait loop.
func BenchmarkBarrierBound(b *testing.B) { benchRun(b, "testdata/bench_barrier.sms") }

// BenchmarkTMAPipeline: a 4-stage warp-specialised TMA pipeline.
func BenchmarkTMAPipeline(b *testing.B) { benchRun(b, "../examples/tma_pipeline.sms") }

// BenchmarkBarrierBoundProfiled: BenchmarkBarrierBound with the instruction
// profile attached (an observer call per issue and per stall span).
func BenchmarkBarrierBoundProfiled(b *testing.B) {
	benchRunObserved(b, "testdata/bench_barrier.sms", true)
}

// Idle cycles cost nothing: a kernel that waits ten million cycles on one
// nanosleep takes a handful of scheduler ticks, and one that waits millions
// of cycles on one copy ticks only when its try_wait loop (hint: 7838
// cycles per try) comes round. (A deterministic stand-in for "finishes in
// under 10 ms", which the benchmarks below measure: tick counts, not
// timings, so the test cannot flake.)
func TestIdleCyclesCostNothing(t *testing.T) {
	for _, tc := range []struct {
		file      string
		sets      []string
		minCycles uint64
	}{
		{"testdata/bench_sleep.sms", nil, 10_000_000},
		{"testdata/bench_copywait.sms", []string{"mem.l2_bytes_per_cycle=1", "mem.l2=5000000"}, 5_000_000},
	} {
		r, err := simulate(t, mustRead(t, tc.file), setFlags(tc.sets)...)
		if err != nil {
			t.Fatal(err)
		}
		if r.Cycles < tc.minCycles {
			t.Fatalf("%s: %d cycles, want at least %d", tc.file, r.Cycles, tc.minCycles)
		}
		if r.Sim.Ticks > r.Cycles/1000 {
			t.Errorf("%s: %d scheduler ticks for %d cycles, want at most one per thousand cycles", tc.file, r.Sim.Ticks, r.Cycles)
		}
	}
}

// BenchmarkIdleTenMillionCycles: host time of a ten-million-cycle nanosleep.
func BenchmarkIdleTenMillionCycles(b *testing.B) { benchRun(b, "testdata/bench_sleep.sms") }

// BenchmarkIdleCopyWait: host time of a warp waiting ten million cycles on one copy.
func BenchmarkIdleCopyWait(b *testing.B) {
	benchRun(b, "testdata/bench_copywait.sms", "mem.l2_bytes_per_cycle=1", "mem.l2=10000000")
}

func setFlags(sets []string) []string {
	var f []string
	for _, s := range sets {
		f = append(f, "--set", s)
	}
	return f
}

func mustRead(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestHotLoopAllocatesNothingPerInstruction runs the compute-bound kernel
// with 200 and with 2000 loop trips (64 000 and 448 000 warp instructions):
// the whole run allocates the same, so nothing in the steady state does.
func TestHotLoopAllocatesNothingPerInstruction(t *testing.T) {
	body, err := os.ReadFile("testdata/bench_fma.sms")
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(trips string) float64 {
		path := writeFile(t, "fma"+trips+".sms", strings.Replace(string(body), "0..2000", "0.."+trips, 1))
		src, err := run.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, err := src.Kernel("")
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := run.LoadConfig("h200", nil)
		if err != nil {
			t.Fatal(err)
		}
		return testing.AllocsPerRun(3, func() {
			out, err := run.Execute(&run.Job{Source: src, Prog: prog, Config: cfg, Block: prog.Block, Grid: [3]int{1, 1, 1}, Launches: 1})
			if err == nil {
				err = out.Err
			}
			if err != nil {
				t.Fatal(err)
			}
		})
	}
	short, long := allocs("200"), allocs("2000")
	if long > short {
		t.Errorf("%v allocations with 200 trips, %v with 2000: the loop allocates", short, long)
	}
}
