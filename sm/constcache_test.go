package sm

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// The constant caches as constcache.csv's chase saw them: a 64-byte line
// read before is free, a new 64-byte line of a 256-byte line read before
// costs const.l1_5, a new 256-byte line const.l2; bank 0 (the launch's
// parameters) is in the constant cache from the start; a launch starts cold.
func TestConstCacheLevels(t *testing.T) {
	cfg := DefaultConfig()
	c := newConstCache(&cfg)
	l15, l2 := sim.Cycle(cfg.Const.L15Cycles), sim.Cycle(cfg.Const.L2Cycles)
	steps := []struct {
		name string
		bank uint8
		off  uint64
		want sim.Cycle
	}{
		{"first read of a __constant__ line: from L2", 3, 0, l2},
		{"the same 64-byte line", 3, 60, 0},
		{"the next 64 bytes of the 256-byte line", 3, 64, l15},
		{"a new 256-byte line", 3, 256, l2},
		{"another bank's same offset is another line", 4, 0, l2},
		{"a parameter line: in the constant cache from the launch", 0, 0x210, l15},
		{"a line of ptxas's constants (bank 2): there from the launch too", 2, 0x80, l15},
		{"the same parameter line", 0, 0x214, 0},
		{"the next parameter line", 0, 0x250, l15},
	}
	for i, s := range steps {
		if got := c.read(sim.Cycle(1000*i), s.bank, s.off, false); got != s.want {
			t.Errorf("%s: c[%d][0x%x] adds %d cycles, want %d", s.name, s.bank, s.off, got, s.want)
		}
	}
	c.reset()
	if got := c.read(1<<20, 3, 0, false); got != l2 {
		t.Errorf("after a launch's reset: c[3][0] adds %d, want %d (cold)", got, l2)
	}
}

// A read of a line whose fill is under way waits for that fill, not for a
// fill of its own (testdata/cuda/wgmma/bar_defer2.cu: four warps reading a
// new constant line at once all go on together).
func TestConstCacheReadsWaitForAFillUnderWay(t *testing.T) {
	cfg := DefaultConfig()
	c := newConstCache(&cfg)
	l15, l2 := sim.Cycle(cfg.Const.L15Cycles), sim.Cycle(cfg.Const.L2Cycles)
	steps := []struct {
		name string
		now  sim.Cycle
		bank uint8
		off  uint64
		want sim.Cycle
	}{
		{"first warp misses to L2", 100, 3, 0, l2},
		{"second warp, 3 cycles later, waits for the same fill", 103, 3, 4, l2 - 3},
		{"a warp after the fill hits", 100 + l2, 3, 8, 0},
		{"the next 64 bytes while the 256-byte line is still coming", 150, 3, 64, l2 - 50},
		{"a parameter line missed", 1000, 0, 0x210, l15},
		{"the same line 10 cycles later", 1010, 0, 0x218, l15 - 10},
	}
	for _, s := range steps {
		if got := c.read(s.now, s.bank, s.off, false); got != s.want {
			t.Errorf("%s: c[%d][0x%x] at %d adds %d cycles, want %d", s.name, s.bank, s.off, s.now, got, s.want)
		}
	}
}

// The uniform datapath's reads have an immediate cache of their own and
// share the one behind it (bar_defer.cu: a ULDC of a parameter line an LDC
// read before pays const.l1_5).
func TestUniformReadsHaveTheirOwnImmediateCache(t *testing.T) {
	cfg := DefaultConfig()
	c := newConstCache(&cfg)
	l15, l2 := sim.Cycle(cfg.Const.L15Cycles), sim.Cycle(cfg.Const.L2Cycles)
	steps := []struct {
		name    string
		bank    uint8
		off     uint64
		uniform bool
		want    sim.Cycle
	}{
		{"LDC of a parameter line", 0, 0x210, false, l15},
		{"ULDC of the same line: its own cache misses", 0, 0x218, true, l15},
		{"ULDC again: a hit", 0, 0x21c, true, 0},
		{"LDC again: a hit", 0, 0x214, false, 0},
		{"ULDC of a __constant__ line", 3, 0, true, l2},
		{"LDC of the same line: the shared constant cache has it", 3, 4, false, l15},
	}
	for i, s := range steps {
		if got := c.read(sim.Cycle(1000*(i+1)), s.bank, s.off, s.uniform); got != s.want {
			t.Errorf("%s: adds %d cycles, want %d", s.name, got, s.want)
		}
	}
}

// The uniform immediate cache holds const.uniform_lines 64-byte lines and
// replaces the least recently used one (uldc_chain.csv: a uniform chase
// through four lines hits every read): reading lines 0-3 fills it, 0-3 again
// hit, touching 0 then reading a fifth line evicts line 1 (the least
// recent), not 0; a launch empties it.
func TestUniformCacheHoldsFourLinesLeastRecentlyUsedOut(t *testing.T) {
	cfg := DefaultConfig()
	if cfg.Const.UniformLines != 4 {
		t.Fatalf("const.uniform_lines %d: the steps below assume 4", cfg.Const.UniformLines)
	}
	c := newConstCache(&cfg)
	l15 := sim.Cycle(cfg.Const.L15Cycles) // bank 0: a parameter line pays const.l1_5
	line := func(k uint64) uint64 { return 0x210 + 64*k }
	steps := []struct {
		name string
		line uint64
		want sim.Cycle
	}{
		{"line 0, cold", 0, l15}, {"line 1, cold", 1, l15}, {"line 2, cold", 2, l15}, {"line 3, cold", 3, l15},
		{"line 0 again", 0, 0}, {"line 3 again", 3, 0},
		{"line 4 evicts line 1, the least recent", 4, l15},
		{"line 0 stays", 0, 0}, {"line 2 stays", 2, 0}, {"line 1 is gone", 1, l15},
	}
	now := sim.Cycle(1000)
	for _, s := range steps {
		now += 1000
		if got := c.read(now, 0, line(s.line), true); got != s.want {
			t.Errorf("%s: adds %d cycles, want %d", s.name, got, s.want)
		}
	}
	c.reset()
	if got := c.read(now+1000, 0, line(0), true); got != l15 {
		t.Errorf("after a launch's reset, line 0 adds %d cycles, want %d", got, l15)
	}
}

// A uniform read of a __constant__ line the uniform cache lacks, but the
// constant cache behind holds, costs const.uniform_l1_5
// (uldc_policy.csv); of a parameter line, const.l1_5 (bar_defer.cu).
func TestUniformMissCostByBank(t *testing.T) {
	cfg := DefaultConfig()
	c := newConstCache(&cfg)
	ul15, l15 := sim.Cycle(cfg.Const.UniformL15Cycles), sim.Cycle(cfg.Const.L15Cycles)
	c.read(1000, 3, 0, false) // an LDC brings the 256-byte line into the constant cache
	if got := c.read(2000, 3, 64, true); got != ul15 {
		t.Errorf("ULDC of a __constant__ line the constant cache holds: %d cycles, want %d", got, ul15)
	}
	if got := c.read(3000, 0, 0x300, true); got != l15 {
		t.Errorf("ULDC of a parameter line: %d cycles, want %d", got, l15)
	}
}
