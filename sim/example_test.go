package sim_test

import (
	"fmt"

	"github.com/smsim/smsim/sim"
)

// copyDone is a component that waits for a copy and then finishes.
type copyDone struct{ woke []sim.Cycle }

func (c *copyDone) Tick(now sim.Cycle) (sim.Cycle, error) {
	c.woke = append(c.woke, now)
	return sim.Never, nil // nothing to do until woken again
}

// A component sleeping on a 10-million-cycle copy costs two events, not ten million ticks.
func Example() {
	eng := sim.New()
	w := &copyDone{}
	clk := sim.NewClocked(eng, w)
	clk.WakeAt(0)
	eng.Schedule(10_000_000, sim.PhaseDeliver, sim.HandlerFunc(func(now sim.Cycle, _ uint64) error {
		clk.WakeAt(now) // the copy's completion wakes the waiter
		return nil
	}), 0)
	if err := eng.Run(sim.Never - 1); err != nil {
		fmt.Println(err)
	}
	fmt.Println("ticks at", w.woke, "events", eng.Handled())
	// Output: ticks at [0 10000000] events 3
}
