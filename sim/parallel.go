package sim

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// A group's engines can run a cycle on several host threads and give the
// results they give on one. Each engine's events of the cycle run on one
// thread, in their order, as on one thread; the engines' own state is
// theirs alone. Whatever the engines share, a component touches only after
// calling its engine's Serial, which waits until every engine before it in
// the group's order has finished the cycle: from then on the engine runs
// as it would have on one thread, after those engines and before the ones
// after it, which wait for it in turn. Work before an engine's first
// Serial of a cycle (the warps' issue and arithmetic, shared memory,
// barriers) overlaps; what follows it runs in the group's order.
//
// The first engine (a GPU's dispatcher, which starts CTAs on the others)
// runs alone before the rest. An error in a handler stops the run after the
// cycle, as on one thread, but the engines after the failing one may have
// run that cycle too: Faulted then says the engines' state is not what one
// thread would have left, and the run must be redone on one thread for an
// exact report.

// SetThreads runs the group's engines on up to n host threads (n ≤ 1:
// one). Stop ends the threads.
func (g *Group) SetThreads(n int) {
	g.Stop()
	if n > 1 {
		k := len(g.engs)
		g.par = &parallel{threads: n, isDue: make([]uint64, k), finished: make([]atomic.Uint64, k), errs: make([]error, k), panics: make([]any, k),
			current: make([]int, n)}
	}
}

// SetUnits keeps the engines of one unit on one thread: engine i's unit
// is units[i] (nil: each engine its own). Engines that act on each other's
// state within a cycle, not through Serial, must share a unit: the SMs of a
// GPC, whose clusters' CTAs reach into each other's shared memory,
// barriers and copy engines. A unit's engines still run in the group's
// order, between the others'.
func (g *Group) SetUnits(units []int) {
	if g.par != nil {
		g.par.units = units
	}
}

// Faulted reports that a handler failed while the engines ran on several
// threads (see SetThreads).
func (g *Group) Faulted() bool { return g.par != nil && g.par.faulted }

// Stop ends the group's extra threads; the group runs on one until
// SetThreads.
func (g *Group) Stop() {
	if g.par == nil {
		return
	}
	g.par.quit.Store(true)
	g.par = nil
}

// Serial is called by a component of the engine before it touches state
// that its group's engines share: on several threads, it waits until the
// engines before the one running have finished the cycle. The one running
// is this engine, or another of its unit whose event reached into this
// one's components (a CTA of a cluster into a peer's). Alone, or on one
// thread, it returns at once.
func (e *Engine) Serial() {
	if e.grp == nil || e.grp.par == nil || !e.grp.par.running {
		return
	}
	p := e.grp.par
	c := p.g.engs[p.current[p.unitOf(e.idx)%p.w]]
	if c.turn {
		return
	}
	p.waitFor(c.idx)
	c.turn = true
}

// unitOf is engine i's unit.
func (p *parallel) unitOf(i int) int {
	if p.units != nil {
		return p.units[i]
	}
	return i
}

// parallel is the state of a group running on several threads. The
// threads spin between passes and while they wait for their turn: a pass
// is a cycle's events of up to 132 SMs, a few microseconds of work, which
// a sleep and wake-up each would cost as much as.
type parallel struct {
	threads int
	units   []int         // each engine's unit (SetUnits); nil: its index
	current []int         // the engine each thread is running
	started int           // extra threads running
	seq     atomic.Uint64 // passes started: the threads wait for it to move
	left    atomic.Int32  // shares of the pass not finished
	quit    atomic.Bool
	running bool // a pass is under way on several threads
	w       int  // shares in the pass

	epoch    uint64          // the pass, counted
	due      []int           // the engines the pass runs, in order
	isDue    []uint64        // isDue[i] == epoch: engine i is in the pass
	finished []atomic.Uint64 // finished[i] == epoch: engine i has run its events of the pass
	errs     []error         // each engine's handler error in the pass
	panics   []any           // each engine's handler panic in the pass, with its stack
	faulted  bool

	prefix atomic.Int64 // every engine before it has finished the pass (or is not in it)
	t      Cycle        // the pass's cycle
	g      *Group
}

// spinsBeforeYield is how long a waiting thread spins before it lets the
// Go scheduler run something else.
const spinsBeforeYield = 1 << 12

// pass runs the engines' events of cycle t: the first engine's alone, then
// the others' on the threads.
func (p *parallel) pass(g *Group, t Cycle) error {
	if g.hints[0] <= t {
		if err := g.engs[0].runCycle(t); err != nil {
			return err
		}
	}
	p.epoch++
	p.due = p.due[:0]
	for i := 1; i < len(g.engs); i++ {
		if g.hints[i] <= t {
			p.isDue[i] = p.epoch
			p.due = append(p.due, i)
		}
	}
	w := min(p.threads, len(p.due))
	if w < 2 {
		return g.pass(t, 1)
	}
	p.start()
	p.t, p.g, p.w = t, g, w
	p.prefix.Store(0)
	p.advance()
	p.running = true
	p.left.Store(int32(p.started))
	p.seq.Add(1)
	p.share(0)
	for spins := 0; p.left.Load() > 0; spins++ {
		if spins >= spinsBeforeYield {
			runtime.Gosched()
		}
	}
	p.running = false
	for _, i := range p.due {
		if r := p.panics[i]; r != nil {
			p.faulted = true
			panic(fmt.Sprintf("engine %d on another thread: %v", i, r))
		}
		if err := p.errs[i]; err != nil {
			p.faulted = true
			for _, j := range p.due {
				p.errs[j] = nil
			}
			return err
		}
	}
	return nil
}

// start starts the extra threads, once.
func (p *parallel) start() {
	for ; p.started < p.threads-1; p.started++ {
		go p.thread(p.started+1, p.seq.Load())
	}
}

// thread is the k-th thread: it runs its share of each pass after the
// seen-th.
func (p *parallel) thread(k int, seen uint64) {
	for {
		for spins := 0; p.seq.Load() == seen; spins++ {
			if p.quit.Load() {
				return
			}
			if spins >= spinsBeforeYield {
				runtime.Gosched()
			}
		}
		seen++
		if k < p.w {
			p.share(k)
		}
		p.left.Add(-1)
	}
}

// share runs the k-th of the pass's w shares: the engines whose unit u
// has u mod w = k, each after the one before it (an engine waits only for
// earlier ones). An engine stays on one thread from pass to pass, and its
// state in that core's caches.
func (p *parallel) share(k int) {
	for _, i := range p.due {
		if p.unitOf(i)%p.w != k {
			continue
		}
		p.current[k] = i
		p.run(i)
	}
}

// run runs engine i's events of the pass and records that it has. A panic
// (a bug) is kept for the group's own goroutine to raise again, where the
// caller's recover sees it; the engines after this one go on meanwhile.
func (p *parallel) run(i int) {
	defer func() {
		if r := recover(); r != nil {
			p.panics[i] = fmt.Sprintf("%v\n%s", r, debug.Stack())
		}
		p.finished[i].Store(p.epoch)
		if p.prefix.Load() == int64(i) {
			p.advance()
		}
	}()
	e := p.g.engs[i]
	e.turn = false
	p.errs[i] = e.runCycle(p.t)
}

// advance moves the prefix past the engines that have finished or are not
// in the pass. The thread that finishes the engine at the prefix moves it;
// one that finishes a later engine stores that it has and leaves it, unless
// the prefix has reached that engine meanwhile (it looks after storing): the
// one moving the prefix looks at each engine's flag after its own move, so
// it sees every flag stored before the other thread looked (the atomics are
// sequentially consistent). Threads may still move it together; each move
// is a compare-and-swap from a value it checked.
func (p *parallel) advance() {
	n := int64(len(p.isDue))
	for {
		i := p.prefix.Load()
		if i >= n || p.isDue[i] == p.epoch && p.finished[i].Load() != p.epoch {
			return
		}
		p.prefix.CompareAndSwap(i, i+1)
	}
}

// waitFor waits until every engine before engine i has finished the pass.
func (p *parallel) waitFor(i int) {
	for spins := 0; int(p.prefix.Load()) < i; spins++ {
		if spins >= spinsBeforeYield {
			runtime.Gosched()
		}
	}
}
