package run_test

import (
	"fmt"
	"slices"
	"testing"
)

// trywaitPTX is calibration/h200/trywait.ptx, the H200 measurements of what
// an un-hinted try_wait does while its phase is open.
const trywaitPTX = "../calibration/h200/trywait.ptx"

// runDump runs one kernel of a PTX file and returns the words of the
// buffer parameter with index param.
func runDump(t *testing.T, file, kernel string, block, param, words int, args []string, sets ...string) []int64 {
	t.Helper()
	a := []string{"run", file, "-k", kernel, "-b", fmt.Sprint(block), "--format", "json",
		"--dump", fmt.Sprintf("%d:i64:%d", param, words)}
	for _, x := range args {
		a = append(a, "-a", x)
	}
	for _, s := range sets {
		a = append(a, "--set", s)
	}
	r := runReport(t, a...)
	v := r.Dumps[fmt.Sprint(param)]
	if len(v) != words {
		t.Fatalf("dumps %+v", r.Dumps)
	}
	w := make([]int64, words)
	for i, x := range v {
		w[i] = int64(x.(float64))
	}
	return w
}

// The barrier unit answers the try_waits suspended on a phase one at a time
// when it completes, syncs.wake_cost of its cycles each: trywait.csv's
// wake_all rows (8 waiters resume 2 cycles apart on the H200).
func TestSuspendedWaitersResumeOneAtATime(t *testing.T) {
	const waiters, reps = 8, 8
	exits := func(cost int) []int64 {
		o := runDump(t, trywaitPTX, "_Z9k_wakealliPx", 32*(waiters+1), 1, reps*(waiters+1),
			[]string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*reps*(waiters+1))},
			"syncs.try_wait_hold=0", "syncs.try_wait_timeout=7780", fmt.Sprintf("syncs.wake_cost=%d", cost),
			"sched.wake_interval=0") // the unit alone: 8 waiters are two on each scheduler
		r := reps - 1
		var e []int64
		for w := 0; w < waiters; w++ {
			e = append(e, o[r*(waiters+1)+w]-o[r*(waiters+1)+waiters])
		}
		slices.Sort(e)
		return e
	}
	serial := exits(2)
	for k := 1; k < waiters; k++ {
		if d := serial[k] - serial[k-1]; d != 2 {
			t.Errorf("syncs.wake_cost 2: waiters resume at %v after the arrive, want 2 cycles apart", serial)
			break
		}
	}
	if all := exits(0); all[waiters-1]-all[0] >= serial[waiters-1]-serial[0] {
		t.Errorf("syncs.wake_cost 0: waiters resume at %v, want closer together than %v", all, serial)
	}
}

// A scheduler resumes its suspended warps sched.wake_interval cycles apart:
// 31 waiters, eight on three of the four schedulers, resume over at least
// seven intervals (trywait.csv wake_all: 81 cycles from the first to the
// last on the H200; stamps.csv uniform_wake: 74.5).
func TestSuspendedWarpsOfOneSchedulerResumeApart(t *testing.T) {
	const waiters, reps = 31, 8
	spread := func(interval int) int64 {
		o := runDump(t, trywaitPTX, "_Z9k_wakealliPx", 32*(waiters+1), 1, reps*(waiters+1),
			[]string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*reps*(waiters+1))},
			fmt.Sprintf("sched.wake_interval=%d", interval))
		r := reps - 1
		lo, hi := int64(1<<62), int64(0)
		for w := 0; w < waiters; w++ {
			e := o[r*(waiters+1)+w]
			lo, hi = min(lo, e), max(hi, e)
		}
		return hi - lo
	}
	if got := spread(11); got < 7*11 {
		t.Errorf("sched.wake_interval 11: waiters resume over %d cycles, want at least %d", got, 7*11)
	}
	if got := spread(0); got >= 7*11 {
		t.Errorf("sched.wake_interval 0: waiters resume over %d cycles, want fewer than %d (the unit's 2 a waiter)", got, 7*11)
	}
}

// An un-hinted try_wait on a phase that never completes answers false at
// syncs.try_wait_timeout after its issue: about 7,800 cycles on the H200
// (trywait.csv try_wait_limit), whatever else runs.
func TestUnhintedTryWaitGivesUpAtItsLimit(t *testing.T) {
	for _, limit := range []int{500, 7780} {
		o := runDump(t, trywaitPTX, "_Z7k_falseILi1EEvixPx", 64, 2, 2, []string{"10", "0", "buf:16"},
			"syncs.try_wait_hold=0", fmt.Sprintf("syncs.try_wait_timeout=%d", limit))
		if o[1] != 10 {
			t.Fatalf("limit %d: %d false answers, want 10", limit, o[1])
		}
		if per := o[0] / o[1]; per < int64(limit) || per > int64(limit)+60 {
			t.Errorf("limit %d: %d cycles a false answer, want the limit plus the loop", limit, per)
		}
	}
}

// A try_wait that finds its phase already complete resumes its warp through
// the same port as a suspended waiter's wake-up: eight warps, two a
// scheduler, try_wait together on a phase that completed long before; each
// scheduler's two resume sched.wake_interval apart (stamps.csv uniform_wake:
// the arriving warp, whose own try_wait answers true on arrival, takes one of
// its scheduler's five slots).
func TestTrueAnswersTakeTheSchedulersResumePort(t *testing.T) {
	const ptx = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry port(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .b64 %rd<6>;
	.reg .pred %p<3>;
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, bar;
	mov.u32 %r2, %tid.x;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra $Lsync;
	mbarrier.init.shared::cta.b64 [%r1], 256;
$Lsync:
	bar.sync 0;
	mbarrier.arrive.shared::cta.b64 _, [%r1];
	bar.sync 0;
	nanosleep.u32 1000;
$Lwait:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;
	@!%p2 bra $Lwait;
	mov.u64 %rd2, %clock64;
	shr.u32 %r3, %r2, 5;
	mul.wide.u32 %rd3, %r3, 8;
	add.s64 %rd4, %rd1, %rd3;
	st.global.u64 [%rd4], %rd2;
	ret;
}
`
	p := writeFile(t, "port.ptx", ptx)
	exits := func(interval int) []int64 {
		return runDump(t, p, "port", 256, 0, 8, []string{"buf:64"}, fmt.Sprintf("sched.wake_interval=%d", interval))
	}
	o := exits(11)
	for w := 0; w < 4; w++ {
		if d := o[w+4] - o[w]; d < 11 && -d < 11 {
			t.Errorf("warps %d and %d (one scheduler) resume %d cycles apart, want at least 11", w, w+4, d)
		}
	}
	o = exits(0)
	for w := 0; w < 4; w++ {
		if d := o[w+4] - o[w]; d > 5 || d < -5 {
			t.Errorf("sched.wake_interval 0: warps %d and %d resume %d cycles apart, want together", w, w+4, d)
		}
	}
}
