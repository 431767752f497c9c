package sim

import (
	"fmt"
	"math"
)

// Cycle is a point in simulated time, in SM clock cycles.
type Cycle uint64

// Never is a Cycle that is never reached; a component returning it sleeps until woken.
const Never Cycle = math.MaxUint64

// Phase orders events that fall in the same cycle. See the package comment.
type Phase uint8

const (
	// PhaseDeliver runs first: in-flight work completes before anyone acts.
	PhaseDeliver Phase = iota
	// PhaseTick runs clocked components.
	PhaseTick
	// PhaseSample runs observers that read the settled cycle.
	PhaseSample
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhaseDeliver:
		return "deliver"
	case PhaseTick:
		return "tick"
	case PhaseSample:
		return "sample"
	}
	return fmt.Sprintf("phase(%d)", uint8(p))
}

// Handler is what an event runs. arg is the value given to Schedule; it lets
// one long-lived handler tell its events apart without allocating a closure
// per event. An error stops Engine.Run and is returned by it.
type Handler interface {
	Handle(now Cycle, arg uint64) error
}

// HandlerFunc adapts a function to Handler. Prefer a method on a long-lived
// object in hot paths: a closure allocates when it is created.
type HandlerFunc func(now Cycle, arg uint64) error

// Handle calls f.
func (f HandlerFunc) Handle(now Cycle, arg uint64) error { return f(now, arg) }

// Staler is implemented by handlers whose events can become no-ops before
// they are due: a try_wait's time limit once the wait has ended. Stale(arg)
// reports that the event with arg will do nothing when it runs, whatever
// happens before then; the engine may then drop it (Engine.compact).
type Staler interface {
	Stale(arg uint64) bool
}

// compactFloor is the queue length below which the engine never looks for
// stale events: a queue this short costs little to keep, and looking costs a
// call per event.
const compactFloor = 128

// event is a queued event. It holds no pointer (its handler waits in
// Engine.hs), so moving it through the heap is a plain copy.
type event struct {
	at   Cycle
	key  uint64 // the phase (top 8 bits), then the order of scheduling (2^56 events are beyond any run): ties within a cycle
	arg  uint64
	slot int32 // its handler's index in Engine.hs
}

// before orders events by cycle, then phase, then scheduling order.
func (a *event) before(b *event) bool {
	return a.at < b.at || a.at == b.at && a.key < b.key
}

// Engine is the event queue and the clock. The zero value is not usable; call New.
type Engine struct {
	now     Cycle
	seq     uint64
	q       []event
	hs      []Handler // handlers of queued events, by event.slot
	free    []int32   // slots of hs not in use
	handled uint64
	limit   Cycle  // Run's limit, which StepTo respects
	clock   *Cycle // what Now reads: now, or its Group's clock
	hint    *Cycle // never later than the next event's cycle: own, or its slot in its Group's
	ownHint Cycle
	grp     *Group // the group that runs the engine, or nil
	idx     int    // its place in the group
	turn    bool   // it has the group's turn this cycle (Serial)

	near    nearQueue // the events of the next nearSpan cycles; q holds the rest
	nearOff bool      // every event in q (the reference order, for tests)

	compactAt int   // queue length at which Schedule next drops stale events
	staleLast Cycle // the latest cycle of a dropped event, which the clock still reaches
	staleN    uint64
}

// New returns an engine at cycle 0 with an empty queue.
func New() *Engine {
	e := &Engine{q: make([]event, 0, 64), hs: make([]Handler, 0, 64), free: make([]int32, 0, 64), near: newNearQueue(), compactAt: compactFloor, ownHint: Never}
	e.clock, e.hint = &e.now, &e.ownHint
	return e
}

// Now is the cycle of the event being handled (or of the last one handled).
func (e *Engine) Now() Cycle { return *e.clock }

// Pending reports how many events are queued.
func (e *Engine) Pending() int { return len(e.q) + e.near.n }

// Handled reports how many events have run since New.
func (e *Engine) Handled() uint64 { return e.handled }

// Schedule queues h to run at cycle at in phase ph, with arg passed back to
// it. Scheduling in the past is a programming error in the caller and panics
// with a message naming the event.
func (e *Engine) Schedule(at Cycle, ph Phase, h Handler, arg uint64) {
	if at < e.now {
		panic(fmt.Sprintf("sim: event %T scheduled at cycle %d, before now (%d)", h, at, e.now))
	}
	e.seq++
	*e.hint = min(*e.hint, at)
	ev := event{at: at, key: uint64(ph)<<56 | e.seq, arg: arg, slot: e.hold(h)}
	if at-e.now < nearSpan && !e.nearOff {
		e.near.push(ev)
		return
	}
	e.q = append(e.q, ev)
	e.up(len(e.q) - 1)
	if len(e.q) >= e.compactAt {
		e.compact()
	}
}

// compact drops the queued events whose handlers say they are stale and
// rebuilds the heap of the rest. Events are totally ordered by (cycle, key),
// so the rest run in the order they would have run in anyway; a dropped
// event would have done nothing but move the clock, so the clock still
// reaches its cycle when the queue runs dry (Run), and Handled counts it.
// Without this, a kernel whose try_waits end long before their time limits
// keeps every limit queued: a thousand events, ten levels of heap.
func (e *Engine) compact() {
	live := e.q[:0]
	for _, ev := range e.q {
		if st, ok := e.hs[ev.slot].(Staler); ok && st.Stale(ev.arg) {
			e.release(ev.slot)
			e.staleLast = max(e.staleLast, ev.at)
			e.staleN++
			continue
		}
		live = append(live, ev)
	}
	e.q = live
	for i := len(e.q)/2 - 1; i >= 0; i-- {
		e.down(i)
	}
	e.compactAt = max(compactFloor, 2*len(e.q))
}

// hold keeps h for a queued event and returns its slot.
func (e *Engine) hold(h Handler) int32 {
	if n := len(e.free); n > 0 {
		i := e.free[n-1]
		e.free = e.free[:n-1]
		e.hs[i] = h
		return i
	}
	e.hs = append(e.hs, h)
	return int32(len(e.hs) - 1)
}

// release returns the handler in slot i and frees the slot.
func (e *Engine) release(i int32) Handler {
	h := e.hs[i]
	e.hs[i] = nil
	e.free = append(e.free, i)
	return h
}

// StepTo advances the clock to cycle at without an event, if no queued event
// comes at or before it (and at is not past limit). It lets a component that
// has work every cycle run its next cycle directly instead of through the
// queue; the order of events is unchanged, since nothing else is due by then.
func (e *Engine) StepTo(at Cycle) bool {
	if at < e.now || at > e.limit || (len(e.q) > 0 && e.q[0].at <= at) || e.near.dueBy(e.now, at) {
		return false
	}
	e.now = at
	e.handled++
	return true
}

// NextAt reports the cycle of the earliest queued event, or Never.
func (e *Engine) NextAt() Cycle { return e.nextAt() }

func (e *Engine) nextAt() Cycle {
	i, fromNear := e.next()
	switch {
	case fromNear:
		return e.near.peek(i).at
	case len(e.q) > 0:
		return e.q[0].at
	}
	return Never
}

// next finds the next event: the first of the near calendar's bucket i
// (fromNear) or, when the heap's comes first or the calendar is empty, the
// heap's top.
func (e *Engine) next() (i int, fromNear bool) {
	i = e.near.first(e.now)
	return i, i >= 0 && (len(e.q) == 0 || e.near.peek(i).before(&e.q[0]))
}

// Run handles events in order until the queue is empty, a handler returns an
// error, or the next event lies beyond until. It returns ErrLimit (wrapped in
// *LimitError) in the last case, leaving that event queued.
func (e *Engine) Run(until Cycle) error {
	e.limit = until
	for len(e.q) > 0 || e.near.n > 0 {
		i, fromNear := e.next()
		if at := e.nextIn(fromNear, i); at > until {
			return &LimitError{Limit: until, Next: at}
		}
		var ev event
		if fromNear {
			ev = e.near.take(i)
		} else {
			ev = e.pop()
		}
		e.now = ev.at
		e.handled++
		if err := e.release(ev.slot).Handle(ev.at, ev.arg); err != nil {
			return err
		}
	}
	return e.drainStale(until)
}

// drainStale moves the clock to the latest dropped event once the queue is
// empty, as running those events would have, and counts them as handled.
func (e *Engine) drainStale(until Cycle) error {
	if e.staleLast > until && e.staleLast > e.now {
		return &LimitError{Limit: until, Next: e.staleLast}
	}
	e.now = max(e.now, e.staleLast)
	e.handled += e.staleN
	e.staleN = 0
	return nil
}

// nextIn is the cycle of the next event: the near calendar's first (bucket
// i) or the heap's.
func (e *Engine) nextIn(fromNear bool, i int) Cycle {
	if fromNear {
		return e.near.peek(i).at
	}
	return e.q[0].at
}

// LimitError says Run stopped because the next event lies past its limit.
type LimitError struct {
	Limit, Next Cycle
}

func (l *LimitError) Error() string {
	return fmt.Sprintf("cycle limit %d reached (next event at cycle %d)", l.Limit, l.Next)
}

func (e *Engine) pop() event {
	n := len(e.q) - 1
	top := e.q[0]
	e.q[0] = e.q[n]
	e.q = e.q[:n]
	if n > 0 {
		e.down(0)
	}
	return top
}

// up and down move one event along its path through the heap, shifting the
// events it passes by one place each rather than swapping it with them.
func (e *Engine) up(i int) {
	x := e.q[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.before(&e.q[p]) {
			break
		}
		e.q[i] = e.q[p]
		i = p
	}
	e.q[i] = x
}

func (e *Engine) down(i int) {
	n := len(e.q)
	x := e.q[i]
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		m := l
		if r := l + 1; r < n && e.q[r].before(&e.q[l]) {
			m = r
		}
		if !e.q[m].before(&x) {
			break
		}
		e.q[i] = e.q[m]
		i = m
	}
	e.q[i] = x
}
