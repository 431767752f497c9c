package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// sharedWorld is what the engines of parallelRun share: a log and a
// counter that decides latencies, so that any change in the order in which
// the engines touch it changes what follows.
type sharedWorld struct {
	log     []string
	counter uint64
}

// worker is one engine's component: each event does some work of its own
// and, one time in three, touches the shared world after Serial; then it
// schedules its next event at a latency that depends on what it saw.
type worker struct {
	e     *Engine
	id    int
	w     *sharedWorld
	rng   *rand.Rand
	own   []string
	left  int
	fail  int // fail at the fail-th event (0: never)
	count int
}

func (k *worker) Handle(now Cycle, arg uint64) error {
	k.count++
	if k.count == k.fail {
		return fmt.Errorf("engine %d failed at cycle %d", k.id, now)
	}
	k.own = append(k.own, fmt.Sprintf("%d/%d", now, arg))
	next := Cycle(1 + k.rng.IntN(3))
	if k.rng.IntN(3) == 0 {
		k.e.Serial()
		k.w.counter = k.w.counter*6364136223846793005 + uint64(k.id)
		k.w.log = append(k.w.log, fmt.Sprintf("%d:%d", now, k.id))
		next += Cycle(k.w.counter >> 62)
	}
	if k.left--; k.left > 0 {
		k.e.Schedule(now+next, Phase(k.rng.IntN(3)), k, arg+1)
	}
	return nil
}

// starter is the first engine's component: it wakes engine arg's worker at
// the cycle it runs (a dispatcher starting a CTA).
type starter struct {
	ws []*worker
}

func (s *starter) Handle(now Cycle, arg uint64) error {
	k := s.ws[arg]
	k.e.Schedule(now+1, PhaseDeliver, k, 1000*arg)
	return nil
}

// parallelRun runs 1 + n engines on threads host threads and returns the
// shared log, each worker's own log, and the run's error.
func parallelRun(t *testing.T, n, threads, failAt int) (string, []string, error) {
	t.Helper()
	w := &sharedWorld{}
	first := New()
	engs := []*Engine{first}
	st := &starter{}
	for i := 0; i < n; i++ {
		e := New()
		k := &worker{e: e, id: i, w: w, rng: rand.New(rand.NewPCG(uint64(i), 7)), left: 400}
		if i == n/2 {
			k.fail = failAt
		}
		st.ws = append(st.ws, k)
		engs = append(engs, e)
		e.Schedule(Cycle(i%5), PhaseTick, k, 0)
		first.Schedule(Cycle(50+i), PhaseDeliver, st, uint64(i))
	}
	g := NewGroup(engs...)
	g.SetThreads(threads)
	defer g.Stop()
	err := g.Run(Never - 1)
	if err != nil && threads > 1 && !g.Faulted() {
		t.Errorf("%d threads: the run failed (%v) and Faulted is false", threads, err)
	}
	var own []string
	for _, k := range st.ws {
		own = append(own, strings.Join(k.own, " "))
	}
	return strings.Join(w.log, " "), own, err
}

func TestParallelGroupRunsAsOneThread(t *testing.T) {
	wantShared, wantOwn, err := parallelRun(t, 24, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(wantShared) < 1000 {
		t.Fatalf("the shared log is too short to test anything: %d bytes", len(wantShared))
	}
	for _, threads := range []int{2, 3, 8} {
		shared, own, err := parallelRun(t, 24, threads, 0)
		if err != nil {
			t.Fatal(err)
		}
		if shared != wantShared {
			t.Errorf("%d threads: the engines touched their shared state in another order", threads)
		}
		for i := range own {
			if own[i] != wantOwn[i] {
				t.Errorf("%d threads: engine %d ran other events", threads, i+1)
			}
		}
	}
}

func TestParallelGroupReportsAFault(t *testing.T) {
	_, _, want := parallelRun(t, 8, 1, 30)
	if want == nil {
		t.Fatal("no error on one thread")
	}
	_, _, err := parallelRun(t, 8, 4, 30)
	if err == nil || err.Error() != want.Error() {
		t.Errorf("4 threads: error %v, want %v", err, want)
	}
}

// Serial is free for an engine alone and for a group on one thread.
func TestSerialAloneReturnsAtOnce(t *testing.T) {
	e := New()
	e.Serial()
	g := NewGroup(New(), e)
	e.Serial()
	if err := g.Run(Never - 1); err != nil {
		t.Fatal(err)
	}
}

// A handler's panic on another thread is raised again on the group's own
// goroutine, where the caller can recover it, and the run does not hang.
func TestParallelGroupRaisesAPanicOnItsGoroutine(t *testing.T) {
	engs := []*Engine{New()}
	for i := 0; i < 4; i++ {
		e := New()
		engs = append(engs, e)
		e.Schedule(7, PhaseTick, HandlerFunc(func(Cycle, uint64) error {
			if i == 2 {
				panic("boom")
			}
			return nil
		}), 0)
	}
	g := NewGroup(engs...)
	g.SetThreads(4)
	defer g.Stop()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), "boom") {
			t.Errorf("recovered %v, want the handler's panic", r)
		}
	}()
	_ = g.Run(Never - 1)
	t.Error("Run returned")
}

// An event of one engine that reaches into another engine of its unit (a
// CTA into a cluster peer's components) takes the turn of the engine
// running, not of the one reached into, which comes later in the order:
// waiting for that one's predecessors would wait for itself.
func TestSerialFromAnotherEngineOfTheUnitTakesTheRunningOnesTurn(t *testing.T) {
	engs := []*Engine{New(), New(), New(), New()}
	var log []string
	touch := func(by *Engine, name string) HandlerFunc {
		return func(now Cycle, _ uint64) error {
			by.Serial()
			log = append(log, fmt.Sprintf("%d:%s", now, name))
			return nil
		}
	}
	for c := Cycle(1); c <= 50; c++ {
		engs[1].Schedule(c, PhaseTick, touch(engs[3], "1 via 3"), 0) // engine 1 reaches into engine 3
		engs[2].Schedule(c, PhaseTick, touch(engs[2], "2"), 0)
		engs[3].Schedule(c, PhaseTick, touch(engs[3], "3"), 0)
	}
	g := NewGroup(engs...)
	g.SetThreads(2)
	g.SetUnits([]int{0, 1, 2, 1}) // engines 1 and 3 share a thread
	defer g.Stop()
	done := make(chan error, 1)
	go func() { done <- g.Run(Never - 1) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the group hung")
	}
	var want []string
	for c := 1; c <= 50; c++ {
		want = append(want, fmt.Sprintf("%d:1 via 3", c), fmt.Sprintf("%d:2", c), fmt.Sprintf("%d:3", c))
	}
	if got := strings.Join(log, " "); got != strings.Join(want, " ") {
		t.Errorf("order:\n%s\nwant:\n%s", got, strings.Join(want, " "))
	}
}
