package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// tagged records "cycle/name/arg" for each event it handles.
type tagged struct {
	name string
	log  *[]string
}

func (h tagged) Handle(now Cycle, arg uint64) error {
	*h.log = append(*h.log, fmt.Sprintf("%d/%s%d", now, h.name, arg))
	return nil
}

func TestGroupRunsEachEnginesCycleBeforeTheNext(t *testing.T) {
	var log []string
	a, b := New(), New()
	ha, hb := tagged{"a", &log}, tagged{"b", &log}
	b.Schedule(3, PhaseDeliver, hb, 1)
	a.Schedule(3, PhaseTick, ha, 2)
	a.Schedule(3, PhaseSample, ha, 3)
	b.Schedule(3, PhaseSample, hb, 4)
	a.Schedule(3, PhaseDeliver, ha, 5)
	b.Schedule(7, PhaseTick, hb, 6)
	a.Schedule(1_000_000, PhaseTick, ha, 7)
	if err := NewGroup(a, b).Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	// a's deliver, tick and sample of cycle 3 all before b's deliver.
	want := "3/a5 3/a2 3/a3 3/b1 3/b4 7/b6 1000000/a7"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if a.Now() != 1_000_000 || b.Now() != 1_000_000 {
		t.Errorf("clocks %d and %d, want both at 1000000", a.Now(), b.Now())
	}
	if n := a.Handled() + b.Handled(); n != 7 {
		t.Errorf("%d events handled for 7 over a million cycles", n)
	}
}

func TestGroupRunsZeroLatencyCrossEventsInTheSameCycle(t *testing.T) {
	var log []string
	a, b, c := New(), New(), New()
	ha, hc := tagged{"a", &log}, tagged{"c", &log}
	// b's event at 5 schedules on a (already run this cycle) and on c (not
	// yet run), both for cycle 5, and reads a's clock.
	var clockOfA Cycle
	b.Schedule(5, PhaseTick, HandlerFunc(func(now Cycle, _ uint64) error {
		log = append(log, fmt.Sprintf("%d/b", now))
		clockOfA = a.Now()
		a.Schedule(now, PhaseDeliver, ha, 1)
		c.Schedule(now, PhaseDeliver, hc, 2)
		return nil
	}), 0)
	a.Schedule(2, PhaseTick, ha, 0)
	if err := NewGroup(a, b, c).Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	want := "2/a0 5/b 5/c2 5/a1"
	if got := strings.Join(log, " "); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if clockOfA != 5 {
		t.Errorf("a's clock read from b's event at 5: %d, want 5", clockOfA)
	}
}

func TestGroupStopsAtItsLimitAndOnAnError(t *testing.T) {
	var log []string
	a, b := New(), New()
	a.Schedule(10, PhaseTick, tagged{"a", &log}, 1)
	b.Schedule(20, PhaseTick, tagged{"b", &log}, 2)
	var le *LimitError
	if err := NewGroup(a, b).Run(15); !errors.As(err, &le) || le.Next != 20 {
		t.Fatalf("got %v, want a LimitError with next 20", err)
	}
	if b.Pending() != 1 || len(log) != 1 {
		t.Errorf("got %d pending and %d handled, want 1 and 1", b.Pending(), len(log))
	}
	boom := errors.New("boom")
	a.Schedule(30, PhaseTick, HandlerFunc(func(Cycle, uint64) error { return boom }), 0)
	b.Schedule(30, PhaseTick, tagged{"b", &log}, 3)
	if err := NewGroup(a, b).Run(Never - 1); !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if want := "10/a1 20/b2"; strings.Join(log, " ") != want {
		t.Errorf("got %v, want %s: nothing after the error", log, want)
	}
}

// A component busy every cycle ticks through the group's cycles one at a
// time, between the other engine's events, instead of running ahead.
func TestGroupKeepsAClockedComponentInStep(t *testing.T) {
	var log []string
	a, b := New(), New()
	s := &sleeper{busyUntil: 3}
	NewClocked(a, s).WakeAt(0)
	hb := tagged{"b", &log}
	b.Schedule(1, PhaseTick, HandlerFunc(func(now Cycle, _ uint64) error {
		log = append(log, fmt.Sprintf("%d/b ticked %v", now, s.ticked))
		return nil
	}), 0)
	b.Schedule(2, PhaseTick, hb, 9)
	if err := NewGroup(a, b).Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(log, " "), "1/b ticked [0 1] 2/b9"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if fmt.Sprint(s.ticked) != "[0 1 2 3]" {
		t.Errorf("ticks %v, want [0 1 2 3]", s.ticked)
	}
}

func TestGroupClockReachesADroppedEvent(t *testing.T) {
	a, b := New(), New()
	h := &timeouts{e: a, done: map[uint64]bool{}}
	for i := 0; i < compactFloor; i++ {
		h.done[uint64(i)] = true
		a.Schedule(Cycle(1000+i), PhaseDeliver, h, uint64(i))
	}
	b.Schedule(5, PhaseTick, tagged{"b", new([]string)}, 0)
	if err := NewGroup(a, b).Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	if want := Cycle(1000 + compactFloor - 1); a.Now() != want || b.Now() != want {
		t.Errorf("clocks %d and %d, want %d", a.Now(), b.Now(), want)
	}
}

// chain handles an event by recording it and scheduling up to two more at
// random latencies and phases, until it has handled n.
type chain struct {
	e   *Engine
	rng *rand.Rand
	n   int
	log []string
}

func (c *chain) Handle(now Cycle, arg uint64) error {
	c.log = append(c.log, fmt.Sprintf("%d/%d", now, arg))
	for k := 0; k < 2 && len(c.log) < c.n; k++ {
		c.e.Schedule(now+Cycle(c.rng.IntN(100)), Phase(c.rng.IntN(3)), c, c.rng.Uint64()%1000)
	}
	return nil
}

// A group of one engine runs its events in Engine.Run's order.
func TestGroupOfOneEngineKeepsItsOrder(t *testing.T) {
	run := func(group bool) []string {
		e := New()
		c := &chain{e: e, rng: rand.New(rand.NewPCG(1, 2)), n: 5000}
		e.Schedule(0, PhaseTick, c, 0)
		var err error
		if group {
			err = NewGroup(e).Run(Never - 1)
		} else {
			err = e.Run(Never - 1)
		}
		if err != nil {
			t.Fatal(err)
		}
		return c.log
	}
	alone, grouped := run(false), run(true)
	if len(alone) < 5000 || strings.Join(alone, " ") != strings.Join(grouped, " ") {
		t.Errorf("a group of one ran %d events differently from the engine alone (%d)", len(grouped), len(alone))
	}
}
