package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// Timing gates of the load/store unit, called directly with a scheduler of
// its own (the sub-partition whose pipes it holds).

// newTestLSU returns the h200 load/store unit timing global accesses by path.
func newTestLSU(path MemoryPath) (lsu, *scheduler) {
	cfg := DefaultConfig()
	sc := newScheduler(cfg.Sched, cfg.Limits.Warps)
	return newLSU(&cfg, path), &sc
}

// strided gives lane l the shared offset l*stride.
func strided(stride uint32) *[sharedmem.WarpSize]uint32 {
	var w [sharedmem.WarpSize]uint32
	for l := range w {
		w[l] = uint32(l) * stride
	}
	return &w
}

// A shared access takes latency.shared and smem.conflict_cycles for each
// wavefront beyond the first (probe.csv smem_load_chain: +2 a conflicting
// address), an atomic smem.atomic_cycles more; the sub-partition's shared
// pipe is held max(interval.shared, wavefronts × smem.conflict_cycles).
func TestBankConflictWavefronts(t *testing.T) {
	for _, tc := range []struct {
		name     string
		words    *[sharedmem.WarpSize]uint32
		size     int
		atomic   bool
		wantWF   int
		wantLat  sim.Cycle
		wantPipe sim.Cycle // the shared pipe's next start
	}{
		{"32-bit, every lane its own bank: one wavefront", strided(4), 4, false, 1, 23, 4},
		{"32-bit, every lane the same word (broadcast)", strided(0), 4, false, 1, 23, 4},
		{"32-bit, two lanes a bank", strided(8), 4, false, 2, 25, 4},
		{"32-bit, four lanes a bank", strided(16), 4, false, 4, 29, 8},
		{"32-bit, all lanes one bank", strided(128), 4, false, 32, 85, 64},
		{"64-bit, consecutive: two passes", strided(8), 8, false, 2, 25, 4},
		{"128-bit, consecutive: four passes", strided(16), 16, false, 4, 29, 8},
		{"an atomic, conflict-free", strided(4), 4, true, 1, 26, 4},
		{"an atomic, two lanes a bank", strided(8), 4, true, 2, 28, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, sc := newTestLSU(nil)
			lat, wf := u.shared(100, sc, tc.words, warp.FullMask, tc.size, tc.atomic)
			if wf != tc.wantWF || lat != tc.wantLat {
				t.Errorf("%d wavefronts, latency %d; want %d, %d", wf, lat, tc.wantWF, tc.wantLat)
			}
			if got := sc.lsuFree - 100; got != tc.wantPipe {
				t.Errorf("the shared pipe starts its next access %d cycles later, want %d", got, tc.wantPipe)
			}
		})
	}
}

// The sub-partition's MIO queue holds smem.queue shared accesses waiting
// for its pipe; with more waiting, its warps stop issuing shared
// instructions until the oldest starts (smem.csv: one 32-bit load every
// interval.shared = 4 cycles from one sub-partition).
func TestMIOQueueHoldsSharedIssue(t *testing.T) {
	u, sc := newTestLSU(nil)
	for k, want := range []sim.Cycle{1, 1, 1, 1, 4, 8, 12} { // the pipe accepts the next issue at
		lat, _ := u.shared(0, sc, strided(4), warp.FullMask, 4, false)
		if wantLat := sim.Cycle(23 + 4*k); lat != wantLat {
			t.Errorf("access %d issued at 0: latency %d, want %d (its turn in the queue)", k, lat, wantLat)
		}
		if got := sc.pipeFree[isa.ClassShared]; got != want {
			t.Errorf("after %d accesses issued at 0 the next may issue at %d, want %d", k+1, got, want)
		}
	}
}

// The SM's one data array serves a 128-byte wavefront a cycle
// (smem.wavefront_cycles) to every sub-partition: an access from another
// sub-partition waits for the wavefronts given out before it, and the
// lines of global accesses pass it too (ldg.csv).
func TestDataArrayServesOneWavefrontACycle(t *testing.T) {
	u, a := newTestLSU(nil)
	b := newScheduler(DefaultConfig().Sched, 64)
	if lat, _ := u.shared(0, a, strided(16), warp.FullMask, 4, false); lat != 29 {
		t.Fatalf("a 4-wavefront access: latency %d, want 29", lat)
	}
	if lat, _ := u.shared(0, &b, strided(4), warp.FullMask, 4, false); lat != 27 {
		t.Errorf("another sub-partition's access in the same cycle: latency %d, want 27 (4 cycles behind the array)", lat)
	}
	var lines [warp.Lanes]uint64
	lines[0], lines[1] = 10, 11
	if lat := u.global(0, &b, &lines, nil, 2, false); lat != 32+2+5 {
		t.Errorf("a global access of 2 L1 lines after 5 wavefronts: latency %d, want %d", lat, 32+2+5)
	}
	if u.smemFree != 7 {
		t.Errorf("the array is free at %d, want 7 (4 + 1 + 2 lines)", u.smemFree)
	}
}

// A bulk store's reads take their share of the data array: a warp's access
// whose wavefronts fall in the stretch takes longer by it, and so does the
// access waiting behind it (smemshare.csv: half the array while a store
// reads at 32 B/cycle).
func TestBulkStoresTakeTheirShareOfTheArray(t *testing.T) {
	for _, tc := range []struct {
		name       string
		storeBusy  int       // array cycles the store takes of [100, 300)
		wantBehind sim.Cycle // latency of a 1-wavefront access behind a 4-wavefront one at 150
	}{
		{"no store", 0, 23 + 4},
		{"a store reading half the array", 100, 23 + 8},
		{"a store asking for all of it gets nine tenths", 200, 23 + 40},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, a := newTestLSU(nil)
			b := newScheduler(DefaultConfig().Sched, 64)
			u.shareArray(100, 100, 300, tc.storeBusy, false)
			u.shared(150, a, strided(16), warp.FullMask, 4, false)
			if lat, _ := u.shared(150, &b, strided(4), warp.FullMask, 4, false); lat != tc.wantBehind {
				t.Errorf("the access behind: latency %d, want %d", lat, tc.wantBehind)
			}
		})
	}
}

// A global access takes the memory path's latency for the level that
// serves it (mem.l1_hit; mem.l1_miss + mem.l2 on an L2 hit; + mem.dram on a
// miss; + mem.l2_far when only the far L2 partition holds the line or, on a
// miss, is its home: the first 4 KiB block's home is the SM's partition,
// the second's the other; + mem.tlb_miss in a page not translated yet), the slowest of its
// lines, and mem.per_line a line beyond the first, which also hold the LSU
// pipe beyond interval.global. DRAM refresh is off: memory's tests time
// its waits.
func TestMemoryPathLatencyByLevel(t *testing.T) {
	cfg := DefaultConfig().Mem
	cfg.DRAMRefreshNs = 0
	h, err := memory.NewHierarchy(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u, sc := newTestLSU(h)
	line := func(addrs ...uint64) (*[warp.Lanes]uint64, int) {
		var ls [warp.Lanes]uint64
		for i, a := range addrs {
			ls[i] = a / 128
		}
		return &ls, len(addrs)
	}
	now := sim.Cycle(0)
	for _, tc := range []struct {
		name     string
		addrs    []uint64
		bypassL1 bool
		write    bool
		want     sim.Cycle
	}{
		{"a cold line: TLB misses, DRAM", []uint64{0}, false, false, 10 + 32 + 257 + 243},
		{"the same line again: an L1 hit", []uint64{0}, false, false, 32},
		{"ld.global.cg of a line L2 holds", []uint64{0}, true, false, 32 + 257},
		{"ld.global.cg of a line L2 lacks (page translated), homed far", []uint64{4096}, true, false, 32 + 257 + 180 + 243},
		{"a load of that line: in L2, not in L1", []uint64{4096}, false, false, 32 + 257},
		{"a store of a whole line: its four sectors up to L2, one a cycle, then mem.write_ack", []uint64{256}, false, true, 188 + 3},
		{"four L1-hit lines: mem.per_line each beyond the first", []uint64{0, 128, 4 * 128, 5 * 128}, false, false, 32 + 3*2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ls, n := line(tc.addrs...)
			if n == 4 { // warm the two lines not yet in L1, then time the four
				u.global(now, sc, ls, nil, n, false)
				now += 1000
			}
			before := sc.pipeFree[isa.ClassGlobal]
			if got := u.global(now, sc, ls, wholeLines(tc.write), n, tc.bypassL1); got != tc.want {
				t.Errorf("latency %d, want %d", got, tc.want)
			}
			if hold := sc.pipeFree[isa.ClassGlobal] - before; n == 4 && hold != 4 {
				t.Errorf("four lines hold the LSU pipe %d cycles beyond interval.global, want 4 (4 × mem.per_line - 4)", hold)
			}
			now += 1000 // the data array is free again
		})
	}
}

// wholeLines is the byte masks of a store that writes every byte of each
// line it touches (nil for a load).
func wholeLines(write bool) *[warp.Lanes][2]uint64 {
	if !write {
		return nil
	}
	var m [warp.Lanes][2]uint64
	for i := range m {
		m[i] = [2]uint64{^uint64(0), ^uint64(0)}
	}
	return &m
}

func TestSectorMasks(t *testing.T) {
	for _, tt := range []struct {
		name          string
		off, size     int
		mask, partial uint8
	}{
		{"a whole line", 0, 128, 0xf, 0},
		{"one whole sector", 32, 32, 0x2, 0},
		{"eight bytes", 8, 8, 0x1, 0x1},
		{"across two sectors, neither whole", 16, 32, 0x3, 0x3},
		{"the last sector and part of the one before", 80, 48, 0xc, 0x4},
	} {
		var m [2]uint64
		markBytes(&m, tt.off, tt.size)
		if mask, partial := sectorMasks(&m); mask != tt.mask || partial != tt.partial {
			t.Errorf("%s: sectors %04b, partial %04b; want %04b, %04b", tt.name, mask, partial, tt.mask, tt.partial)
		}
	}
}

// A warp store books its sectors on the SM→L2 request path; once the path
// is booked more than mem.store_backlog ahead, the next store waits to
// leave the LSU: the sub-partition's global pipe is held until the backlog
// is back to mem.store_backlog (stgport.csv: stores from many warps issue
// at the path's rate). A store also holds the pipe until the data array
// takes its lines, a wavefront a line, and the pipe holds every access
// mem.per_line a line.
func TestStoresWaitForTheStoreQueue(t *testing.T) {
	h, err := memory.NewHierarchy(DefaultConfig().Mem)
	if err != nil {
		t.Fatal(err)
	}
	u, sc := newTestLSU(h)
	cfg := DefaultConfig()
	backlog := sim.Cycle(cfg.LSU.StoreBacklog)
	perLine, wave := sim.Cycle(cfg.LSU.GlobalPerLine), sim.Cycle(cfg.Smem.WavefrontCycles)
	var ls [warp.Lanes]uint64
	for i := range ls {
		ls[i] = uint64(1<<20+i) * 4 // 32 lines, four whole sectors each: 128 packets a store
	}
	h.Warm(ls[0]*128, 1<<20)
	const now = 1000
	for k := 1; k <= 8; k++ {
		sc.pipeFree[isa.ClassGlobal] = now + sim.Cycle(cfg.Pipes.Interval[isa.ClassGlobal]) // the issue's hold
		u.global(now, sc, &ls, wholeLines(true), warp.Lanes, false)
		booked := sim.Cycle(k * 128)
		want := max(now+warp.Lanes*perLine, now+sim.Cycle(k-1)*warp.Lanes*wave) // its lines; the array
		if booked > backlog {
			want = max(want, now+booked-backlog) // the store queue
		}
		if got := sc.pipeFree[isa.ClassGlobal]; got != want {
			t.Errorf("after %d stores (%d packets booked): LSU pipe free at %d, want %d", k, booked, got, want)
		}
	}
}

// markBytes sets, a mask word at a time, what setting the bytes one by one
// sets: every offset and size, within, across and past the line's 128 bytes.
func TestMarkBytesSetsEachByte(t *testing.T) {
	for off := 0; off < 140; off++ {
		for size := 0; size <= 140; size++ {
			var got, want [2]uint64
			markBytes(&got, off, size)
			for b := off; b < off+size && b < 128; b++ {
				want[b>>6] |= 1 << (b & 63)
			}
			if got != want {
				t.Fatalf("offset %d, size %d: %#x, want %#x", off, size, got, want)
			}
		}
	}
}
