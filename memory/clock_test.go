package memory

import (
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// h200Mem is the h200 configuration's memory (sm/keys.go's defaults for the
// keys this test needs): L2 hit and DRAM latencies and their nanoseconds.
func h200Mem() Config {
	c := DefaultConfig()
	c.L1MissCycles, c.L2Cycles, c.DRAMCycles, c.L2FarCycles, c.WriteAckCycles = 32, 257, 285, 180, 188
	c.L2Ns, c.DRAMNs, c.L2FarNs = 71.4, 140, 89
	return c
}

// chaseAt is one SM's mean load latency, on a hierarchy at clockMHz, over
// lines that hit L2 near (hit) or come from DRAM, half of them homed in the
// far partition (dram), as calibration/h200/clockdom.cu's chases take them.
func chaseAt(t *testing.T, clockMHz float64) (hit, dram float64) {
	t.Helper()
	h, err := NewHierarchy(h200Mem().AtClock(clockMHz))
	if err != nil {
		t.Fatal(err)
	}
	const n = 512
	at := sim.Cycle(1000)
	var sumHit, sumDRAM float64
	for i := uint64(0); i < n; i++ {
		a := isa.HeapBase + i*4096 // one line a page: no two share a set or an L1 line
		lat, lvl := h.AccessL2(at, a, 4)
		if lvl != DRAM {
			t.Fatalf("line %d: first read from %v", i, lvl)
		}
		sumDRAM += float64(lat)
		at += 2000
		lat, _ = h.AccessL2(at, a, 4) // now near: the first read left a copy
		sumHit += float64(lat)
		at += 2000
	}
	return sumHit / n, sumDRAM / n
}

// TestLatenciesFollowTheSMClockAsClockdomMeasured: the L2's and DRAM's
// nanoseconds (AtClock) make an L2 hit and a DRAM line as many cycles
// shorter at a lower SM clock as calibration/h200/clockdom.csv measured:
// from 1.978 cycles a ns (its idle rows) to 1.800 and 1.661, an L2 hit
// 12.8 and 22.6 cycles shorter, a DRAM line 52.0 and 85.1.
func TestLatenciesFollowTheSMClockAsClockdomMeasured(t *testing.T) {
	refHit, refDRAM := chaseAt(t, 1977.9)
	for _, c := range []struct {
		mhz               float64
		hitDrop, dramDrop float64 // clockdom.csv: cycles fewer than at 1.978
	}{
		{1799.9, 278.52 - 265.70, 687.43 - 635.42},
		{1662.1, 278.52 - 255.97, 687.43 - 602.38},
	} {
		hit, dram := chaseAt(t, c.mhz)
		if d := refHit - hit; math.Abs(d-c.hitDrop) > 1.5 {
			t.Errorf("%.0f MHz: an L2 hit %.1f cycles shorter, clockdom.csv %.1f", c.mhz, d, c.hitDrop)
		}
		// A DRAM line's nanoseconds vary between launches more than an L2
		// hit's (three runs of the probe: 250, 253 and 273 ns): 15 %.
		if d := refDRAM - dram; math.Abs(d-c.dramDrop) > 0.15*c.dramDrop {
			t.Errorf("%.0f MHz: a DRAM line %.1f cycles shorter, clockdom.csv %.1f", c.mhz, d, c.dramDrop)
		}
	}
}

// TestAtClockKeepsTheReferenceAndScalesBandwidth: at the reference clock
// nothing changes; below it the L2's and DRAM's bandwidths carry more bytes
// a cycle and the SM's own paths keep theirs.
func TestAtClockKeepsTheReferenceAndScalesBandwidth(t *testing.T) {
	c := h200Mem()
	if got := c.AtClock(RefClockMHz); got != c {
		t.Errorf("at %d MHz the config changed: %+v", RefClockMHz, got)
	}
	if got := c.AtClock(0); got != c {
		t.Error("clock 0 (unset) changed the config")
	}
	lo := c.AtClock(1650)
	for _, f := range []struct {
		name      string
		got, want int
	}{
		{"GPUL2BytesPerCycle", lo.GPUL2BytesPerCycle, 7248},     // 6040 × 1980/1650
		{"GPUDRAMBytesPerCycle", lo.GPUDRAMBytesPerCycle, 2705}, // 2254 × 1.2
		{"DRAMChannelBytesPerCycle", lo.DRAMChannelBytesPerCycle, 59},
		{"GPCL2BytesPerCycle (a GPC's delivery)", lo.GPCL2BytesPerCycle, 672},
		{"L2BytesPerCycle (the SM's link)", lo.L2BytesPerCycle, c.L2BytesPerCycle},
		{"DRAMBytesPerCycle (the SM's share)", lo.DRAMBytesPerCycle, c.DRAMBytesPerCycle},
		{"L2Cycles", lo.L2Cycles, 257 - 24}, // 71.4 ns × 0.33 cycles a ns fewer
		{"WriteAckCycles", lo.WriteAckCycles, 188 - 24},
		{"DRAMCycles", lo.DRAMCycles, 285 - 46}, // 140 ns
		{"L2FarCycles", lo.L2FarCycles, 180 - 29},
	} {
		if f.got != f.want {
			t.Errorf("%s at 1650 MHz: %d, want %d", f.name, f.got, f.want)
		}
	}
}

// TestConfigRejectsMoreNanosecondsThanCycles: the nanoseconds on the
// memory's clocks are part of the cycles they belong to.
func TestConfigRejectsMoreNanosecondsThanCycles(t *testing.T) {
	c := h200Mem()
	c.L2Ns = 200 // 396 cycles at 1980 MHz, of mem.l2's 257
	if err := c.Validate(); err == nil {
		t.Error("L2Ns of 396 cycles in an L2Cycles of 257 validated")
	}
}
