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
// rowBytes/RequestBytesPerCycle) after setup and descriptor time (the
// launch's first copy also fetches its tensor map: 46 + 80 cycles).
func TestTensorLoadCompletesExactlyAtPredictedCycle(t *testing.T) {
	const now = 1000
	const fetch = 46 + 80
	tests := []struct {
		name string
		mod  func(*Config)
		dram bool
		want sim.Cycle
	}{
		// 64x4 fp16: rows of 128 B (100 + 4 cycles each); a row costs
		// max(1, 128/256) = 1 cycle, so row 3 is issued at +3.
		{"default", nil, false, fetch + 26 + 10 + 3 + 104 + 20},
		{"no descriptor cost", func(c *Config) { c.DescriptorCycles, c.DescriptorMissCycles, c.DescriptorFirstCycles = 0, 0, 0 }, false, 26 + 3 + 104 + 20},
		{"row cost 10: row 3 at +30", func(c *Config) { c.RowCycles = 10 }, false, fetch + 26 + 10 + 30 + 104 + 20},
		{"bytes bound rows: 128 B at 32 B/cycle, row 3 at +12", func(c *Config) { c.RequestBytesPerCycle = 32 }, false, fetch + 26 + 10 + 12 + 104 + 20},
		{"row cost 40: generation outlasts the data", func(c *Config) { c.RowCycles, c.CompletionLatency = 40, 0 }, false, fetch + 26 + 10 + 120 + 104},
		{"DRAM bytes add TensorDRAMCycles", nil, true, fetch + 26 + 10 + 3 + 104 + 450 + 20},
		{"what-if TensorDRAMCycles 0", func(c *Config) { c.TensorDRAMCycles = 0 }, true, fetch + 26 + 10 + 3 + 104 + 20},
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

// The unit fetches a tensor map the first time a launch copies through it
// (by the map's address): DescriptorMissCycles, plus DescriptorFirstCycles
// for the launch's first fetch of a program that does not read its
// parameters itself (PTX).
// tmadesc.csv: 423 cycles for the next copy through the same map, 469 for
// the first through a second map. NewLaunch forgets the maps.
func TestDescriptorCacheChargesEachMapsFirstCopy(t *testing.T) {
	const base = 26 + 10 + 3 + 104 + 20 // default, no fetch (see above)
	r := newRig(t, nil)
	m := f16Map2D(256, 64, 64, 4, SwizzleNone)
	copyAt := func(now sim.Cycle, desc uint64) {
		t.Helper()
		if err := r.u.TensorLoad(now, TensorLoad{Map: m, Desc: desc, Coords: [5]int32{0, 0}}); err != nil {
			t.Fatal(err)
		}
	}
	copyAt(1000, 0x40)
	r.landsAt(t, 1000+46+80+base)
	copyAt(5000, 0x40)
	r.landsAt(t, 5000+base)
	copyAt(9000, 0xc0)
	r.landsAt(t, 9000+46+base)
	r.u.NewLaunch(Launch{})
	copyAt(13000, 0xc0)
	r.landsAt(t, 13000+46+80+base)
	// A program that reads the parameter line itself (SASS ULDCs, timed
	// by the SM's constant caches) pays its first fetch's miss alone.
	r.u.NewLaunch(Launch{ParamsRead: true})
	copyAt(17000, 0xc0)
	r.landsAt(t, 17000+46+base)
	if got := r.u.Stats().DescriptorMisses; got != 4 {
		t.Errorf("DescriptorMisses %d, want 4", got)
	}
	// A launch's completion pad (the SM's ptxas.copy_completion_pad for
	// PTX programs) delays every copy's completion by that much.
	r.u.NewLaunch(Launch{ParamsRead: true, CompletionPad: 12})
	copyAt(21000, 0xc0)
	r.landsAt(t, 21000+46+base+12)
	copyAt(25000, 0xc0)
	r.landsAt(t, 25000+base+12)
}

// Rows outside the tensor read nothing, but their zeros come back no sooner
// than an L2 hit's bytes: on the H200 a box wholly out of bounds takes as
// long as one in L2 (tmadesc.csv: 423 cycles either way).
func TestOutOfBoundsRowsTakeAnL2Round(t *testing.T) {
	m := f16Map2D(256, 64, 64, 4, SwizzleNone)
	for _, tc := range []struct {
		name   string
		coords [5]int32
	}{{"in bounds", [5]int32{0, 0}}, {"wholly out of bounds", [5]int32{0, 64}}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, func(c *Config) { c.DescriptorMissCycles, c.DescriptorFirstCycles = 0, 0 })
			if err := r.u.TensorLoad(1000, TensorLoad{Map: m, Coords: tc.coords}); err != nil {
				t.Fatal(err)
			}
			// fakePath: 100 cycles and 128 B at 32 B a cycle an in-bounds
			// row; an out-of-bounds row its 100-cycle hit latency.
			want := sim.Cycle(1000 + 26 + 10 + 3 + 104 + 20)
			if tc.coords[1] != 0 {
				want = 1000 + 26 + 10 + 3 + 100 + 20
			}
			r.landsAt(t, want)
			if tc.coords[1] != 0 && r.path.streams != 0 {
				t.Errorf("%d memory requests for a box out of bounds, want none", r.path.streams)
			}
		})
	}
}

// A store's bytes leave at StoreBytesPerCycle from the end of its setup, one
// store after another; its source is read StoreBufferBytes' worth of
// sending before its last byte leaves (wait_group.read), and its group is
// written when the last byte has left, however slow the path to L2
// (calibration/h200 store.csv: a stream of 16 KiB stores every 514 cycles,
// the read wait 31 cycles before the write wait, no L2 round trip).
func TestStoreTimingFollowsTheStorePath(t *testing.T) {
	for _, slowL2 := range []sim.Cycle{100, 5000} {
		r := newRig(t, nil)
		r.path.lat = slowL2
		cfg := DefaultConfig()
		const size = 16 << 10
		send := sim.Cycle(size / cfg.StoreBytesPerCycle)
		ahead := sim.Cycle(cfg.StoreBufferBytes / cfg.StoreBytesPerCycle)
		setup := sim.Cycle(cfg.SetupCycles)
		for i, th := range []uint64{1, 2} {
			if err := r.u.Store(0, Store{Thread: th, Dst: gbase + uint64(i)*size, Src: 0, Size: size}); err != nil {
				t.Fatal(err)
			}
			r.u.Commit(th)
			// The second store's bytes follow the first's.
			sent := setup + send*sim.Cycle(i+1)
			if got := r.u.WaitGroup(0, th, 0, false); got != sent {
				t.Errorf("L2 latency %d, store %d: written at %d, want %d", slowL2, i, got, sent)
			}
			if got := r.u.WaitGroup(0, th, 0, true); got != sent-ahead {
				t.Errorf("L2 latency %d, store %d: source read at %d, want %d", slowL2, i, got, sent-ahead)
			}
		}
	}
	// A small store's source read is bound by the shared-memory port, not
	// the read-ahead.
	r := newRig(t, nil)
	if err := r.u.Store(0, Store{Thread: 1, Dst: gbase, Src: 0, Size: 256}); err != nil {
		t.Fatal(err)
	}
	r.u.Commit(1)
	cfg := DefaultConfig()
	if got, want := r.u.WaitGroup(0, 1, 0, true), sim.Cycle(cfg.SetupCycles+256/cfg.SmemBytesPerCycle); got != want {
		t.Errorf("256-byte store: source read at %d, want %d", got, want)
	}
}

// arraySmem is shared memory that also records the unit's shares of its data
// array (ArrayUser).
type arraySmem struct {
	fakeSmem
	shares [][3]sim.Cycle // from, to, cycles
}

func (s *arraySmem) ShareArray(from, to sim.Cycle, cycles int) {
	s.shares = append(s.shares, [3]sim.Cycle{from, to, sim.Cycle(cycles)})
}

// A bulk store's source reads take size / StoreReadBytes cycles of the SM's
// shared-memory array over the stretch it reads (smemshare.csv: half the
// array while a store streams at 32 B/cycle); loads and a zero
// StoreReadBytes share nothing.
func TestStoreReadsShareTheSharedMemoryArray(t *testing.T) {
	for _, readBytes := range []int{64, 0} {
		cfg := DefaultConfig()
		cfg.StoreReadBytes = readBytes
		sm := &arraySmem{fakeSmem: fakeSmem{0: make([]byte, 64<<10)}}
		u, err := New(cfg, sim.New(), &fakeGlobal{base: gbase, b: make([]byte, 1<<20)}, &fakePath{lat: 100, perCycle: 32}, sm, &fakeSink{})
		if err != nil {
			t.Fatal(err)
		}
		const size = 16 << 10
		if err := u.Load(0, Load{Dst: 0, Src: gbase, Size: size, Mbar: 60 << 10, CopyID: 1}); err != nil {
			t.Fatal(err)
		}
		if err := u.Store(0, Store{Thread: 1, Dst: gbase, Src: 0, Size: size}); err != nil {
			t.Fatal(err)
		}
		u.Commit(1)
		if readBytes == 0 {
			if len(sm.shares) != 0 {
				t.Errorf("StoreReadBytes 0: shares %v, want none", sm.shares)
			}
			continue
		}
		if len(sm.shares) != 1 {
			t.Fatalf("shares %v, want the store's one", sm.shares)
		}
		sh := sm.shares[0]
		read := u.WaitGroup(0, 1, 0, true)
		if sh[1] != read || sh[2] != size/64 || sh[0] >= sh[1] {
			t.Errorf("share %v, want %d array cycles up to the source read at %d", sh, size/64, read)
		}
		// The store reads from when its bytes start leaving until the
		// read-ahead's distance before the last: (16 KiB - 1 KiB) / 32 B.
		if l, want := sh[1]-sh[0], sim.Cycle((size-cfg.StoreBufferBytes)/cfg.StoreBytesPerCycle); l != want {
			t.Errorf("window of %d cycles for a %d-byte store, want %d", l, size, want)
		}
	}
}
