package sm

import (
	"fmt"
	"math/bits"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/sim"
)

// naiveWait is the waiting set as the full scan sees it: a warp is due at
// a scan when its cycle is not after the scan's.
type naiveWait map[int]sim.Cycle

func (n naiveWait) take(now sim.Cycle) uint64 {
	var due uint64
	for i, at := range n {
		if at <= now {
			due |= 1 << i
			delete(n, i)
		}
	}
	return due
}

func (n naiveWait) min() sim.Cycle {
	m := sim.Never
	for _, at := range n {
		m = min(m, at)
	}
	return m
}

// The calendar of waiting warps gives each scan exactly the warps whose
// cycle has come since the last, and the earliest cycle left, whatever the
// gaps between scans (one cycle, a few, more than the calendar's 64), the
// distances of the waits (near, far, sim.Never), answers that bring a wait
// forward, and warps leaving the list.
func TestWarpCalendarMatchesTheFullScan(t *testing.T) {
	for _, gaps := range [][]sim.Cycle{{1}, {1, 2, 3}, {1, 70}, {5, 64, 130}} {
		t.Run(fmt.Sprintf("scans %v cycles apart", gaps), func(t *testing.T) {
			rng := rand.New(rand.NewSource(int64(len(gaps))))
			q := newWarpQueues(maxQueued)
			q.on = true // as for a scheduler of minQueued warps or more
			want := naiveWait{}
			n := 40 // warps in the list
			now := sim.Cycle(1000)
			q.scanned = now
			for step := 0; step < 5000; step++ {
				now += gaps[rng.Intn(len(gaps))]
				var got uint64
				if now-q.scanned == 1 && now < q.farMin {
					got = q.takeBucket(now)
				} else {
					got = q.takeSpan(now)
				}
				got |= q.due
				q.due = 0
				if exp := want.take(now); got != exp {
					t.Fatalf("step %d, cycle %d: due %#x, want %#x", step, now, got, exp)
				}
				// The due warps wait again, some near, some far, some for ever.
				for m := got; m != 0; m &= m - 1 {
					i := bits.TrailingZeros64(m)
					at := now + 1 + sim.Cycle(rng.Intn(200))
					if rng.Intn(20) == 0 {
						at = sim.Never
					}
					q.toWait(i, at)
					want[i] = at
				}
				if got, exp := q.waitMin(), want.min(); got != exp {
					t.Fatalf("step %d, cycle %d: next due %d, want %d", step, now, got, exp)
				}
				// Between scans: an answer brings a wait forward, a warp leaves.
				if i := rng.Intn(n); rng.Intn(3) == 0 {
					if at, ok := want[i]; ok {
						to := now - 2 + sim.Cycle(rng.Intn(100))
						if to < at {
							q.lowered(i, to) // to the calendar, or to due if not after the last scan
							want[i] = to
						}
					}
				}
				if rng.Intn(50) == 0 && n > 2 {
					i := rng.Intn(n)
					q.removeAt(i)
					shifted := naiveWait{}
					for j, at := range want {
						switch {
						case j < i:
							shifted[j] = at
						case j > i:
							shifted[j-1] = at
						}
					}
					want = shifted
					n--
					q.added(n, -1, 0) // a new warp, due at the next scan
					want[n] = now
					n++
				}
			}
		})
	}
}
