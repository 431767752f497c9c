package tma

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// Ramulator-style boundary tests: for each timing parameter, the complete-tx
// is absent at the predicted cycle − 1 and present at the predicted cycle.
// The fake path answers a request of n bytes issued at c at c + 100 + n/32.
func TestLoadCompletesExactlyAtPredictedCycle(t *testing.T) {
	const now = 1000
	tests := []struct {
		name string
		mod  func(*Config)
		size uint32
		want sim.Cycle // after now
	}{
		{"setup + path + completion", nil, 64, 26 + 102 + 20},
		{"no setup, no completion latency", func(c *Config) { c.SetupCycles, c.CompletionLatency = 0, 0 }, 64, 102},
		{"completion latency 50", func(c *Config) { c.CompletionLatency = 50 }, 64, 26 + 102 + 50},
		{"setup 100", func(c *Config) { c.SetupCycles = 100 }, 64, 100 + 102 + 20},
		{"a slow shared-memory port binds", func(c *Config) { c.SmemBytesPerCycle = 1 }, 256, 26 + 256 + 20},
		{"a fast port does not", func(c *Config) { c.SmemBytesPerCycle = 512 }, 4096, 26 + 228 + 20},
		{"issue interval does not delay the first request", func(c *Config) { c.IssueInterval = 500 }, 64, 26 + 102 + 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, tt.mod)
			if err := r.u.Load(now, Load{Src: gbase, Size: tt.size}); err != nil {
				t.Fatal(err)
			}
			r.landsAt(t, now+tt.want)
		})
	}
}

// The second of two requests issued together starts when the front end has
// finished the first: IssueInterval + max(RowCycles, bytes/RequestBytesPerCycle).
func TestSecondRequestWaitsForTheFrontEnd(t *testing.T) {
	const now = 1000
	tests := []struct {
		name     string
		interval int
		rowCyc   int
		reqBW    int
		first    uint32
		startGap sim.Cycle // second start − first start
	}{
		{"default: 73 + max(1, 16/256)", 73, 1, 256, 16, 74},
		{"interval 10", 10, 1, 256, 16, 11},
		{"no row cost: 73 + 16/256 rounds up", 73, 0, 256, 16, 74},
		{"bytes term: 4096 B at 256 B/cycle", 73, 1, 256, 4096, 89},
		{"bytes term at 64 B/cycle", 73, 1, 64, 4096, 137},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, func(c *Config) {
				c.IssueInterval, c.RowCycles, c.RequestBytesPerCycle = tt.interval, tt.rowCyc, tt.reqBW
			})
			_ = r.u.Load(now, Load{Src: gbase, Size: tt.first})
			_ = r.u.Load(now, Load{Dst: 8192, Src: gbase + 8192, Size: 16})
			first := now + sim.Cycle(26+100+(int(tt.first)+31)/32+20)
			second := now + tt.startGap + 26 + 101 + 20
			r.landsAt(t, min(first, second)) // a small second copy may overtake a large first one
			r.landsAt(t, max(first, second))
		})
	}
}

// A tensor load issues one request per row, row i at i·max(RowCycles,
// rowBytes/RequestBytesPerCycle) after setup and descriptor time.
func TestTensorLoadCompletesExactlyAtPredictedCycle(t *testing.T) {
	const now = 1000
	tests := []struct {
		name string
		mod  func(*Config)
		dram bool
		want sim.Cycle
	}{
		// 64x4 fp16: rows of 128 B (100 + 4 cycles each); a row costs
		// max(1, 128/256) = 1 cycle, so row 3 is issued at +3.
		{"default", nil, false, 26 + 10 + 3 + 104 + 20},
		{"no descriptor cost", func(c *Config) { c.DescriptorCycles = 0 }, false, 26 + 3 + 104 + 20},
		{"row cost 10: row 3 at +30", func(c *Config) { c.RowCycles = 10 }, false, 26 + 10 + 30 + 104 + 20},
		{"bytes bound rows: 128 B at 32 B/cycle, row 3 at +12", func(c *Config) { c.RequestBytesPerCycle = 32 }, false, 26 + 10 + 12 + 104 + 20},
		{"row cost 40: generation outlasts the data", func(c *Config) { c.RowCycles, c.CompletionLatency = 40, 0 }, false, 26 + 10 + 120 + 104},
		{"DRAM bytes add TensorDRAMCycles", nil, true, 26 + 10 + 3 + 104 + 450 + 20},
		{"what-if TensorDRAMCycles 0", func(c *Config) { c.TensorDRAMCycles = 0 }, true, 26 + 10 + 3 + 104 + 20},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRig(t, tt.mod)
			if tt.dram {
				r.path.dramFrom = gbase
			}
			m := f16Map2D(256, 64, 64, 4, SwizzleNone)
			if err := r.u.TensorLoad(now, TensorLoad{Map: m, Coords: [5]int32{0, 0}}); err != nil {
				t.Fatal(err)
			}
			r.landsAt(t, now+tt.want)
		})
	}
}

func TestAcceptAtHoldsIssueWhileTheQueueIsFull(t *testing.T) {
	r := newRig(t, func(c *Config) { c.QueueDepth, c.IssueInterval = 2, 73 })
	for i := 0; i < 3; i++ { // starts at 0, 74, 148: two wait in the queue
		if got := r.u.AcceptAt(0); got != 0 {
			t.Fatalf("request %d: AcceptAt = %d, want 0", i, got)
		}
		_ = r.u.Load(0, Load{Src: gbase, Size: 16, Dst: uint32(i) * 16})
	}
	if got := r.u.AcceptAt(0); got != 74 {
		t.Errorf("full queue: AcceptAt(0) = %d, want 74 (when the second request leaves it)", got)
	}
	if got := r.u.AcceptAt(74); got != 74 {
		t.Errorf("AcceptAt(74) = %d, want 74", got)
	}
	_ = r.u.Load(0, Load{Src: gbase, Size: 16})
	if r.u.Stats().QueueFullIssues != 1 {
		t.Errorf("QueueFullIssues = %d, want 1", r.u.Stats().QueueFullIssues)
	}
}

type countSink struct{ n int }

func (s *countSink) CompleteTx(sim.Cycle, int, uint32, uint32, uint64) error { s.n++; return nil }

func benchRig(b *testing.B) (*Unit, *sim.Engine) {
	r := newRig(b, nil)
	u, err := New(DefaultConfig(), r.eng, r.g, r.path, r.smem, &countSink{})
	if err != nil {
		b.Fatal(err)
	}
	return u, r.eng
}

func BenchmarkLoadSubmitComplete(b *testing.B) {
	u, eng := benchRig(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := u.Load(eng.Now(), Load{Src: gbase, Size: 1024, Dst: 0}); err != nil {
			b.Fatal(err)
		}
		if err := eng.Run(sim.Never - 1); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTensorLoadSubmitComplete(b *testing.B) {
	u, eng := benchRig(b)
	m := f16Map2D(256, 256, 64, 64, Swizzle128B)
	b.ReportAllocs()
	for b.Loop() {
		if err := u.TensorLoad(eng.Now(), TensorLoad{Map: m, Coords: [5]int32{32, 32}}); err != nil {
			b.Fatal(err)
		}
		if err := eng.Run(sim.Never - 1); err != nil {
			b.Fatal(err)
		}
	}
}
