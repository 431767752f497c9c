package memory

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// onePartition makes the L2 one partition, so that no line's home is far
// (l2.go), for tests of other gates.
func onePartition(c *Config) { c.L2Partitions = 1 }

func newTestHierarchy(t testing.TB, mod func(*Config)) *Hierarchy {
	t.Helper()
	cfg := DefaultConfig()
	if mod != nil {
		mod(&cfg)
	}
	h, err := NewHierarchy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// chase replays hwprobe.cu's P7 pointer chase on the hierarchy alone: the
// host copies the buffer in (so it is warm in L2 as far as L2 holds it), the
// kernel starts with an empty L1, follows 64 warm-up links and then times
// 2000 dependent loads along a random cycle through every 128-byte line.
// For footprints of a million lines and more, uniformly random lines stand
// in for the cycle: 2064 steps of a random cycle over 8 M lines visit
// distinct random lines.
func chase(t testing.TB, h *Hierarchy, footprint uint64) float64 {
	t.Helper()
	const warm, timed = 64, 2000
	base := isa.HeapBase
	h.Warm(base, footprint)
	h.NewLaunch(0)
	lines := footprint / 128
	rng := rand.New(rand.NewPCG(7, 7))
	var next func(i int) uint64
	if lines < 1<<20 {
		perm := make([]uint64, lines)
		for i := range perm {
			perm[i] = uint64(i)
		}
		rng.Shuffle(len(perm)-1, func(i, j int) { perm[i+1], perm[j+1] = perm[j+1], perm[i+1] })
		next = func(i int) uint64 { return perm[i%len(perm)] }
	} else {
		next = func(int) uint64 { return rng.Uint64N(lines) }
	}
	var now, start sim.Cycle
	for i := 0; i < warm+timed; i++ {
		if i == warm {
			start = now
		}
		lat, _ := h.Access(now, base+next(i)*128, 4, false)
		now += lat
	}
	return float64(now-start) / timed
}

func TestPointerChaseLatencyByFootprint(t *testing.T) {
	tests := []struct {
		name      string
		footprint uint64
		measured  float64 // probe.csv global_load_chain cycles_per_load
	}{
		{"16 KiB fits in L1", 16 << 10, 49.88},
		{"2 MiB hits in L2", 2 << 20, 374.01},
		{"16 MiB hits in L2 within the TLB reach", 16 << 20, 370.13},
		{"1 GiB misses L2 and the TLB", 1 << 30, 667.61},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := chase(t, newTestHierarchy(t, nil), tt.footprint)
			t.Logf("predicted %.1f, measured %.1f (%+.1f %%)", got, tt.measured, 100*(got-tt.measured)/tt.measured)
			if got < tt.measured*0.9 || got > tt.measured*1.1 {
				t.Errorf("got %.1f cycles per load, want within 10 %% of %.2f", got, tt.measured)
			}
		})
	}
}

func TestAccessLatencyByLevel(t *testing.T) {
	cfg := DefaultConfig()
	l2 := sim.Cycle(cfg.L1MissCycles + cfg.L2Cycles)
	dram := l2 + sim.Cycle(cfg.DRAMCycles)
	ack := sim.Cycle(cfg.WriteAckCycles)
	h := newTestHierarchy(t, onePartition) // the far partition: TestFarReadsPayTheHopOnce
	a := isa.HeapBase
	steps := []struct {
		name  string
		addr  uint64
		write bool
		lat   sim.Cycle
		level Level
	}{
		{"cold load misses TLBs, L1 and L2", a, false, dram + sim.Cycle(cfg.TLBMissCycles), DRAM},
		{"same line again hits L1", a + 4, false, sim.Cycle(cfg.L1HitCycles), L1},
		{"other sector of the line misses L1 and L2", a + 64, false, dram, DRAM},
		// A 4-byte store writes part of a sector: two packets up (uppath.go).
		{"store writes through to L2", a + 4096, true, ack + 1, L2},
		{"load after the store hits L2", a + 4096, false, l2, L2},
		{"store 1 MiB further", a + 1<<20, true, ack + 1, L2},
		{"an L2 hit there costs the same (no L1-path translation: l1tlb.csv)", a + 1<<20, false, l2, L2},
	}
	// Each step a thousand cycles after the last: steps issued together
	// would queue on the SM→L2 request path.
	for i, s := range steps {
		lat, lvl := h.Access(sim.Cycle(100+1000*i), s.addr, 4, s.write)
		if lat != s.lat || lvl != s.level {
			t.Errorf("%s: got %d cycles from %v, want %d from %v", s.name, lat, lvl, s.lat, s.level)
		}
	}
	h.NewLaunch(0)
	if lat, lvl := h.Access(sim.Cycle(100+1000*len(steps)), a, 4, false); lvl != L2 || lat != l2 {
		t.Errorf("after NewLaunch: got %d from %v, want %d from L2", lat, lvl, l2)
	}
}

// An L1-bypassing load (ld.global.cg) costs the load pipeline plus the L2
// round trip, allocates in L2 only, and leaves L1 as it was.
func TestAccessL2BypassesL1(t *testing.T) {
	cfg := DefaultConfig()
	h := newTestHierarchy(t, onePartition)
	a := isa.HeapBase
	bypass := sim.Cycle(cfg.L1HitCycles + cfg.L2Cycles)
	if lat, lvl := h.AccessL2(0, a, 4); lvl != DRAM || lat != bypass+sim.Cycle(cfg.DRAMCycles+cfg.TLBMissCycles) {
		t.Errorf("cold: %d cycles from %v, want %d from DRAM", lat, lvl, bypass+sim.Cycle(cfg.DRAMCycles+cfg.TLBMissCycles))
	}
	if lat, lvl := h.AccessL2(1000, a, 4); lvl != L2 || lat != bypass {
		t.Errorf("again: %d cycles from %v, want %d from L2", lat, lvl, bypass)
	}
	l2 := sim.Cycle(cfg.L1MissCycles + cfg.L2Cycles)
	if lat, lvl := h.Access(2000, a, 4, false); lvl != L2 || lat != l2 {
		t.Errorf("ld.ca after ld.cg: %d cycles from %v, want %d from L2 (L1 was not filled)", lat, lvl, l2)
	}
	if lat, _ := h.AccessL2(3000, a, 4); lat != bypass {
		t.Errorf("ld.cg of a line in L1: %d cycles, want %d (L1 is not looked up)", lat, bypass)
	}
}

// A bulk read from DRAM waits StreamDRAMCycles beyond a load's DRAMCycles.
func TestStreamFromDRAMWaitsStreamDRAMCycles(t *testing.T) {
	mod := func(c *Config) { c.StreamDRAMCycles = 77 }
	cfg := DefaultConfig()
	mod(&cfg)
	h := newTestHierarchy(t, mod)
	hot := newTestHierarchy(t, mod)
	a := isa.HeapBase
	hot.Warm(a, 128)
	hot.translate(a, 16) // the same TLB state as h's second access below
	h.translate(a, 16)
	cold, _ := h.Stream(0, a, 16)
	warm, _ := hot.Stream(0, a, 16)
	if d := cold - warm; d != sim.Cycle(cfg.DRAMCycles+cfg.StreamDRAMCycles) {
		t.Errorf("DRAM minus L2 stream latency = %d, want DRAMCycles + StreamDRAMCycles = %d", d, cfg.DRAMCycles+cfg.StreamDRAMCycles)
	}
}

func TestWarmAndColdL2AcrossLaunches(t *testing.T) {
	h := newTestHierarchy(t, nil)
	cfg := h.Config()
	a := isa.HeapBase + 1<<20
	_, cold := h.Stream(0, a, 4096)
	_, warm := h.Stream(10_000, a, 4096) // a second launch reads the same bytes
	if cold != 4096 || warm != 0 {
		t.Errorf("DRAM bytes: cold %d, warm %d; want 4096 and 0", cold, warm)
	}
	h.Flush()
	if _, again := h.Stream(20_000, a, 4096); again != 4096 {
		t.Errorf("after Flush: got %d DRAM bytes, want 4096", again)
	}
	h = newTestHierarchy(t, nil)
	h.Warm(a, uint64(cfg.L2Bytes)*2) // a host copy larger than L2 keeps only its tail
	if _, d := h.Stream(30_000, a, 128); d != 128 {
		t.Errorf("head of a copy larger than L2: got %d DRAM bytes, want 128", d)
	}
	if _, d := h.Stream(40_000, a+uint64(cfg.L2Bytes)*2-128, 128); d != 0 {
		t.Errorf("tail of a copy larger than L2: got %d DRAM bytes, want 0", d)
	}
}

// Ramulator-style boundary tests: the last byte is not there one cycle
// before ready, and is there at ready, for swept parameter values.
func TestStreamReadyIsLatencyPlusBytesOverBandwidth(t *testing.T) {
	tests := []struct {
		name                    string
		l2Cycles, bw, dram, dbw int
		size                    int
		warm                    bool
		want                    sim.Cycle // relative to the request
	}{
		{"16 B L2 hit: one sector over the link", 200, 100, 240, 90, 16, true, 200 + 1},
		{"4 KiB L2 hit at 100 B/cycle", 200, 100, 240, 90, 4096, true, 200 + 41},
		{"4 KiB L2 hit at 64 B/cycle", 200, 64, 240, 90, 4096, true, 200 + 64},
		{"128 KiB L2 hit", 150, 100, 240, 90, 128 << 10, true, 150 + 1311},
		{"16 B DRAM: DRAM latency on top", 200, 100, 240, 90, 16, false, 200 + 240 + 1 + 100},
		{"64 KiB DRAM bound by DRAM bandwidth", 200, 100, 300, 50, 64 << 10, false, 200 + 300 + 1311 + 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHierarchy(t, func(c *Config) {
				onePartition(c)
				c.L2Cycles, c.L2BytesPerCycle, c.DRAMCycles, c.DRAMBytesPerCycle = tt.l2Cycles, tt.bw, tt.dram, tt.dbw
			})
			a := isa.HeapBase
			const at = 1000
			if tt.warm {
				h.Warm(a, uint64(tt.size))
				h.translate(a, tt.size) // the TLB is warm too
			}
			ready, _ := h.Stream(at, a, tt.size)
			if ready-at != tt.want {
				t.Errorf("ready %d cycles after the request, want %d", ready-at, tt.want)
			}
			if ready-1 >= at+tt.want {
				t.Errorf("data already there at ready-1")
			}
		})
	}
}

func TestBackToBackStreamsShareTheLink(t *testing.T) {
	h := newTestHierarchy(t, onePartition)
	a := isa.HeapBase
	h.Warm(a, 1<<20)
	h.translate(a, 1)
	r1, _ := h.Stream(0, a, 9600)
	r2, _ := h.Stream(0, a+9600, 9600) // same cycle: queues behind the first
	if r1 != 200+96 || r2 != 200+192 {
		t.Errorf("got ready %d and %d, want 296 and 392", r1, r2)
	}
	r3, _ := h.Stream(5000, a, 100) // idle link; 100 bytes move as 4 sectors
	if r3 != 5000+200+2 {
		t.Errorf("idle link: got %d, want %d", r3, 5000+202)
	}
	if w := h.StreamWrite(6000, a, 1024); w != 6000+200+31 {
		t.Errorf("write: got %d, want %d (32 sectors up the request path, one a cycle)", w, 6000+231)
	}
}

func TestStatsSubRemovesWarmup(t *testing.T) {
	h := newTestHierarchy(t, onePartition)
	h.Access(0, isa.HeapBase, 4, false)
	snap := h.Stats()
	h.Access(0, isa.HeapBase, 4, false)
	h.Stream(0, isa.HeapBase+4096, 256)
	d := h.Stats().Sub(snap)
	want := Stats{Loads: 1, L1Hits: 1, L2Misses: 2, Streams: 1, StreamBytes: 256, DRAMBytes: 256}
	if d != want {
		t.Errorf("got %+v, want %+v", d, want)
	}
}

// A launch starts with an empty L1 of the size its carve-out leaves; L2
// keeps its lines (sassprobe.csv relaunch_fp16, l1cap rows).
func TestNewLaunchEmptiesAndSizesL1(t *testing.T) {
	cfg := DefaultConfig()
	h := newTestHierarchy(t, nil)
	a := isa.HeapBase
	l2 := sim.Cycle(cfg.L1MissCycles + cfg.L2Cycles)
	fill := func(bytes uint64) {
		for off := uint64(0); off < bytes; off += 128 {
			h.Access(0, a+off, 4, false)
		}
	}
	misses := func(bytes uint64) uint64 {
		before := h.Stats()
		fill(bytes)
		return h.Stats().Sub(before).L1Misses
	}
	fill(16 << 10)
	if n := misses(16 << 10); n != 0 {
		t.Fatalf("16 KiB in a %d KiB L1: %d misses on the second pass, want 0", cfg.L1Bytes>>10, n)
	}
	h.NewLaunch(0)
	if lat, lvl := h.Access(1<<20, a, 4, false); lvl != L2 || lat != l2 {
		t.Errorf("first load of a new launch: %d cycles from %v, want %d from L2", lat, lvl, l2)
	}
	tests := []struct {
		name      string
		l1        int
		footprint uint64
		misses    uint64 // on a second pass in address order
	}{
		{"64 KiB fit a 224 KiB L1", 224 << 10, 64 << 10, 0},
		{"64 KiB do not fit a 28 KiB L1", 28 << 10, 64 << 10, 512},
		{"20 KiB fit a 28 KiB L1", 28 << 10, 20 << 10, 0},
	}
	for _, tt := range tests {
		h.NewLaunch(tt.l1)
		fill(tt.footprint)
		if n := misses(tt.footprint); n != tt.misses {
			t.Errorf("%s: %d misses on the second pass, want %d", tt.name, n, tt.misses)
		}
	}
}

// A read of a line only its far home partition holds pays L2FarCycles and
// leaves a copy near; a line the host copied in (Warm) is at its home alone;
// a store leaves a copy near; a miss whose home is far pays the hop on top
// of DRAM (l2near.csv: 350 and 528 cycles a load from L2, 619 and 802 from
// DRAM).
func TestFarReadsPayTheHopOnce(t *testing.T) {
	cfg := DefaultConfig()
	ca := sim.Cycle(cfg.L1MissCycles + cfg.L2Cycles)
	cg := sim.Cycle(cfg.L1HitCycles + cfg.L2Cycles)
	far, dram := sim.Cycle(cfg.L2FarCycles), sim.Cycle(cfg.DRAMCycles)
	h := newTestHierarchy(t, nil)
	// lines of the heap whose home is the far partition (1) and the near one (0)
	line := func(home, k int, from uint64) uint64 {
		for a := from; ; a += 128 {
			if h.l2.home(a/128) == home {
				if k == 0 {
					return a
				}
				k--
			}
		}
	}
	farA, farB, farC, nearA := line(1, 0, isa.HeapBase), line(1, 1, isa.HeapBase), line(1, 2, isa.HeapBase), line(0, 0, isa.HeapBase)
	farCold := line(1, 0, isa.HeapBase+1<<20) // past the copied MiB, in the same TLB page
	h.Warm(isa.HeapBase, 1<<20)
	h.translate(isa.HeapBase, 2<<20)
	// a store is acknowledged from the line's home and leaves a copy near
	// (a 4-byte store: two packets up the request path, uppath.go)
	ack := sim.Cycle(cfg.WriteAckCycles) + far + 1
	if lat, _ := h.Access(0, farC, 4, true); lat != ack {
		t.Errorf("a store to a line homed far: %d cycles, want %d", lat, ack)
	}
	for i, s := range []struct {
		name     string
		addr     uint64
		cg       bool
		lat      sim.Cycle
		farReads uint64
	}{
		{"a host-copied line homed far, through L1", farA, false, ca + far, 1},
		{"a host-copied line homed far, around L1", farB, true, cg + far, 2},
		{"the far line again", farB, true, cg, 2},
		{"a host-copied line homed near", nearA, true, cg, 2},
		{"a line homed far stored to since", farC, true, cg, 2},
		{"a line homed far from DRAM", farCold, true, cg + far + dram, 3},
	} {
		var lat sim.Cycle
		if s.cg {
			lat, _ = h.AccessL2(sim.Cycle(1000*(i+1)), s.addr, 4)
		} else {
			lat, _ = h.Access(sim.Cycle(1000*(i+1)), s.addr, 4, false)
		}
		if lat != s.lat || h.Stats().FarReads != s.farReads {
			t.Errorf("%s: %d cycles, %d far reads; want %d, %d", s.name, lat, h.Stats().FarReads, s.lat, s.farReads)
		}
	}
}

func TestL1BytesFor(t *testing.T) {
	tests := []struct{ smem, l1 int }{
		{0, 256 << 10}, {1, 248 << 10}, {48 << 10, 192 << 10}, {100 << 10, 156 << 10},
		{128 << 10, 124 << 10}, {227 << 10, 28 << 10}, {300 << 10, 28 << 10},
	}
	for _, tt := range tests {
		if got := L1BytesFor(tt.smem); got != tt.l1 {
			t.Errorf("L1BytesFor(%d KiB): got %d KiB, want %d KiB", tt.smem>>10, got>>10, tt.l1>>10)
		}
	}
}

func TestConfigValidateNamesField(t *testing.T) {
	tests := []struct {
		field string
		mod   func(*Config)
	}{
		{"LineBytes", func(c *Config) { c.LineBytes = 100 }},
		{"SectorBytes", func(c *Config) { c.SectorBytes = 8 }},
		{"L1Bytes", func(c *Config) { c.L1Bytes = 1000 }},
		{"L2Bytes", func(c *Config) { c.L2Ways = 0 }},
		{"TLBPageBytes", func(c *Config) { c.TLBEntries = 0 }},
		{"L2BytesPerCycle", func(c *Config) { c.L2BytesPerCycle = 0 }},
		{"DRAMBytesPerCycle", func(c *Config) { c.DRAMBytesPerCycle = -1 }},
		{"DRAMCycles", func(c *Config) { c.DRAMCycles = -1 }},
		{"DRAMRefreshIntervalNs", func(c *Config) { c.DRAMRefreshNs, c.DRAMRefreshIntervalNs, c.DRAMRefreshSpanBytes = 287, 200, 1024 }},
		{"DRAMRefreshSpanBytes", func(c *Config) { c.DRAMRefreshNs, c.DRAMRefreshIntervalNs, c.DRAMRefreshSpanBytes = 287, 1950, 1000 }},
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default: %v", err)
	}
	for _, tt := range tests {
		c := DefaultConfig()
		tt.mod(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.field) {
			t.Errorf("%s: got %v", tt.field, err)
		}
	}
}

func BenchmarkAccessL1Hit(b *testing.B) {
	h := newTestHierarchy(b, nil)
	h.Access(0, isa.HeapBase, 4, false)
	b.ReportAllocs()
	for b.Loop() {
		h.Access(0, isa.HeapBase, 4, false)
	}
}

// TestStreamReduceIsAWriteThatReadsMissesFromDRAM: a bulk reduction into
// lines L2 holds costs what a bulk write does; into lines it does not hold,
// L2 first reads the missing sectors from DRAM, at a missing load's DRAM
// latency.
func TestStreamReduceIsAWriteThatReadsMissesFromDRAM(t *testing.T) {
	h := newTestHierarchy(t, onePartition) // no line's home is far
	c := h.Config()
	a := isa.HeapBase
	h.Warm(a, 1<<20)
	h.translate(a, 1<<21)
	w := h.StreamWrite(1000, a, 1024)
	r, dram := h.StreamReduce(5000, a, 1024)
	if r-5000 != w-1000 || dram != 0 {
		t.Errorf("warm: reduce %d cycles (%d DRAM bytes), want the write's %d and none", r-5000, dram, w-1000)
	}
	cold := a + 1<<20 // same TLB page range, not in L2
	r, dram = h.StreamReduce(9000, cold, 1024)
	want := sim.Cycle(1024*256/c.DRAMBytesPerCycle+255)/256 + sim.Cycle(c.L2Cycles+c.DRAMCycles)
	if dram != 1024 || r-9000 != want {
		t.Errorf("cold: reduce %d cycles with %d DRAM bytes, want %d with 1024", r-9000, dram, want)
	}
	if s := h.Stats(); s.StreamReduces != 2 || s.StreamReduceBytes != 2048 {
		t.Errorf("stats %+v, want 2 reductions of 2048 bytes", s)
	}
}

// The SM→L2 request path takes a packet per read request (a line) and per
// sector a store writes (two for a line's sectors written in part), one a
// cycle (calibration/h200/stgport.csv), and the LSU and the copy engine take
// turns on it, a request each (a store's line is one request of all its
// packets): a bulk read's requests that meet a backlog of stores each wait
// for one store line until the backlog is gone, and push it out by one slot
// each (testdata/cuda/wgmma/tma_stg.csv).
func TestStoresAndReadsTakeTurnsOnTheRequestPath(t *testing.T) {
	for _, tt := range []struct {
		name     string
		lines    int
		stride   uint64
		size     int
		wantRead sim.Cycle // the 38400-byte read's ready, relative to cycle 0
	}{
		{"no stores", 0, 128, 8, 200 + 384},                          // 38400 B / 100 B a cycle: the data link binds
		{"300 one-sector lines", 300, 4096, 32, 200 + 300 + 300 - 1}, // 300 requests beside 300 sectors, in turn
		{"300 partial sectors", 300, 4096, 8, 200 + 900 - 1},         // each request waits for a line's two packets
		{"100 whole lines", 100, 128, 128, 200 + 500 + 200 - 1},      // 100 requests after a line of 4 sectors each, 200 alone
		{"a few stores under the link", 20, 128, 128, 200 + 384 + 0}, // 80 packets + 300 requests < 384
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newTestHierarchy(t, onePartition)
			a := isa.HeapBase
			h.Warm(a, 1<<20)
			h.translate(a, 1<<20)
			for i := 0; i < tt.lines; i++ {
				h.Access(0, a+(1<<19)+uint64(i)*tt.stride, tt.size, true)
			}
			if r, _ := h.Stream(0, a, 38400); r != tt.wantRead {
				t.Errorf("read ready at %d, want %d", r, tt.wantRead)
			}
		})
	}
	h := newTestHierarchy(t, onePartition)
	a := isa.HeapBase
	h.Warm(a, 1<<20)
	h.translate(a, 1<<20)
	idle, _ := h.Access(10000, a, 8, true)
	h.Stream(20000, a, 100<<10) // 800 line requests
	busy, _ := h.Access(20000, a+4096, 8, true)
	if busy-idle != 1 {
		t.Errorf("a store beside 100 KiB of reads takes %d cycles, alone %d: want its line's two packets to go whole after one read request", busy, idle)
	}
	if got := h.UpBooked(20000); got != 3 {
		t.Errorf("the LSU's packets booked %d cycles ahead, want 3 (a partial sector's request, in turn with the reads)", got)
	}
	if r, _ := h.Stream(20000, a+200<<10, 128); r < 20000+802 {
		t.Errorf("a read request after them is ready at %d, want it behind the 800 requests and the store's 2 packets (%d)", r, 20000+802)
	}
}

// The L2 hashes lines into its sets: 512 lines 64 KiB apart all stay in it
// (calibration/h200/dramline.csv: a round of 16 such lines from L2 takes 454
// cycles, 449 for consecutive lines), where taking the line address modulo
// the sets would put them in 30 sets of 16 ways and lose most of them; an
// aligned chunk of 16 lines keeps 16 distinct sets.
func TestL2SpreadsPowerOfTwoStrides(t *testing.T) {
	h := newTestHierarchy(t, nil)
	a := isa.HeapBase
	pass := func(at sim.Cycle) uint64 {
		before := h.Stats().L2Misses
		for k := range uint64(512) {
			h.AccessL2(at+sim.Cycle(k), a+k<<16, 4)
		}
		return h.Stats().L2Misses - before
	}
	if n := pass(0); n != 512 {
		t.Fatalf("first pass: %d L2 misses, want 512", n)
	}
	if n := pass(100_000); n != 0 {
		t.Errorf("second pass: %d L2 misses, want 0", n)
	}
	seen := map[uint64]bool{}
	for line := range uint64(hashChunkLines) {
		seen[h.l2.parts[0].index(a/128+line)] = true
	}
	if len(seen) != hashChunkLines {
		t.Errorf("a chunk of %d lines takes %d sets", hashChunkLines, len(seen))
	}
}
