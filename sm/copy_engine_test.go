package sm

import (
	"fmt"
	"testing"

	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
)

// fixedPath is a memory path whose bulk reads take a fixed latency.
type fixedPath struct{ lat sim.Cycle }

func (p fixedPath) Stream(now sim.Cycle, _ uint64, _ int) (sim.Cycle, int) { return now + p.lat, 0 }
func (p fixedPath) StreamWrite(now sim.Cycle, _ uint64, _ int) sim.Cycle   { return now + p.lat }
func (p fixedPath) StreamReduce(now sim.Cycle, _ uint64, _ int) (sim.Cycle, int) {
	return now + p.lat, 0
}
func (p fixedPath) HitLatency() sim.Cycle { return p.lat }

// landings records when the copies' bytes land (SharedMem) and complete on
// their barriers (TxSink).
type landings struct{ done map[uint64]sim.Cycle }

func (l *landings) ReadShared(int, uint32, []byte) error  { return nil }
func (l *landings) WriteShared(int, uint32, []byte) error { return nil }
func (l *landings) CompleteTx(now sim.Cycle, _ int, _ uint32, _ uint32, id uint64) error {
	l.done[id] = now
	return nil
}

// The copy engine through the SM's CopyEngine interface: a bulk load
// completes tma.setup + the memory path + tma.completion after its issue
// (its 16 bytes cross the shared-memory port at once); back to back, loads
// start tma.issue_interval plus their bytes at tma.request_bytes_per_cycle
// apart, unless the port into shared memory (tma.smem_bytes_per_cycle) is
// slower; and the engine takes tma.queue_depth requests before it holds
// the issuing warp.
func TestCopyEngineLatencyAndBandwidth(t *testing.T) {
	const mem = 100 // the path's latency
	for _, tc := range []struct {
		name   string
		mod    func(*tma.Config)
		size   uint32
		n      int
		first  sim.Cycle // the first load's completion
		period float64   // cycles between completions, back to back
	}{
		{"one 16-byte load", nil, 16, 1, 36 + mem + 20, 0},
		{"4 KiB loads: the front end, 44 + 4096/261 cycles a copy", nil, 4096, 8, 36 + mem + 20, 44 + 4096.0/261},
		{"4 KiB loads through a 32 B/cycle port: the port, 128 cycles a copy",
			func(c *tma.Config) { c.SmemBytesPerCycle = 32 }, 4096, 8, 36 + 128 + 20, 128},
		{"tma.setup 10, tma.completion 0", func(c *tma.Config) { c.SetupCycles, c.CompletionLatency = 10, 0 }, 16, 1, 10 + mem, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := DefaultConfig().TMA
			if tc.mod != nil {
				tc.mod(&cfg)
			}
			eng := sim.New()
			l := &landings{done: map[uint64]sim.Cycle{}}
			u, err := tma.New(cfg, eng, &fakeMem{b: map[uint64]byte{}}, fixedPath{mem}, l, l)
			if err != nil {
				t.Fatal(err)
			}
			var e CopyEngine = copyEngine{u}
			for i := range tc.n {
				r := CopyRequest{Kind: CopyBulkLoad, Shared: uint32(i) * 4096, Global: 1 << 20, Size: tc.size, Mbar: 1 << 17, ID: uint64(i + 1)}
				if err := e.Issue(0, r); err != nil {
					t.Fatal(err)
				}
			}
			if e.InFlight() != tc.n {
				t.Errorf("%d copies in flight, want %d", e.InFlight(), tc.n)
			}
			if err := eng.Run(sim.Never - 1); err != nil {
				t.Fatal(err)
			}
			if got := l.done[1]; got != tc.first {
				t.Errorf("the first load completed at %d, want %d", got, tc.first)
			}
			if tc.n > 1 {
				got := float64(l.done[uint64(tc.n)]-l.done[1]) / float64(tc.n-1)
				if got < tc.period-0.5 || got > tc.period+0.5 {
					t.Errorf("loads completed %.2f cycles apart, want %.2f", got, tc.period)
				}
			}
		})
	}
	// The front end works on one request and tma.queue_depth more wait; the
	// next is held until the oldest waiting one starts.
	t.Run(fmt.Sprintf("the queue holds tma.queue_depth (%d) requests", DefaultConfig().TMA.QueueDepth), func(t *testing.T) {
		eng := sim.New()
		l := &landings{done: map[uint64]sim.Cycle{}}
		u, err := tma.New(DefaultConfig().TMA, eng, &fakeMem{b: map[uint64]byte{}}, fixedPath{mem}, l, l)
		if err != nil {
			t.Fatal(err)
		}
		var e CopyEngine = copyEngine{u}
		depth := DefaultConfig().TMA.QueueDepth
		for i := range depth + 2 {
			want := sim.Cycle(0)
			if i == depth+1 {
				want = 45 // the second request starts tma.issue_interval + 16/261 cycles after the first
			}
			if at := e.AcceptAt(0); at != want {
				t.Errorf("request %d: accepted at %d, want %d", i, at, want)
			}
			if err := e.Issue(0, CopyRequest{Kind: CopyBulkLoad, Global: 1 << 20, Size: 16, Mbar: 1 << 17, ID: uint64(i + 1)}); err != nil {
				t.Fatal(err)
			}
		}
		if s := e.Stats(); s.QueueFullIssues != 1 {
			t.Errorf("%d requests issued into a full queue, want 1", s.QueueFullIssues)
		}
	})
}
