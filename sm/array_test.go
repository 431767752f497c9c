package sm

import (
	"testing"

	"github.com/smsim/smsim/sim"
)

// A bulk store's reads take their share of the shared-memory data array
// (tma.ArrayUser): wavefronts that start in the stretch take longer by it,
// by the shares of every stretch there together, array time already given
// out in it is pushed back, and the stretch is forgotten once it has ended.
func TestStoreReadsStretchTheWarpsArrayTime(t *testing.T) {
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.lsu.smemFree = 200
	s.ShareArray(100, 300, 100) // half the array over [100, 300)
	if s.lsu.smemFree != 250 {
		t.Errorf("array time given out to 200: pushed to %d, want 250 (half of [100, 200))", s.lsu.smemFree)
	}
	for _, c := range []struct{ at, n, want sim.Cycle }{
		{50, 4, 4}, {100, 4, 8}, {299, 3, 6}, {300, 4, 4},
	} {
		if got := s.lsu.arrayCycles(0, c.at, c.n, false); got != c.want {
			t.Errorf("%d array cycles at %d: %d, want %d", c.n, c.at, got, c.want)
		}
	}
	s.ShareArray(100, 200, 25) // shares add up: a half and a quarter leave a quarter
	if got := s.lsu.arrayCycles(0, 150, 4, false); got != 16 {
		t.Errorf("4 array cycles beside a half and a quarter share: %d, want 16", got)
	}
	s.ShareArray(100, 110, 100) // more than the stretch holds: at most nine tenths
	if got := s.lsu.arrayCycles(0, 105, 4, false); got != 40 {
		t.Errorf("4 array cycles beside shares of more than all of it: %d, want 40", got)
	}
	s.lsu.arrayCycles(300, 300, 1, false)
	if len(s.lsu.arrayUse) != 0 {
		t.Errorf("%d stretches kept after they ended", len(s.lsu.arrayUse))
	}
	s.ShareArray(5, 5, 10)
	if len(s.lsu.arrayUse) != 0 {
		t.Error("an empty stretch was kept")
	}
}
