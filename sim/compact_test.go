package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// timeouts is a handler of time limits that end early: an event whose arg
// is in done does nothing (Stale says so), the others record themselves
// and, now and then, schedule more events, some of which end early too.
type timeouts struct {
	e    *Engine
	done map[uint64]bool
	rng  *rand.Rand
	next uint64
	got  []string
	max  int // the longest queue seen
}

func (h *timeouts) Stale(arg uint64) bool { return h.done[arg] }

func (h *timeouts) Handle(now Cycle, arg uint64) error {
	if h.done[arg] {
		return nil
	}
	h.got = append(h.got, fmt.Sprintf("%d/%d", now, arg))
	for range h.rng.IntN(3) {
		h.schedule(now)
	}
	h.max = max(h.max, h.e.Pending())
	return nil
}

// schedule queues a time limit far off and ends it early, mostly, at once:
// a try_wait's limit when its phase completes first.
func (h *timeouts) schedule(now Cycle) {
	h.next++
	h.e.Schedule(now+Cycle(h.rng.IntN(5000)), Phase(h.rng.IntN(3)), h, h.next)
	if h.rng.IntN(10) != 0 {
		h.done[h.next] = true
	}
}

func runTimeouts(compact bool, limit Cycle) (*timeouts, error) {
	e := New()
	if !compact {
		e.compactAt = 1 << 62
	}
	h := &timeouts{e: e, done: map[uint64]bool{}, rng: rand.New(rand.NewPCG(1, 2))}
	for range 2000 {
		h.schedule(0)
	}
	err := e.Run(limit)
	return h, err
}

// Dropping stale events changes nothing but the queue's length: the live
// events run in the same order, the clock ends where running the stale
// ones would have left it, Handled counts them, and a limit that only a
// stale event passes is still reported.
func TestStaleEventsDroppedWithoutChangingTheRun(t *testing.T) {
	for _, limit := range []Cycle{Never - 1, 3000} {
		keep, errKeep := runTimeouts(false, limit)
		drop, errDrop := runTimeouts(true, limit)
		if fmt.Sprint(keep.got) != fmt.Sprint(drop.got) {
			t.Fatalf("limit %d: the live events ran differently (%d and %d events)", limit, len(keep.got), len(drop.got))
		}
		var lk, ld *LimitError
		if errors.As(errKeep, &lk) != errors.As(errDrop, &ld) {
			t.Fatalf("limit %d: errors %v and %v", limit, errKeep, errDrop)
		}
		if lk == nil && (keep.e.Now() != drop.e.Now() || keep.e.Handled() != drop.e.Handled()) {
			t.Errorf("limit %d: ended at %d after %d events, want %d after %d", limit, drop.e.Now(), drop.e.Handled(), keep.e.Now(), keep.e.Handled())
		}
		if drop.max*4 > keep.max {
			t.Errorf("limit %d: the queue reached %d events with stale ones dropped, %d without", limit, drop.max, keep.max)
		}
	}
}

// When the only events left are stale and beyond Run's limit, Run reports
// the limit as it would have on reaching them.
func TestStaleEventPastTheLimitIsReported(t *testing.T) {
	e := New()
	h := &timeouts{e: e, done: map[uint64]bool{}, rng: rand.New(rand.NewPCG(1, 2))}
	for i := range uint64(compactFloor) {
		h.done[i] = true
		e.Schedule(Cycle(100+i), PhaseDeliver, h, i)
	}
	if e.Pending() != 0 {
		t.Fatalf("%d events queued, want every stale one dropped", e.Pending())
	}
	var le *LimitError
	if err := e.Run(50); !errors.As(err, &le) {
		t.Fatalf("got %v, want a LimitError", err)
	}
	if err := e.Run(1000); err != nil || e.Now() != 100+compactFloor-1 || e.Handled() != compactFloor {
		t.Errorf("got %v at cycle %d after %d events, want none at %d after %d", err, e.Now(), e.Handled(), 100+compactFloor-1, compactFloor)
	}
}
