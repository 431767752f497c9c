package memory

import (
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

func refreshConfig() Config {
	c := DefaultConfig()
	c.DRAMRefreshNs, c.DRAMRefreshIntervalNs, c.DRAMRefreshSpanBytes = 287, 1950, 1024
	return c
}

// TestRefreshWaitsAsDramtailMeasured holds the waits of reads of many
// spans at many times to what dramtail.csv measured: one read in 0.147
// waits, evenly up to the refresh's 568 cycles at 1980 MHz.
func TestRefreshWaitsAsDramtailMeasured(t *testing.T) {
	r := newRefreshClock(refreshConfig())
	if r.busy != 568 || r.every != 3861 {
		t.Fatalf("refresh %d cycles every %d, want 568 every 3861", r.busy, r.every)
	}
	const n = 200000
	waited, sum, longest := 0, 0.0, sim.Cycle(0)
	for i := range n {
		w := r.wait(sim.Cycle(i*7919%1000003), uint64(i)*4096+uint64(i%8)*128)
		if w > 0 {
			waited++
			sum += float64(w)
			longest = max(longest, w)
		}
	}
	frac, mean := float64(waited)/n, sum/float64(max(waited, 1))
	if math.Abs(frac-568.0/3861) > 0.005 || math.Abs(mean-284.5) > 5 || longest != 568 {
		t.Errorf("%.4f of reads waited, %.1f cycles on average, at most %d; want 0.147, 284.5, 568", frac, mean, longest)
	}
}

// TestRefreshDelaysALoadToTheEndOfItsSpansRefresh: a load that misses L2
// takes what it takes without refresh, plus the rest of its span's refresh
// when the span is refreshing as the request reaches DRAM.
func TestRefreshDelaysALoadToTheEndOfItsSpansRefresh(t *testing.T) {
	a := uint64(isa.HeapBase) + 77<<10
	r := newRefreshClock(refreshConfig())
	seen := map[bool]bool{}
	for now := sim.Cycle(0); now < sim.Cycle(r.every); now += 97 {
		plain := newTestHierarchy(t, onePartition)
		h := newTestHierarchy(t, func(c *Config) { *c = refreshConfig(); onePartition(c) })
		want, _ := plain.AccessL2(now, a, 4)
		w := r.wait(now, a)
		if got, lvl := h.AccessL2(now, a, 4); lvl != DRAM || got != want+w {
			t.Fatalf("load at %d: %d cycles from %v, want %d + refresh %d from DRAM", now, got, lvl, want, w)
		}
		seen[w > 0] = true
		if again, _ := h.AccessL2(now+2000, a, 4); again >= want {
			t.Fatalf("L2 hit at %d: %d cycles, want less than the miss's %d (no refresh)", now+2000, again, want)
		}
	}
	if !seen[true] || !seen[false] {
		t.Errorf("loads over one interval: waited %v, did not wait %v; want both", seen[true], seen[false])
	}
}

// TestRefreshDelaysABulkReadOnlyPastItsOtherBytes: the bytes of a refreshing
// span come when its refresh ends while the other spans' keep coming, so a
// bulk read ends late only by what the wait outlasts the bytes after its.
func TestRefreshDelaysABulkReadOnlyPastItsOtherBytes(t *testing.T) {
	cfg := refreshConfig()
	onePartition(&cfg)
	r := newRefreshClock(cfg)
	const size = 16 << 10
	a := uint64(isa.HeapBase) + 1<<20
	span := uint64(cfg.DRAMRefreshSpanBytes)
	hidden, late := 0, 0
	for now := sim.Cycle(0); now < sim.Cycle(r.every); now += 13 {
		plain := newTestHierarchy(t, func(c *Config) { *c = cfg; c.DRAMRefreshNs = 0 })
		h := newTestHierarchy(t, func(c *Config) { *c = cfg })
		base, _ := plain.Stream(now, a, size)
		got, missed := h.Stream(now, a, size)
		// Without refresh the DRAM bytes come evenly from the request
		// (after the TLB miss) to dramEnd, the fixed latency after DRAM
		// before base; span k's last byte (k+1)/16 of the way, or at the
		// end of its span's refresh.
		at := now + sim.Cycle(cfg.TLBMissCycles)
		after := sim.Cycle(cfg.L2Cycles + cfg.DRAMCycles + cfg.StreamDRAMCycles)
		dramEnd := base - after
		want, waited := base, false
		for k := range uint64(size / span) {
			if w := r.wait(at, a+k*span); w > 0 {
				waited = true
				due := at + sim.Cycle(((k+1)*uint64(dramEnd-at)+size/span-1)/(size/span))
				want = max(want, due+w+after)
			}
		}
		if missed != size || got != want {
			t.Fatalf("read at %d: ends %d, want %d (%d without refresh)", now, got, want, base)
		}
		switch {
		case got > base:
			late++
		case waited:
			hidden++
		}
	}
	if late == 0 || hidden == 0 {
		t.Errorf("over an interval %d reads ended late and %d hid their waits; want some of both", late, hidden)
	}
}

// TestRefreshKeepsItsNanoseconds: the refresh runs on DRAM's clock, so at
// a slower SM clock it takes fewer SM cycles.
func TestRefreshKeepsItsNanoseconds(t *testing.T) {
	for _, tc := range []struct {
		mhz         float64
		busy, every uint64
	}{{1980, 568, 3861}, {1740, 499, 3393}, {1660, 476, 3237}} {
		r := newRefreshClock(refreshConfig().AtClock(tc.mhz))
		if r.busy != tc.busy || r.every != tc.every {
			t.Errorf("at %g MHz: %d cycles every %d, want %d every %d", tc.mhz, r.busy, r.every, tc.busy, tc.every)
		}
	}
}
