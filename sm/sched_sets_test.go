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

// A held pipe group's warps wait until its cycle as waiting warps do: an
// answer that brings one forward takes it out of the group, to the
// calendar or to due; a warp that leaves the list leaves the group; the
// rest return to ready, in their group, when the cycle comes.
func TestHeldGroupsWaitAsTheCalendarDoes(t *testing.T) {
	q := newWarpQueues(maxQueued)
	q.on = true
	q.scanned = 100
	for i := 0; i < 6; i++ {
		q.toReady(i, 2)
	}
	q.toReady(6, 1)
	q.hold(2, 110)
	if q.ready != 1<<6 || q.wait != 0x3f || q.waitMin() != 110 {
		t.Fatalf("held: ready %#x, wait %#x, next %d; want 0x40, 0x3f, 110", q.ready, q.wait, q.waitMin())
	}
	q.lowered(1, 100) // not after the last scan: due
	q.lowered(3, 105) // to the calendar
	q.lowered(4, 120) // later than the group's cycle: stays
	if q.due != 1<<1 || q.held[2] != 0x35 || q.takeSpan(105) != 1<<3 {
		t.Fatalf("lowered: due %#x, held %#x; want 0x2, 0x35, warp 3 due at 105", q.due, q.held[2])
	}
	q.removeAt(0) // warps 1.. move down a position
	if q.held[2] != 0x1a || q.heldAt[2] != 110 {
		t.Fatalf("removed: held %#x at %d, want 0x1a at 110", q.held[2], q.heldAt[2])
	}
	if q.takeSpan(109) != 0 || q.heldMask == 0 || q.waitMin() != 110 {
		t.Fatalf("at 109: held groups %#x, next %d; want the group held until 110", q.heldMask, q.waitMin())
	}
	if now := sim.Cycle(110); now-q.scanned == 1 && now < q.farMin && now < q.heldNext {
		t.Fatal("the scan at the group's cycle would take one bucket, not the span that returns the group")
	}
	q.takeSpan(110)
	if q.heldMask != 0 || q.groups[2] != 0x1a || q.ready != 0x1a|1<<5 || q.wait != 0 {
		t.Fatalf("released: held groups %#x, group %#x, ready %#x, wait %#x", q.heldMask, q.groups[2], q.ready, q.wait)
	}
	// A group emptied by answers no longer counts for the next cycle due.
	q.hold(2, 200)
	for i := 0; i < 5; i++ {
		q.lowered(i, 100) // not after the last scan: due
	}
	if q.heldMask != 0 || q.waitMin() != sim.Never {
		t.Fatalf("emptied: held groups %#x, next %d; want none, none", q.heldMask, q.waitMin())
	}
}
