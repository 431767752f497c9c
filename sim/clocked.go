package sim

// Ticker is a component driven by the clock. Tick does the component's work
// for cycle now and returns the next cycle at which it wants to run: now+1
// while it makes progress every cycle, a later cycle when it knows it will be
// idle until then (a scoreboard release, a timer), or Never when only an
// outside event can give it work again.
type Ticker interface {
	Tick(now Cycle) (next Cycle, err error)
}

// Clocked schedules a Ticker on an Engine and keeps it asleep while it is
// idle. At most one tick is queued at a time; WakeAt moves it earlier.
type Clocked struct {
	eng   *Engine
	t     Ticker
	at    Cycle  // cycle of the live queued tick, or Never
	gen   uint64 // generation of the live tick; older queued ticks are stale
	ticks uint64
}

// NewClocked wires t to eng. It starts asleep; call WakeAt to start it.
func NewClocked(eng *Engine, t Ticker) *Clocked {
	return &Clocked{eng: eng, t: t, at: Never}
}

// Ticks reports how many times the component has ticked.
func (c *Clocked) Ticks() uint64 { return c.ticks }

// Asleep reports whether no tick is queued.
func (c *Clocked) Asleep() bool { return c.at == Never }

// WakeAt asks for a tick at cycle at (not before now). A tick already queued
// for an earlier or the same cycle makes this a no-op.
func (c *Clocked) WakeAt(at Cycle) {
	if now := c.eng.Now(); at < now {
		at = now
	}
	if at >= c.at {
		return
	}
	c.at = at
	c.gen++
	c.eng.Schedule(at, PhaseTick, c, c.gen)
}

// Handle runs the queued tick whose generation is gen, unless a later WakeAt
// superseded it. It is the Clocked's event handler, not for direct use.
func (c *Clocked) Handle(now Cycle, gen uint64) error {
	if gen != c.gen {
		return nil
	}
	c.at = Never
	c.ticks++
	next, err := c.t.Tick(now)
	if err != nil {
		return err
	}
	// Busy every cycle and nothing else due: tick on without the queue.
	for next == now+1 && c.eng.StepTo(next) {
		now = next
		c.ticks++
		if next, err = c.t.Tick(now); err != nil {
			return err
		}
	}
	if next != Never {
		if next <= now {
			next = now + 1
		}
		c.WakeAt(next)
	}
	return nil
}
