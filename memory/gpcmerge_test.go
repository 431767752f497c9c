package memory

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// TestGPCReadsOfALineInFlightMerge: an SM's read of lines whose delivery to
// its GPC is still on its way takes no turn at the L2's partitions and
// arrives with that delivery (gpcmerge.go; calibration/h200/gpcshare.csv);
// an SM of another GPC, or one that asks after the data arrived, books the
// partitions as a read of its own.
func TestGPCReadsOfALineInFlightMerge(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPUL2BytesPerCycle = 64 // narrow, so that a second booking shows
	const size = 16 << 10
	for _, tc := range []struct {
		name     string
		sameGPC  bool
		at       sim.Cycle // when the second SM asks
		wantFree bool      // the partitions untouched by the second read
	}{
		{"same GPC, in flight", true, 10, true},
		{"another GPC", false, 10, false},
		{"same GPC, after the data arrived", true, 100_000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewHierarchy(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b := a.Sibling()
			a.SetGPC(0)
			b.SetGPC(map[bool]int{true: 0, false: 1}[tc.sameGPC])
			first, _ := a.Stream(0, 0, size)
			before := append([]fixed(nil), a.fab.l2Free...)
			second, _ := b.Stream(tc.at, 0, size)
			untouched := true
			for p := range before {
				untouched = untouched && a.fab.l2Free[p] == before[p]
			}
			if untouched != tc.wantFree {
				t.Errorf("partitions untouched by the second read: %v, want %v", untouched, tc.wantFree)
			}
			if tc.wantFree && second < first {
				t.Errorf("the merged read is ready at %d, before the delivery it joined (%d)", second, first)
			}
		})
	}
}

// TestGPCBulkReadsShareItsDelivery: two SMs of one GPC bulk-copying lines
// no one else reads take turns at the GPC's delivery (GPCL2BytesPerCycle),
// where two SMs of different GPCs each have their own
// (calibration/h200/gpcbw.csv).
func TestGPCBulkReadsShareItsDelivery(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPCL2BytesPerCycle = 32 // narrower than an SM's link
	const size = 16 << 10
	last := func(sameGPC bool) sim.Cycle {
		a, _ := NewHierarchy(cfg)
		b := a.Sibling()
		a.SetGPC(0)
		b.SetGPC(map[bool]int{true: 0, false: 1}[sameGPC])
		ra, _ := a.Stream(0, 0, size)
		rb, _ := b.Stream(0, 1<<20, size)
		return max(ra, rb)
	}
	same, apart := last(true), last(false)
	if want := sim.Cycle(2 * size / cfg.GPCL2BytesPerCycle); same < want {
		t.Errorf("two SMs of one GPC done at %d, want at least %d (their bytes at %d B/cycle)", same, want, cfg.GPCL2BytesPerCycle)
	}
	if apart >= same {
		t.Errorf("two SMs of two GPCs done at %d, not before two of one GPC (%d)", apart, same)
	}
}

// TestGPCDeliveryHoldsLoads: the lines two SMs of one GPC load take turns
// at the GPC's delivery (GPCL2BytesPerCycle), L1-allocating loads' and
// L1-bypassing loads' alike (calibration/h200/gpcmap.csv, gpcload.csv); two
// SMs of different GPCs each have their own.
func TestGPCDeliveryHoldsLoads(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPCL2BytesPerCycle = 32 // narrower than the partitions and DRAM
	const lines = 64
	for _, tc := range []struct {
		name   string
		bypass bool
	}{
		{"ld.global (L1 fill)", false},
		{"ld.global.cg (L1 bypassed)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			last := func(sameGPC bool) sim.Cycle {
				a, _ := NewHierarchy(cfg)
				b := a.Sibling()
				a.SetGPC(0)
				b.SetGPC(map[bool]int{true: 0, false: 1}[sameGPC])
				var worst sim.Cycle
				for i := uint64(0); i < lines; i++ {
					for k, h := range []*Hierarchy{a, b} {
						worst = max(worst, load(h, tc.bypass, uint64(k)<<20+i*uint64(cfg.LineBytes), cfg.LineBytes))
					}
				}
				return worst
			}
			same, apart := last(true), last(false)
			turns := sim.Cycle(lines * cfg.LineBytes / cfg.GPCL2BytesPerCycle) // one SM's bytes at the rate
			if gap := same - apart; gap < turns-2 || gap > turns+turns/8 {
				t.Errorf("two SMs of two GPCs loaded their lines %d cycles before two of one GPC, want about %d (one SM's bytes at %d B/cycle)", gap, turns, cfg.GPCL2BytesPerCycle)
			}
		})
	}
}

// load is one warp load of size bytes at addr at cycle 0, through L1 or
// around it, and its latency.
func load(h *Hierarchy, bypass bool, addr uint64, size int) sim.Cycle {
	if bypass {
		lat, _ := h.AccessL2(0, addr, size)
		return lat
	}
	lat, _ := h.Access(0, addr, size, false)
	return lat
}

// TestL1BypassingLoadsAreDeliveredOnTheirOwn: an SM that loads the same
// sectors twice in a row around its L1 has them delivered twice, each load
// taking its turn at the GPC's delivery, where a second L1-allocating load
// finds the line L1 holds or has asked for. On the H200 gpcload.cu's float4
// stream, which ptxas splits into two loads of each 16 bytes, gets half the
// GPC's delivery with ld.global.cg; on an H100 the same bytes loaded once a
// sector get ld.global's rate (calibration/h100/run2/gpcop.csv).
func TestL1BypassingLoadsAreDeliveredOnTheirOwn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPCL2BytesPerCycle = 32
	for _, tc := range []struct {
		name   string
		bypass bool
		turns  int // lines' turns the GPC's delivery took
	}{
		{"ld.global twice", false, 1},
		{"ld.global.cg twice", true, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := NewHierarchy(cfg)
			if err != nil {
				t.Fatal(err)
			}
			h.Sibling()
			h.SetGPC(0)
			load(h, tc.bypass, 0, cfg.LineBytes)
			load(h, tc.bypass, 0, cfg.LineBytes)
			want := toFixed(sim.Cycle(tc.turns * cfg.LineBytes / cfg.GPCL2BytesPerCycle))
			if h.gpc.free < want || h.gpc.free > want+fixedOne {
				t.Errorf("the GPC's delivery is busy until %v, want %v (%d lines at %d B/cycle)", h.gpc.free.ceil(), want.ceil(), tc.turns, cfg.GPCL2BytesPerCycle)
			}
		})
	}
}

// TestGPCRemembersLinesAPowerOfTwoApartInFlight: SMs streaming in step ask
// at once for lines a power of two apart (their slices' same offsets); each
// delivery stays on record until it arrives, so a third SM asking for any
// of them merges.
func TestGPCRemembersLinesAPowerOfTwoApartInFlight(t *testing.T) {
	h, err := NewHierarchy(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	h.Sibling()
	h.SetGPC(0)
	const apart = flightSlots // lines whose low bits agree
	for k := uint64(0); k < 2*flightWays; k++ {
		h.deliver(7+k*apart, 500)
	}
	for k := uint64(0); k < 2*flightWays; k++ {
		if _, ok := h.inFlight(7+k*apart, 10); !ok {
			t.Errorf("line 7 + %d × %d, on its way until cycle 500, is not in flight at cycle 10", k, apart)
		}
	}
}
