package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type orderRecorder struct{ got []string }

func (o *orderRecorder) Handle(now Cycle, arg uint64) error {
	o.got = append(o.got, fmt.Sprintf("%d/%d", now, arg))
	return nil
}

func TestEventOrderIsCyclePhaseThenFIFO(t *testing.T) {
	e := New()
	r := &orderRecorder{}
	e.Schedule(5, PhaseTick, r, 1)
	e.Schedule(3, PhaseSample, r, 2)
	e.Schedule(3, PhaseDeliver, r, 3)
	e.Schedule(5, PhaseDeliver, r, 4)
	e.Schedule(3, PhaseSample, r, 5)
	e.Schedule(3, PhaseSample, r, 6)
	e.Schedule(0, PhaseTick, r, 7)
	if err := e.Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	want := "0/7 3/3 3/2 3/5 3/6 5/4 5/1"
	if got := strings.Join(r.got, " "); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRunStopsAtLimitAndKeepsEvent(t *testing.T) {
	e := New()
	r := &orderRecorder{}
	e.Schedule(10, PhaseTick, r, 1)
	e.Schedule(20, PhaseTick, r, 2)
	err := e.Run(15)
	var le *LimitError
	if !errors.As(err, &le) || le.Next != 20 {
		t.Fatalf("got %v, want a LimitError with next 20", err)
	}
	if e.Pending() != 1 || len(r.got) != 1 {
		t.Errorf("got %d pending %d handled, want 1 and 1", e.Pending(), len(r.got))
	}
}

func TestHandlerErrorStopsRun(t *testing.T) {
	e := New()
	boom := errors.New("boom")
	e.Schedule(1, PhaseTick, HandlerFunc(func(Cycle, uint64) error { return boom }), 0)
	e.Schedule(2, PhaseTick, &orderRecorder{}, 0)
	if err := e.Run(100); !errors.Is(err, boom) {
		t.Fatalf("got %v, want boom", err)
	}
	if e.Now() != 1 {
		t.Errorf("got now %d, want 1", e.Now())
	}
}

func TestSchedulingInThePastPanicsNamingTheEvent(t *testing.T) {
	e := New()
	e.Schedule(5, PhaseTick, &orderRecorder{}, 0)
	_ = e.Run(10)
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "orderRecorder") {
			t.Errorf("got panic %v, want one naming the handler", r)
		}
	}()
	e.Schedule(4, PhaseTick, &orderRecorder{}, 0)
}

// sleeper ticks every cycle until busyUntil, then sleeps until woken.
type sleeper struct {
	busyUntil Cycle
	ticked    []Cycle
}

func (s *sleeper) Tick(now Cycle) (Cycle, error) {
	s.ticked = append(s.ticked, now)
	if now < s.busyUntil {
		return now + 1, nil
	}
	return Never, nil
}

func TestClockedSleepsWhenIdleAndWakes(t *testing.T) {
	e := New()
	s := &sleeper{busyUntil: 2}
	c := NewClocked(e, s)
	c.WakeAt(0)
	e.Schedule(1000000, PhaseDeliver, HandlerFunc(func(now Cycle, _ uint64) error {
		s.busyUntil = now
		c.WakeAt(now)
		return nil
	}), 0)
	if err := e.Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	want := []Cycle{0, 1, 2, 1000000}
	if fmt.Sprint(s.ticked) != fmt.Sprint(want) {
		t.Errorf("got ticks %v, want %v", s.ticked, want)
	}
	if e.Handled() != 5 {
		t.Errorf("got %d events for a million idle cycles, want 5", e.Handled())
	}
}

func TestWakeAtEarlierSupersedesLaterTick(t *testing.T) {
	e := New()
	s := &sleeper{}
	c := NewClocked(e, s)
	c.WakeAt(50)
	c.WakeAt(10)
	c.WakeAt(30) // later than the queued tick: no-op
	if err := e.Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(s.ticked) != "[10]" {
		t.Errorf("got ticks %v, want [10]", s.ticked)
	}
}

type counter struct {
	e *Engine
	n int
}

func (c *counter) Handle(now Cycle, arg uint64) error {
	c.n++
	c.e.Schedule(now+Cycle(arg%7)+1, Phase(arg%3), c, arg*2654435761)
	return nil
}

// BenchmarkScheduleDispatch measures one schedule+dispatch at a steady queue depth of 256.
func BenchmarkScheduleDispatch(b *testing.B) {
	e := New()
	c := &counter{e: e}
	for i := 0; i < 256; i++ {
		e.Schedule(Cycle(i), PhaseTick, c, uint64(i))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for c.n < b.N {
		ev := e.pop()
		e.now = ev.at
		_ = e.release(ev.slot).Handle(ev.at, ev.arg)
	}
}
