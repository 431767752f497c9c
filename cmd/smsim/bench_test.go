package main

import (
	"testing"

	"github.com/smsim/smsim/sm"
)

// benchRun simulates one kernel per iteration through the whole pipeline
// (arguments, machine, SM, TMA) and reports the simulator's speed: warp
// instructions and simulated cycles per host second.
func benchRun(b *testing.B, path string) {
	src, err := loadSource(path)
	if err != nil {
		b.Fatal(err)
	}
	prog := src.progs[0]
	b.ReportAllocs()
	b.ResetTimer()
	var instrs, cycles uint64
	for i := 0; i < b.N; i++ {
		j := &job{src: src, prog: prog, cfg: sm.DefaultConfig(), block: prog.Block, grid: [3]int{1, 1, 1}, launches: 1}
		out, err := execute(j)
		if err == nil {
			err = out.runErr
		}
		if err != nil {
			b.Fatal(err)
		}
		instrs += out.res.Stats.WarpInstructions
		cycles += out.res.Cycles
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
func BenchmarkTMAPipeline(b *testing.B) { benchRun(b, "../../examples/tma_pipeline.sms") }
