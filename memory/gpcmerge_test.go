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
// (calibration/h200/gpcbw.csv); plain loads are not held to it.
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
