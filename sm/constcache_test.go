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
		{"the same parameter line", 0, 0x214, 0},
		{"the next parameter line", 0, 0x250, l15},
	}
	for _, s := range steps {
		if got := c.read(s.bank, s.off); got != s.want {
			t.Errorf("%s: c[%d][0x%x] adds %d cycles, want %d", s.name, s.bank, s.off, got, s.want)
		}
	}
	c.reset()
	if got := c.read(3, 0); got != l2 {
		t.Errorf("after a launch's reset: c[3][0] adds %d, want %d (cold)", got, l2)
	}
}
