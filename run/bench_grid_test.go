package run

import (
	"fmt"
	"testing"
)

// BenchmarkGrid simulates launches of many CTAs over the GPU's 132 SMs from
// the SASS the H200 ran (l2bw.cu, as TestL2BandwidthUnderLoadMatchesH200
// runs it): the speed of a whole GPU's simulation, which docs/parallel.md
// plans to spread over host cores. Besides warp instructions and cycles a
// host second it reports SM-cycles a second: each SM's cycles to its last
// busy one, summed (what several cores would share). One launch each, so
// that the last launch's report (Result) is the whole run.
func BenchmarkGrid(b *testing.B) {
	for _, c := range []struct {
		kernel, place string
		grid          int
	}{
		{"stream", "dram", 132},
		{"reduce", "dram", 132},
		{"reduce", "dram", 528},
	} {
		b.Run(fmt.Sprintf("%s_%s_%d", c.kernel, c.place, c.grid), func(b *testing.B) {
			b.ReportAllocs()
			var instrs, cycles, smCycles uint64
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				j := l2bwJob(b, c.kernel, c.place, c.grid)
				b.StartTimer()
				out, err := Execute(j)
				if err == nil {
					err = out.Err
				}
				if err != nil {
					b.Fatal(err)
				}
				instrs += out.WarpInstrs
				cycles += out.Cycles
				for _, sm := range out.Result.SMs {
					smCycles += sm.Cycles
				}
			}
			s := b.Elapsed().Seconds()
			b.ReportMetric(float64(instrs)/s, "warp-instr/s")
			b.ReportMetric(float64(cycles)/s, "cycles/s")
			b.ReportMetric(float64(smCycles)/s, "SM-cycles/s")
		})
	}
}
