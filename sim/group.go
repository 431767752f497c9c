package sim

// Group runs several engines as one clock: a GPU's dispatcher and its SMs,
// each with its own event queue. Cycle by cycle it finds the earliest event
// of any engine (idle cycles cost nothing), moves every engine's clock
// there, and runs the engines' events of that cycle one engine after the
// other, in the order given to NewGroup: an engine's events of a cycle run
// together, in its own (phase, scheduling) order, before the next engine's.
//
// That order is the one a parallel run of the engines can keep (issue 34,
// docs/parallel.md): an engine's events of a cycle depend on the other
// engines' only through what they share, which the engines take in Group
// order. An event one engine schedules on another for the cycle being run
// (a latency of zero: the dispatcher starting a CTA at once) runs in a
// further pass over the engines, after the ones of the first.
type Group struct {
	engs  []*Engine
	now   Cycle   // every engine's Now
	hints []Cycle // each engine's hint (Engine.hint points here): never later than its next event
	par   *parallel
	after func() // run after each pass, on the group's goroutine (SetAfterPass)
}

// SetAfterPass makes the group call f after each pass over its engines (a
// cycle's events, or the further ones scheduled for it), on the goroutine
// that called Run: what the engines buffered during the pass can be handed
// on there in the group's order.
func (g *Group) SetAfterPass(f func()) { g.after = f }

// NewGroup makes a group of engs, which run in that order within a cycle.
// From then on the group runs them (not Engine.Run) and their Now is the
// group's clock, the latest of theirs.
func NewGroup(engs ...*Engine) *Group {
	g := &Group{engs: engs, hints: make([]Cycle, len(engs))}
	for i, e := range engs {
		g.now = max(g.now, e.now)
		g.hints[i] = *e.hint
		e.clock, e.hint = &g.now, &g.hints[i]
		e.grp, e.idx = g, i
	}
	return g
}

// Now is the group's clock.
func (g *Group) Now() Cycle { return g.now }

// Align moves every engine's own clock to the group's, as a new launch
// starts all of them together.
func (g *Group) Align() {
	for _, e := range g.engs {
		if e.nextAt() >= g.now {
			e.now = g.now
		}
	}
}

// Run handles the engines' events until every queue is empty, a handler
// returns an error, or the next event lies beyond until (a *LimitError,
// that event left queued), as Engine.Run does for one.
func (g *Group) Run(until Cycle) error {
	for i, e := range g.engs {
		g.hints[i] = e.nextAt()
	}
	for {
		t := g.nextAt()
		if t == Never {
			return g.drainStale(until)
		}
		if t > until {
			return &LimitError{Limit: until, Next: t}
		}
		if err := g.runCycle(t); err != nil {
			return err
		}
	}
}

// nextAt is the earliest cycle any engine's next event may come at, or
// Never.
func (g *Group) nextAt() Cycle {
	t := Never
	for _, h := range g.hints {
		t = min(t, h)
	}
	return t
}

// runCycle runs every engine's events of cycle t, in passes until none is
// left: an event scheduled for t on an engine already run comes in the
// next pass.
func (g *Group) runCycle(t Cycle) error {
	g.now = t
	for pending := true; pending; {
		var err error
		if g.par != nil {
			err = g.par.pass(g, t)
		} else {
			err = g.pass(t, 0)
		}
		if g.after != nil {
			g.after()
		}
		if err != nil {
			return err
		}
		pending = g.nextAt() <= t
	}
	return nil
}

// pass runs the events of cycle t of the engines from the from-th on, in
// order, on this thread.
func (g *Group) pass(t Cycle, from int) error {
	for i := from; i < len(g.engs); i++ {
		if g.hints[i] > t {
			continue
		}
		if err := g.engs[i].runCycle(t); err != nil {
			return err
		}
	}
	return nil
}

// drainStale ends a run whose queues are empty: the clock moves to the
// latest dropped event of any engine, as Engine.Run's does for its own.
func (g *Group) drainStale(until Cycle) error {
	for _, e := range g.engs {
		if err := e.drainStale(until); err != nil {
			return err
		}
		g.now = max(g.now, e.now)
	}
	return nil
}

// runCycle handles the engine's events of cycle t (none is earlier), and
// those they schedule for t, then sets its hint to its next event's cycle.
// Ticking on without the queue (StepTo) stops at t, where the other
// engines' events wait.
func (e *Engine) runCycle(t Cycle) error {
	e.now, e.limit = t, t
	for {
		i, fromNear := e.next()
		if !fromNear && len(e.q) == 0 {
			*e.hint = Never
			return nil
		}
		if at := e.nextIn(fromNear, i); at > t {
			*e.hint = at
			return nil
		}
		var ev event
		if fromNear {
			ev = e.near.take(i)
		} else {
			ev = e.pop()
		}
		e.handled++
		if err := e.release(ev.slot).Handle(ev.at, ev.arg); err != nil {
			return err
		}
	}
}
