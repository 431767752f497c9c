package sm

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// The watchdog looks at the warps once no barrier has made progress for
// watchdog.spin_cycles cycles — not a cycle sooner — and then stops the
// run only if every live warp spins on a phase (a livelock) or some are
// blocked on one another too (a deadlock).
func TestWatchdogDecisions(t *testing.T) {
	t.Run("due after watchdog.spin_cycles without progress", func(t *testing.T) {
		w := watchdog{spin: 1000, lastProg: 100}
		for _, c := range []struct {
			now  sim.Cycle
			want bool
		}{{100, false}, {1099, false}, {1100, true}, {5000, true}} {
			if got := w.due(c.now); got != c.want {
				t.Errorf("at %d: due %v, want %v", c.now, got, c.want)
			}
		}
		w.progress(1500) // a bar.sync releases its waiters later than the cycle it is recorded in
		if w.due(1400) {
			t.Error("due before the latest progress")
		}
		if got := w.idle(2000); got != 500 {
			t.Errorf("idle %d cycles at 2000, want 500", got)
		}
	})
	type warp struct {
		spinning bool
		paths    int
		blocked  bool
	}
	for _, tc := range []struct {
		name  string
		warps []warp
		want  verdict
	}{
		{"no live warp", nil, verdictRun},
		{"every warp spins on a phase", []warp{{spinning: true, blocked: true}, {spinning: true}}, verdictLivelock},
		{"a warp spins, another waits for it in bar.sync", []warp{{spinning: true}, {paths: 1, blocked: true}}, verdictDeadlock},
		{"warps wait in bar.warp.sync for lanes that never come", []warp{{paths: 1, blocked: true}}, verdictDeadlock},
		{"a warp that may still move: no stop", []warp{{spinning: true}, {}}, verdictRun},
		{"a warp released from bar.sync may move", []warp{{spinning: true}, {paths: 0, blocked: false}}, verdictRun},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c census
			for _, w := range tc.warps {
				c.add(w.spinning, w.paths, w.blocked)
			}
			if got := c.verdict(); got != tc.want {
				t.Errorf("verdict %d, want %d", got, tc.want)
			}
		})
	}
}

// regs is p for a kernel of n registers a thread.
func regs(p placement, n int) placement {
	p.regsPerThread = n
	return p
}

// regsCTA is what a CTA of threads threads at n registers a thread holds.
func regsCTA(p placement, threads, n int) residency {
	p.regsPerThread = n
	nw := (threads + 31) / 32
	return residency{ctas: 1, warps: nw, threads: threads, regs: p.ctaRegs(nw)}
}

// A CTA starts only while the resident CTAs and it together stay within
// every residency limit: CTAs, warps, threads, shared memory, registers.
func TestCTAPlacementLimits(t *testing.T) {
	cfg := DefaultConfig()
	h200 := placement{limits: cfg.Limits, smem: cfg.Smem.Capacity}
	cta := func(threads, smem int) residency {
		return residency{ctas: 1, warps: (threads + 31) / 32, threads: threads, smem: smem}
	}
	for _, tc := range []struct {
		name  string
		place placement
		each  residency
		fit   int // how many fit
	}{
		{"limit.ctas: 32 CTAs of one warp", h200, cta(32, 0), 32},
		{"limit.threads: 2 CTAs of 1024 threads", h200, cta(1024, 0), 2},
		{"limit.warps: CTAs of 33 threads take 2 warps each", placement{limits: Limits{Warps: 64, CTAs: 100, Threads: 4096}, smem: 1 << 20}, cta(33, 0), 32},
		{"smem.capacity: 2 CTAs of 100 KiB", h200, cta(128, 100<<10), 2},
		{"smem.capacity: 228 CTAs of 1 KiB would fit, limit.ctas stops at 32", h200, cta(32, 1<<10), 32},
		{"limit.registers: one CTA of 384 threads at 168 registers (gemm_grid.csv)", regs(h200, 168), regsCTA(h200, 384, 168), 1},
		{"limit.registers: 40 registers round up to 1280 a warp, 6 CTAs of 256 threads", regs(h200, 40), regsCTA(h200, 256, 40), 6},
		{"no register count: not bound by registers", h200, cta(1024, 0), 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var used residency
			n := 0
			for tc.place.admits(used, tc.each) {
				used.add(tc.each)
				n++
				if n > 10_000 {
					t.Fatal("no limit stops placement")
				}
			}
			if n != tc.fit {
				t.Errorf("%d CTAs fit, want %d", n, tc.fit)
			}
		})
	}
}
