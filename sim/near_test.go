package sim

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// chatter is a handler that records each event and schedules more at
// random distances (zero, near, at the calendar's edge, far) and phases,
// and wakes a clocked ticker now and then.
type chatter struct {
	e     *Engine
	rng   *rand.Rand
	clk   *Clocked
	next  uint64
	got   []string
	quota int
}

func (c *chatter) Handle(now Cycle, arg uint64) error {
	c.got = append(c.got, fmt.Sprintf("%d/%d", now, arg))
	for range c.rng.IntN(3) {
		c.schedule(now)
	}
	if c.rng.IntN(4) == 0 {
		c.clk.WakeAt(now + Cycle(c.rng.IntN(70)))
	}
	return nil
}

func (c *chatter) schedule(now Cycle) {
	if c.quota == 0 {
		return
	}
	c.quota--
	c.next++
	var d Cycle
	switch c.rng.IntN(6) {
	case 0:
		d = 0
	case 1:
		d = Cycle(c.rng.IntN(4))
	case 2:
		d = Cycle(nearSpan - 2 + c.rng.IntN(4))
	case 3:
		d = Cycle(c.rng.IntN(3 * nearSpan))
	default:
		d = Cycle(c.rng.IntN(nearSpan))
	}
	c.e.Schedule(now+d, Phase(c.rng.IntN(3)), c, c.next)
}

// Tick works for a few cycles in a row, stepping without the queue when
// StepTo lets it, and records each tick.
func (c *chatter) Tick(now Cycle) (Cycle, error) {
	c.got = append(c.got, fmt.Sprintf("%d/tick", now))
	if c.rng.IntN(5) == 0 {
		c.schedule(now)
	}
	if c.rng.IntN(3) == 0 {
		return Never, nil
	}
	return now + 1, nil
}

func runChatter(seed uint64, nearOff bool) ([]string, Cycle, error) {
	e := New()
	e.nearOff = nearOff
	c := &chatter{e: e, rng: rand.New(rand.NewPCG(seed, 9)), quota: 20000}
	c.clk = NewClocked(e, c)
	for range 50 {
		c.schedule(0)
	}
	var err error
	for limit := Cycle(500); ; limit += 500 { // in stretches, as a launch with --max-cycles would stop
		var le *LimitError
		if err = e.Run(limit); !errors.As(err, &le) {
			break
		}
		c.got = append(c.got, fmt.Sprintf("limit %d next %d", le.Limit, le.Next))
	}
	return c.got, e.Now(), err
}

// The near calendar changes nothing but the cost: the same events and ticks
// run in the same order at the same cycles as with every event in the
// heap, across stretches of Run with limits and ticks stepped by StepTo.
func TestNearCalendarKeepsTheHeapsOrder(t *testing.T) {
	for seed := range uint64(20) {
		want, wantNow, wantErr := runChatter(seed, true)
		got, gotNow, gotErr := runChatter(seed, false)
		if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) || wantNow != gotNow || len(got) != len(want) {
			t.Fatalf("seed %d: %d events to cycle %d (%v), want %d to %d (%v)", seed, len(got), gotNow, gotErr, len(want), wantNow, wantErr)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d: event %d is %s, want %s", seed, i, got[i], want[i])
			}
		}
	}
}

// An event of a later phase scheduled first, and one of an earlier phase
// scheduled after, share a cycle's bucket in phase order.
func TestNearBucketsKeepPhaseOrder(t *testing.T) {
	e := New()
	r := &orderRecorder{}
	e.Schedule(3, PhaseSample, r, 1)
	e.Schedule(3, PhaseTick, r, 2)
	e.Schedule(3, PhaseDeliver, r, 3)
	e.Schedule(3, PhaseTick, r, 4)
	e.Schedule(3+nearSpan, PhaseDeliver, r, 5)
	e.Schedule(2, PhaseSample, r, 6)
	if err := e.Run(Never - 1); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(r.got), "[2/6 3/3 3/2 3/4 3/1 67/5]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
