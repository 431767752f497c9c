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
// at the GPC's delivery too, L1-allocating loads' at GPCL2BytesPerCycle
// and L1-bypassing loads' sectors at GPCBypassBytesPerCycle (calibration/
// h200/gpcmap.csv, gpcload.csv); two SMs of different GPCs each have their
// own.
func TestGPCDeliveryHoldsLoads(t *testing.T) {
	cfg := DefaultConfig()
	cfg.GPCL2BytesPerCycle, cfg.GPCBypassBytesPerCycle = 32, 16 // narrower than the partitions and DRAM
	const lines = 64
	for _, tc := range []struct {
		name   string
		bypass bool
		rate   int
	}{
		{"ld.global (L1 fill)", false, cfg.GPCL2BytesPerCycle},
		{"ld.global.cg (L1 bypassed)", true, cfg.GPCBypassBytesPerCycle},
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
						addr := uint64(k)<<20 + i*uint64(cfg.LineBytes)
						var lat sim.Cycle
						if tc.bypass {
							lat, _ = h.AccessL2(0, addr, cfg.LineBytes)
						} else {
							lat, _ = h.Access(0, addr, cfg.LineBytes, false)
						}
						worst = max(worst, lat)
					}
				}
				return worst
			}
			same, apart := last(true), last(false)
			if want := sim.Cycle(2 * lines * cfg.LineBytes / tc.rate); same < want {
				t.Errorf("two SMs of one GPC loaded their lines by %d, want at least %d (their bytes at %d B/cycle)", same, want, tc.rate)
			}
			turns := sim.Cycle(lines * cfg.LineBytes / tc.rate) // one SM's bytes at the rate
			if gap := same - apart; gap < turns-2 || gap > turns+turns/8 {
				t.Errorf("two SMs of two GPCs loaded their lines %d cycles before two of one GPC, want about %d (one SM's bytes at %d B/cycle)", gap, turns, tc.rate)
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
