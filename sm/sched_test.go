package sm

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// Gates of a sub-partition's scheduler, called directly: its choice among
// ready warps, its pipes and its resume port.

// The scheduler's choice among the ready warps: GTO keeps the warp it
// issued last while that warp is ready, else takes the oldest; LRR takes
// the first slot after the last; a warp whose last instruction yielded
// issues only when no other is ready.
func TestSchedulerChoosesByPolicy(t *testing.T) {
	type w = readyWarp
	cases := []struct {
		name        string
		policy      Policy
		last, yield int
		ready       []w // in the scheduler's order
		want        int // slot
	}{
		{"gto takes the oldest ready warp", GTO, -1, -1, []w{{4, 4}, {0, 0}, {8, 8}}, 0},
		{"gto keeps the warp it issued last", GTO, 8, -1, []w{{0, 0}, {4, 4}, {8, 8}}, 8},
		{"gto leaves a warp that yielded for the oldest", GTO, 8, 8, []w{{8, 8}, {4, 4}, {12, 12}}, 4},
		{"a yielding warp loses even when oldest", GTO, 4, 0, []w{{0, 0}, {12, 12}}, 12},
		{"a yielding warp issues when no other is ready", GTO, 0, 0, []w{{0, 0}}, 0},
		{"lrr takes the next slot after the last", LRR, 4, -1, []w{{0, 0}, {4, 4}, {8, 8}, {12, 12}}, 8},
		{"lrr wraps around the slots", LRR, 12, -1, []w{{4, 4}, {8, 8}, {12, 12}}, 4},
		{"lrr skips a warp that yielded", LRR, 4, 8, []w{{8, 8}, {12, 12}}, 12},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScheduler(SchedSpec{Policy: tc.policy}, 64)
			sc.last, sc.yield = tc.last, tc.yield
			var pick, lastReady *wctx
			for _, r := range tc.ready {
				wc := &wctx{slot: r.slot, age: r.age}
				if wc.slot == sc.last {
					lastReady = wc
				}
				pick = sc.better(wc, pick)
			}
			if got := sc.greedy(pick, lastReady); got.slot != tc.want {
				t.Errorf("picked warp %d, want %d", got.slot, tc.want)
			}
			if got := pickFromBits(sc, tc.ready); got != tc.want {
				t.Errorf("from the candidate bits: picked warp %d, want %d", got, tc.want)
			}
		})
	}
}

// readyWarp is a ready warp of a scheduler choice test.
type readyWarp struct {
	slot int
	age  uint64
}

// pickFromBits is the scan's choice (chooseGTO, choose) among the ready
// warps rs, as the scheduler's warps in age order and all candidates.
func pickFromBits(sc scheduler, rs []readyWarp) int {
	s := &SM{warps: make([]*wctx, sc.slots)}
	sorted := slices.Clone(rs)
	slices.SortFunc(sorted, func(a, b readyWarp) int { return cmp.Compare(a.age, b.age) })
	var cand uint64
	for i, r := range sorted {
		wc := &wctx{slot: r.slot, age: r.age, pos: i}
		s.warps[r.slot] = wc
		sc.warps = append(sc.warps, wc)
		if r.slot == sc.last {
			sc.q.last = i
		}
		cand |= 1 << i
	}
	i := s.choose(&sc, cand)
	if sc.gto {
		i = s.chooseGTO(&sc, cand)
	}
	return sc.warps[i].slot
}

// A warp instruction holds its pipe interval.<class> cycles: the pipe
// accepts the next at issue + interval and not a cycle sooner. FFMA takes
// either half of the FMA pipe, so two issue back to back; an integer add
// the integer pipe or the FMA-heavy one.
func TestPipeIntervalsPerClass(t *testing.T) {
	cfg := DefaultConfig()
	for k := isa.Class(1); int(k) < isa.NumClasses; k++ {
		t.Run(fmt.Sprintf("interval.%s %d", k, cfg.Pipes.Interval[k]), func(t *testing.T) {
			sc := newScheduler(cfg.Sched, 64)
			in := &isa.Instr{Op: isa.OpNop, Class: k}
			a, b := pipesOf(in)
			pp := pipePair{int16(a), int16(b)}
			const now = 100
			sc.occupy(now, pp, cfg.Pipes.Interval[k])
			want := sim.Cycle(now + cfg.Pipes.Interval[k])
			if pp[1] >= 0 {
				sc.occupy(now, pp, cfg.Pipes.Interval[k]) // the other half
			}
			if got := sc.pipeReady(pp); got != want {
				t.Errorf("the pipe takes the next %s instruction at %d, want %d", k, got, want)
			}
		})
	}
	t.Run("integer adds take the integer or the FMA-heavy pipe", func(t *testing.T) {
		sc := newScheduler(cfg.Sched, 64)
		add := isa.Instr{Op: isa.OpAdd, Type: isa.U32, Class: isa.ClassALU, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), isa.R(2)}}
		a, b := pipesOf(&add)
		pp := pipePair{int16(a), int16(b)}
		got := []int{sc.occupy(0, pp, 2), sc.occupy(0, pp, 2)}
		if got[0] != pipeInt || got[1] != pipeFMAHeavy {
			t.Errorf("two adds at one cycle went to pipes %v, want the integer then the FMA-heavy (%d, %d)", got, pipeInt, pipeFMAHeavy)
		}
		if r := sc.pipeReady(pp); r != 2 {
			t.Errorf("a third add may issue at %d, want 2", r)
		}
	})
}

// A scheduler resumes one warp whose try_wait answered every
// sched.wake_interval cycles (stamps.csv uniform_wake: about 11 cycles a
// warp of one scheduler); 0 resumes them at once.
func TestResumePortSpacesWakeUps(t *testing.T) {
	for _, tc := range []struct {
		interval int
		asks     []sim.Cycle
		want     []sim.Cycle // when each resumes (retrying when told to)
	}{
		{11, []sim.Cycle{100, 100, 100}, []sim.Cycle{100, 111, 122}},
		{11, []sim.Cycle{100, 105, 130}, []sim.Cycle{100, 111, 130}},
		{4, []sim.Cycle{0, 0, 0}, []sim.Cycle{0, 4, 8}},
		{0, []sim.Cycle{7, 7, 7}, []sim.Cycle{7, 7, 7}},
	} {
		t.Run(fmt.Sprintf("sched.wake_interval %d, asked at %v", tc.interval, tc.asks), func(t *testing.T) {
			sc := newScheduler(SchedSpec{WakeInterval: tc.interval}, 64)
			for i, at := range tc.asks {
				free, ok := sc.takePort(at)
				for !ok {
					at = free
					free, ok = sc.takePort(at)
				}
				if at != tc.want[i] {
					t.Errorf("resume %d asked at %d: resumed at %d, want %d", i, tc.asks[i], at, tc.want[i])
				}
			}
		})
	}
}

// A warp's cycles are charged to the reason it waited for, from when it was
// last accounted to when it is looked at again: each cycle once, none twice.
func TestStallAccountingChargesEachReason(t *testing.T) {
	type step struct {
		at     sim.Cycle
		reason Reason // the reason from this cycle on
	}
	for _, tc := range []struct {
		name  string
		steps []step
		end   sim.Cycle
		want  map[Reason]uint64
	}{
		{"one reason", []step{{0, ReasonLongScoreboard}}, 40, map[Reason]uint64{ReasonLongScoreboard: 40}},
		{"a wait, a pick, the next wait", []step{{0, ReasonWait}, {4, ReasonSelected}, {5, ReasonMbarrier}}, 105,
			map[Reason]uint64{ReasonWait: 4, ReasonSelected: 1, ReasonMbarrier: 100}},
		{"looked at twice in one cycle", []step{{0, ReasonNotSelected}, {3, ReasonMIOThrottle}, {3, ReasonMathPipeThrottle}}, 10,
			map[Reason]uint64{ReasonNotSelected: 3, ReasonMathPipeThrottle: 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wc := &wctx{}
			for _, s := range tc.steps {
				wc.charge(s.at)
				wc.reason = s.reason
			}
			wc.charge(tc.end)
			for r := Reason(0); r < numReasons; r++ {
				if wc.stall[r] != tc.want[r] {
					t.Errorf("%s: %d cycles, want %d", r, wc.stall[r], tc.want[r])
				}
			}
		})
	}
	t.Run("a busy pipe or queue names its throttle", func(t *testing.T) {
		for c, want := range map[isa.Class]Reason{
			isa.ClassShared: ReasonMIOThrottle, isa.ClassSyncs: ReasonMIOThrottle, isa.ClassWarpSync: ReasonMIOThrottle,
			isa.ClassGlobal: ReasonLGThrottle, isa.ClassLocal: ReasonLGThrottle, isa.ClassTMA: ReasonLGThrottle,
			isa.ClassFMA: ReasonMathPipeThrottle, isa.ClassSFU: ReasonMathPipeThrottle, isa.ClassALU: ReasonMathPipeThrottle,
		} {
			if got := throttleReason(c); got != want {
				t.Errorf("class %s: %s, want %s", c, got, want)
			}
		}
	})
}
