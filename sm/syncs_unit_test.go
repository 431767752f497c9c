package sm

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// Timing gates of the barrier (SYNCS) unit, called directly: each case
// checks the cycle an event happens and, where it matters, that it does
// not happen a cycle sooner.

var (
	arriveI  = isa.Instr{Op: isa.OpMbarArrive, Ops: []isa.Operand{isa.Addr(-1, 0)}}
	countedI = isa.Instr{Op: isa.OpMbarArrive, Ops: []isa.Operand{isa.Addr(-1, 0), isa.Imm(4)}}
)

// unitWith returns an idle unit of the h200 spec changed by mod.
func unitWith(mod func(*SyncsSpec)) syncsUnit {
	spec := DefaultConfig().Syncs
	if mod != nil {
		mod(&spec)
	}
	return newSyncsUnit(spec)
}

// The unit applies an update syncs.latency after its issue and, saturated,
// one every syncs.interval cycles (syncs.count_interval for an arrive with
// a count operand): probe.csv's arrive_throughput, 2.04 cycles an update.
func TestBarrierUnitUpdateThroughput(t *testing.T) {
	cases := []struct {
		name   string
		in     isa.Instr
		mod    func(*SyncsSpec)
		issue  []sim.Cycle // issue cycles of the updates
		wantAt []sim.Cycle // when each is applied
	}{
		{name: "one update is applied syncs.latency after issue", in: arriveI,
			issue: []sim.Cycle{100}, wantAt: []sim.Cycle{136}},
		{name: "saturated arrives apply syncs.interval apart", in: arriveI,
			issue: []sim.Cycle{0, 0, 0, 0}, wantAt: []sim.Cycle{36, 38, 40, 42}},
		{name: "counted arrives apply syncs.count_interval apart", in: countedI,
			issue: []sim.Cycle{0, 0, 0}, wantAt: []sim.Cycle{36, 40, 44}},
		{name: "updates one a cycle are bound by the unit, not the issue", in: arriveI,
			issue: []sim.Cycle{0, 1, 2, 3}, wantAt: []sim.Cycle{36, 38, 40, 42}},
		{name: "an update issued after the unit drained waits only its latency", in: arriveI,
			issue: []sim.Cycle{0, 0, 50}, wantAt: []sim.Cycle{36, 38, 86}},
		{name: "syncs.interval 3", in: arriveI, mod: func(s *SyncsSpec) { s.Interval = 3 },
			issue: []sim.Cycle{0, 0, 0}, wantAt: []sim.Cycle{36, 39, 42}},
		{name: "syncs.latency 42", in: arriveI, mod: func(s *SyncsSpec) { s.Latency = 42 },
			issue: []sim.Cycle{0, 0}, wantAt: []sim.Cycle{42, 44}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := unitWith(tc.mod)
			for i, now := range tc.issue {
				if got := u.scheduleUpdate(now, &tc.in); got != tc.wantAt[i] {
					t.Errorf("update %d issued at %d: applied at %d, want %d", i, now, got, tc.wantAt[i])
				}
			}
		})
	}
}

// The unit holds syncs.queue updates waiting; while it is fuller the warps
// issue no more updates (issueAt), and the first that may issue does so as
// the oldest waiting update is applied.
func TestBarrierUnitQueueHoldsIssue(t *testing.T) {
	for _, tc := range []struct {
		queued int
		want   sim.Cycle // issueAt after queued updates issued at cycle 0
	}{
		{1, 0}, {16, 0}, {17, 1}, {18, 3}, {24, 15},
	} {
		t.Run(fmt.Sprintf("%d updates queued", tc.queued), func(t *testing.T) {
			u := unitWith(nil)
			for range tc.queued {
				u.scheduleUpdate(0, &arriveI)
			}
			if got := u.issueAt(); got != tc.want {
				t.Errorf("next update may issue at %d, want %d (syncs.queue %d, syncs.latency %d, syncs.interval %d)",
					got, tc.want, u.spec.Queue, u.spec.Latency, u.spec.Interval)
			}
		})
	}
}

// A warp issues its barrier operations syncs.warp_interval apart
// (microbench.csv's 64 back-to-back arrives of one thread: 5.08 cycles):
// one warp's arrives, run on the SM, issue exactly that far apart.
func TestBarrierUnitPerWarpInterval(t *testing.T) {
	for _, ivl := range []int{3, 5, 8} {
		t.Run(fmt.Sprintf("syncs.warp_interval %d", ivl), func(t *testing.T) {
			a := newAsm(4, 2)
			bar := isa.Addr(-1, 0)
			a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(1000)))
			const n = 6
			for range n {
				a.emit(mbar(isa.OpMbarArrive, 0, 0, bar))
			}
			a.emit(exit)
			cfg := DefaultConfig()
			cfg.Syncs.WarpInterval = ivl
			_, obs := runObserved(t, a.done(), 32, &cfg)
			for pc := 2; pc <= n; pc++ {
				if d := obs.first(0, pc) - obs.first(0, pc-1); d != uint64(ivl) {
					t.Errorf("arrive %d issued %d cycles after the one before, want %d", pc, d, ivl)
				}
			}
		})
	}
}

// A phase check runs syncs.check (a test_wait syncs.test_wait) after its
// issue, after the warp's own updates and every update issued before it,
// and takes syncs.check_cost of the unit's cycles — except a warp's repeated
// polls of a barrier it already waits on, which the unit keeps registered,
// unless they go through a per-thread address.
func TestPhaseChecksShareTheUnit(t *testing.T) {
	type check struct {
		op                    isa.Op
		now, after            sim.Cycle
		registered, perThread bool
		want                  sim.Cycle
	}
	cases := []struct {
		name    string
		updates int // updates issued at cycle 0 first
		checks  []check
	}{
		{name: "a try_wait's check runs syncs.check after issue",
			checks: []check{{op: isa.OpMbarTryWait, now: 10, want: 17}}},
		{name: "a test_wait's check runs syncs.test_wait after issue",
			checks: []check{{op: isa.OpMbarTestWait, now: 10, want: 17}}},
		{name: "a check waits for the warp's latest update",
			checks: []check{{op: isa.OpMbarTryWait, now: 10, after: 60, want: 60}}},
		{name: "a check comes after every update issued before it and its cycles", updates: 2, // applied at 42 and 44, 2 cycles each
			checks: []check{{op: isa.OpMbarTryWait, now: 1, want: 40}}},
		{name: "two new checks in one cycle take syncs.check_cost each",
			checks: []check{{op: isa.OpMbarTryWait, now: 0, want: 7}, {op: isa.OpMbarTryWait, now: 0, want: 9}}},
		{name: "a registered poll takes no slot",
			checks: []check{{op: isa.OpMbarTryWait, now: 0, registered: true, want: 7}, {op: isa.OpMbarTryWait, now: 0, want: 7}}},
		{name: "a registered poll through a per-thread address takes a slot",
			checks: []check{{op: isa.OpMbarTryWait, now: 0, registered: true, perThread: true, want: 7}, {op: isa.OpMbarTryWait, now: 0, want: 9}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := unitWith(nil)
			for range tc.updates {
				u.scheduleUpdate(0, &arriveI)
			}
			for i, c := range tc.checks {
				if got := u.scheduleCheck(c.now, c.op, c.after, c.registered, c.perThread); got != c.want {
					t.Errorf("check %d issued at %d: runs at %d, want %d", i, c.now, got, c.want)
				}
			}
		})
	}
}

// What a wait's answer costs, from the unit's spec: a result syncs.result
// after its check, a true answer no sooner than syncs.acquire after the
// wait's issue, a guarded-off wait's pass through the unit, and the time
// limits of suspended try_waits.
func TestBarrierUnitAnswerTimes(t *testing.T) {
	u := unitWith(nil)
	for _, c := range []struct {
		name      string
		got, want sim.Cycle
	}{
		{"result syncs.result after the update", u.resultAt(100), 105},
		{"acquire syncs.acquire after issue", u.acquiredAt(100), 136},
		{"guarded-off wait passes the unit syncs.guarded_off after issue", u.passedAt(100), 125},
		{"un-hinted try_wait answers false syncs.try_wait_timeout after issue", u.deadline(100, false), 7880},
		{"hinted try_wait answers false syncs.try_wait_hint_timeout after issue", u.deadline(100, true), 7938},
		{"a completion reaches another warp's try_wait syncs.visibility later", u.visibleAt(100, false, true), 102},
		{"a warp's completion reaches test_wait polls syncs.poll_visibility later", u.visibleAt(100, true, true), 120},
		{"a copy's completion reaches test_wait polls syncs.visibility later", u.visibleAt(100, true, false), 102},
		{"a try_wait seeing a completion late wakes syncs.try_wait_wake after", u.lateWakeAt(102, 7000), 115},
		{"... or at its deadline", u.lateWakeAt(102, 110), 110},
	} {
		if c.got != c.want {
			t.Errorf("%s: %d, want %d", c.name, c.got, c.want)
		}
	}
	sm, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sm.cfg.Syncs.Check = 30
	ptx := newSyncsUnit(sm.syncsSpec(&isa.Program{}))
	if got := ptx.passedAt(0); got != 35 {
		t.Errorf("PTX: guarded-off wait with syncs.check 30: passes at %d, want 35 (check + result)", got)
	}
}

// A try_wait on a phase that completed long before answers true
// max(syncs.check + syncs.result, syncs.acquire) after its issue: the
// instruction that reads its predicate issues then, not a cycle sooner.
func TestTryWaitAnswerLatency(t *testing.T) {
	for _, tc := range []struct {
		name                   string
		check, result, acquire int
		want                   uint64
	}{
		{"h200: the acquire bounds the answer", 7, 5, 27, 27},
		{"without an acquire: check and result", 7, 5, 0, 12},
		{"a slow check", 30, 5, 27, 35},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAsm(4, 4)
			bar := isa.Addr(-1, 0)
			a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(32))) // the warp's arrive completes phase 0
			a.emit(mbar(isa.OpMbarArrive, 0, 0, bar))
			a.emit(isa.Instr{Op: isa.OpDelay, Ops: []isa.Operand{isa.Imm(300)}}) // the phase completes meanwhile
			a.emit(mbar(isa.OpMbarTryWait, isa.FParity, 1, isa.P(0), bar, isa.Imm(0)))
			a.emit(isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Imm(1), isa.Imm(2), isa.P(0)}})
			a.emit(exit)
			cfg := DefaultConfig()
			cfg.Syncs.Check, cfg.Syncs.Result = tc.check, tc.result
			cfg.Syncs.Acquire, cfg.Ptxas.SyncsAcquireOverlap = tc.acquire, 0
			_, obs := runObserved(t, a.done(), 32, &cfg)
			if got := obs.first(0, 4) - obs.first(0, 3); got != tc.want {
				t.Errorf("the predicate's reader issued %d cycles after the try_wait, want %d", got, tc.want)
			}
		})
	}
}

// A try_wait answers false at its time limit, counted from its issue, when
// its phase does not complete: the instruction that reads its predicate
// issues at that cycle and not before, with and without a suspend-time
// hint, whatever the limit.
func TestTryWaitTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hint  bool
		limit int
	}{
		{"un-hinted, syncs.try_wait_timeout 300", false, 300},
		{"un-hinted, syncs.try_wait_timeout 7780 (h200)", false, 7780},
		{"hinted, syncs.try_wait_hint_timeout 500", true, 500},
		{"hinted, syncs.try_wait_hint_timeout 7838 (h200)", true, 7838},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := newAsm(4, 4)
			bar := isa.Addr(-1, 0)
			a.emit(mbar(isa.OpMbarInit, 0, 0, bar, isa.Imm(2))) // two arrivals: the phase never completes
			flags := isa.FParity
			if tc.hint {
				flags |= isa.FHint
			}
			a.emit(mbar(isa.OpMbarTryWait, flags, 1, isa.P(0), bar, isa.Imm(0)))
			a.emit(isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Imm(1), isa.Imm(2), isa.P(0)}})
			a.emit(exit)
			cfg := DefaultConfig()
			cfg.Syncs.TryWaitTimeout, cfg.Syncs.TryWaitHintTimeout = tc.limit, tc.limit
			_, obs := runObserved(t, a.done(), 32, &cfg)
			if got := obs.first(0, 2) - obs.first(0, 1); got != uint64(tc.limit) {
				t.Errorf("the predicate's reader issued %d cycles after the try_wait, want %d", got, tc.limit)
			}
		})
	}
}

// When a phase completes, the unit answers the try_waits suspended on it one
// at a time, syncs.wake_cost of its cycles each (trywait.csv wake_all:
// waiters resume 2 cycles apart), each reaching its warp syncs.try_wait_wake
// later (syncs.visibility more for warps other than the completer).
func TestSuspendedWaitsWakeOneAtATime(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cost  int
		other []bool
		want  []sim.Cycle // from the completion at cycle 1000
	}{
		{"syncs.wake_cost 2 (h200)", 2, []bool{true, true, true, true}, []sim.Cycle{15, 17, 19, 21}},
		{"syncs.wake_cost 0: all at once", 0, []bool{true, true, true}, []sim.Cycle{15, 15, 15}},
		{"syncs.wake_cost 3", 3, []bool{true, true, true}, []sim.Cycle{15, 18, 21}},
		{"the completer's own wait sees its completion at once", 2, []bool{false, true}, []sim.Cycle{13, 17}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := unitWith(func(s *SyncsSpec) { s.WakeCost = tc.cost })
			for i, other := range tc.other {
				if got := u.wakeAt(1000, other) - 1000; got != tc.want[i] {
					t.Errorf("waiter %d resumes %d cycles after the completion, want %d", i, got, tc.want[i])
				}
			}
		})
	}
}

// The calendar books consecutive free cycles at or after the asked one,
// so checks fill the gaps between updates scheduled further ahead.
func TestSlotCalendarFillsGaps(t *testing.T) {
	var c slotCalendar
	for _, b := range []struct {
		at        sim.Cycle
		cost      int
		wantStart sim.Cycle
	}{
		{10, 2, 10}, // [10, 12)
		{14, 2, 14}, // [14, 16)
		{9, 2, 12},  // [9, 11) overlaps: the gap [12, 14) fits
		{9, 3, 16},  // no gap of 3 before 16
		{9, 1, 9},   // [9, 10) is still free
		{9, 0, 9},   // a zero cost books nothing
	} {
		if got := c.reserve(0, b.at, b.cost); got != b.wantStart {
			t.Errorf("reserve(%d, %d) = %d, want %d", b.at, b.cost, got, b.wantStart)
		}
	}
}

// The calendar's jumps over runs of busy cycles book what walking a cycle
// at a time books: bursts of bookings of 0 to 5 cycles at latencies from 0
// to a backlog of several calendars (which takes the slots of cycles still
// to come, so that the calendar must walk from then on), as time moves on
// by 0 to 40 cycles between bursts.
func TestSlotCalendarJumpsAsItWalks(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for run := 0; run < 200; run++ {
		fast, walk := new(slotCalendar), new(slotCalendar)
		now := sim.Cycle(rng.IntN(5000))
		backlog := []int{50, 500, 3000, 9000}[run%4]
		for op := 0; op < 3000; op++ {
			if rng.IntN(8) == 0 {
				now += sim.Cycle(rng.IntN(40))
			}
			at := now + sim.Cycle(rng.IntN(backlog))
			cost := rng.IntN(6)
			got, want := fast.reserve(now, at, cost), walk.reserveWalking(now, at, cost)
			if got != want {
				t.Fatalf("run %d, booking %d: reserve(%d, %d, %d) = %d, walking %d", run, op, now, at, cost, got, want)
			}
		}
		if fast.busy != walk.busy {
			t.Fatalf("run %d: the calendars differ", run)
		}
		if backlog == 50 && fast.aliased {
			t.Errorf("run %d: a 50-cycle backlog took the slot of a cycle to come", run)
		}
	}
}

// A SASS program's barrier operations are answered at the unit's measured
// latencies (latency3.csv: syncs.latency, syncs.acquire 36); a PTX program's
// at the compiler model's, which fold in ptxas's stall counts around them
// (syncs.latency + ptxas.syncs_latency_pad = 42, syncs.acquire - ptxas.syncs_acquire_overlap = 27),
// and a completion reaches its test_wait polls ptxas.poll_visibility_pad
// later (35 against 20: the BSYNC a SASS spin pays after its wait).
func TestSyncsSpecByFrontend(t *testing.T) {
	s, err := New(DefaultConfig(), sim.New(), &fakeMem{b: map[uint64]byte{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		scheduled              bool
		latency, acquire, poll int
	}{{true, 36, 36, 20}, {false, 42, 27, 35}} {
		spec := s.syncsSpec(&isa.Program{Scheduled: tc.scheduled})
		if spec.Latency != tc.latency || spec.Acquire != tc.acquire || spec.PollVisibility != tc.poll {
			t.Errorf("Scheduled %v: syncs latency %d, acquire %d, poll visibility %d; want %d, %d, %d", tc.scheduled,
				spec.Latency, spec.Acquire, spec.PollVisibility, tc.latency, tc.acquire, tc.poll)
		}
	}
}

// A constant load takes syncs.ldc_cost of the unit's cycles where an update
// issued with it would be applied: alone it is not delayed, behind
// saturating arrives it waits for a free slot, and the arrives issued after
// it wait for it (mio_share.cu: a mix of both takes the sum of their times).
func TestConstantLoadTakesTheBarrierPort(t *testing.T) {
	cases := []struct {
		name      string
		mod       func(*SyncsSpec)
		arrives   []sim.Cycle // issue cycles of the arrives before the load
		ldc       sim.Cycle   // the load's issue
		wantDelay sim.Cycle   // beyond its own latency
		after     sim.Cycle   // an arrive issued with the load...
		wantAfter sim.Cycle   // ...is applied then
	}{
		{name: "alone, no delay", ldc: 10, wantDelay: 0, after: 10, wantAfter: 48},
		{name: "behind three saturating arrives", arrives: []sim.Cycle{0, 0, 0}, ldc: 0, wantDelay: 6, after: 0, wantAfter: 44},
		{name: "after the unit drained", arrives: []sim.Cycle{0, 0}, ldc: 20, wantDelay: 0, after: 20, wantAfter: 58},
		{name: "syncs.ldc_cost 0 books nothing", mod: func(s *SyncsSpec) { s.LdcCost = 0 },
			arrives: []sim.Cycle{0, 0}, ldc: 0, wantDelay: 0, after: 0, wantAfter: 40},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			u := unitWith(tc.mod)
			for _, at := range tc.arrives {
				u.scheduleUpdate(at, &arriveI)
			}
			if got := u.ldcDelay(tc.ldc); got != tc.wantDelay {
				t.Errorf("load delayed %d cycles, want %d", got, tc.wantDelay)
			}
			if got := u.scheduleUpdate(tc.after, &arriveI); got != tc.wantAfter {
				t.Errorf("the next arrive applied at %d, want %d", got, tc.wantAfter)
			}
		})
	}
}
