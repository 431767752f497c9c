package run_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
)

// runPTXCycles runs kernel text (one thread, one CTA, unless the flags give
// another -b) with extra flags and returns the report; the kernel's first
// parameter is a 64-byte buffer.
func runPTXCycles(t *testing.T, name, ptx string, flags ...string) report.Report {
	t.Helper()
	p := writeFile(t, name, ptx)
	return runReport(t, append([]string{"run", p, "-a", "buf:64", "-b", "1", "--format", "json"}, flags...)...)
}

// oneArrivePrologue opens a one-thread kernel NAME(out) for fmt.Sprintf:
// %rd1 holds out, %r1 a barrier initialised with the count the format's %d
// gives, on which the thread has arrived once.
func oneArrivePrologue(name string) string {
	return `.version 8.7
.target sm_90a
.address_size 64
.visible .entry ` + name + `(.param .u64 out)
{
	.reg .b32 %%r<4>;
	.reg .b64 %%rd<6>;
	.reg .pred %%p<3>;
	.shared .align 8 .b64 bar;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, bar;
	mbarrier.init.shared::cta.b64 [%%r1], %d;
	bar.sync 0;
	mbarrier.arrive.shared::cta.b64 _, [%%r1];`
}

// outWord returns the one 64-bit word a run dumped of out.
func outWord(t *testing.T, r report.Report) int64 {
	t.Helper()
	v := r.Dumps["out"]
	if len(v) != 1 {
		t.Fatalf("dumps %+v", r.Dumps)
	}
	f, ok := v[0].(float64) // JSON numbers
	if !ok {
		t.Fatalf("dump value %T", v[0])
	}
	return int64(f)
}

// A loop of 100 trips around a forward branch no lane takes (it skips two
// instructions, so it is not if-converted): the branch holds the warp
// latency.branch cycles each time, as its SASS stall count does.
func TestNotTakenBranchHoldsTheWarpLatencyBranch(t *testing.T) {
	const ptx = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry nt(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .pred %p<3>;
	mov.u32 %r1, 0;
	mov.u32 %r2, 0;
$Lloop:
	setp.eq.u32 %p1, %r1, 1000;
	@%p1 bra $Lskip;
	add.u32 %r2, %r2, 3;
	add.u32 %r3, %r2, 5;
$Lskip:
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p2, %r1, 100;
	@%p2 bra $Lloop;
	ret;
}
`
	cycles := func(lat int) uint64 {
		return runPTXCycles(t, "nt.ptx", ptx, "--set", fmt.Sprintf("latency.branch=%d", lat)).Cycles
	}
	base, slow := cycles(5), cycles(15)
	// 100 forward branches and the loop's final test fall through.
	if d := slow - base; d < 100*10 || d > 101*10 {
		t.Errorf("latency.branch 5 -> 15: %d -> %d cycles, want about %d more (101 branches fall through)", base, slow, 101*10)
	}
}

// A lane-dependent `if` around an arrive, if-converted, keeps ptxas's
// convergence barrier: each trip pays branch.bsync once, after the wait
// loop; a uniform condition pays nothing.
func TestLaneDependentIfConvertedRegionPaysBsync(t *testing.T) {
	kernel := func(cond string) string {
		return `.version 8.7
.target sm_90a
.address_size 64
.visible .entry bs(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .pred %p<4>;
	.shared .align 8 .b64 bar;
	mov.u32 %r1, bar;
	mbarrier.init.shared::cta.b64 [%r1], 1;
	mov.u32 %r2, ` + cond + `;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
$Lloop:
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra $Lskip;
	mbarrier.arrive.shared::cta.b64 _, [%r1];
$Lskip:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], %r4;
	@!%p2 bra $Lskip;
	xor.b32 %r4, %r4, 1;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p3, %r3, 50;
	@%p3 bra $Lloop;
	ret;
}
`
	}
	cycles := func(src string, bsync int) uint64 {
		return runPTXCycles(t, "bs.ptx", src, "--set", fmt.Sprintf("branch.bsync=%d", bsync)).Cycles
	}
	lane := kernel("%laneid")
	if d := cycles(lane, 40) - cycles(lane, 20); d != 50*20 {
		t.Errorf("lane-dependent: branch.bsync 20 -> 40 added %d cycles, want %d (50 trips)", d, 50*20)
	}
	uni := kernel("0")
	if a, b := cycles(uni, 20), cycles(uni, 40); a != b {
		t.Errorf("uniform: branch.bsync 20 -> 40 changed the run from %d to %d cycles", a, b)
	}
}

// A try_wait does not stop its warp: a clock read right behind one on an
// open phase issues at once (calibration/h200/trywait.cu; in the SASS the
// CS2R follows the TRYWAIT), nor on a completed phase (2 cycles,
// try_wait_on_completed_phase). syncs.try_wait_hold 1, an effective model,
// holds the warp on an open phase until the answer (here the time limit).
func TestTryWaitOnAnOpenPhaseHoldsNothing(t *testing.T) {
	// count 2 and one arrive: the phase stays open. count 1: a wait loop
	// sees it complete before the timed try_wait.
	kernel := func(count int, settle string) string {
		return fmt.Sprintf(oneArrivePrologue("tw")+`
%s
	mov.u64 %%rd2, %%clock64;
	mbarrier.try_wait.parity.shared::cta.b64 %%p1, [%%r1], 0;
	mov.u64 %%rd3, %%clock64;
	sub.s64 %%rd4, %%rd3, %%rd2;
	st.global.u64 [%%rd1], %%rd4;
	ret;
}
`, count, settle)
	}
	gap := func(src string, hold int) int64 {
		return outWord(t, runPTXCycles(t, "tw.ptx", src, "--dump", "out:i64:1", "--set", "syncs.try_wait_timeout=300",
			"--set", fmt.Sprintf("syncs.try_wait_hold=%d", hold)))
	}
	if g := gap(kernel(2, ""), 0); g > 10 {
		t.Errorf("open phase: %d cycles between the clock reads, want a few", g)
	}
	if g := gap(kernel(2, ""), 1); g < 300 {
		t.Errorf("open phase, syncs.try_wait_hold 1: %d cycles between the clock reads, want at least the 300-cycle time limit", g)
	}
	settle := "$Lw:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;\n\t@!%p2 bra $Lw;"
	for _, hold := range []int{0, 1} {
		if g := gap(kernel(1, settle), hold); g > 10 {
			t.Errorf("completed phase, syncs.try_wait_hold %d: %d cycles between the clock reads, want a few", hold, g)
		}
	}
}

// An arrive with an explicit count operand is a different SASS instruction
// (SYNCS.ARRIVE.TRANS64.ART0) and takes the barrier unit syncs.count_interval
// cycles instead of syncs.interval: 32 warps' elected arrives of count 32
// (elect.csv lane0_count32) are applied that much further apart. A plain
// arrive is not affected.
func TestArriveWithCountTakesTheUnitCountInterval(t *testing.T) {
	kernel := func(arrive string) string {
		return `.version 8.7
.target sm_90a
.address_size 64
.visible .entry ac(.param .u64 out)
{
	.reg .b32 %r<6>;
	.reg .pred %p<3>;
	.shared .align 8 .b64 bar;
	mov.u32 %r1, bar;
	mov.u32 %r2, %tid.x;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra $Lsync;
	mbarrier.init.shared::cta.b64 [%r1], 1024;
$Lsync:
	bar.sync 0;
	and.b32 %r3, %r2, 31;
	setp.ne.u32 %p1, %r3, 0;
	@%p1 bra $Lsw;
	` + arrive + `
$Lsw:
	bar.warp.sync -1; // as __syncwarp(): the wait below stays uniform-addressed
$Lwait:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [%r1], 0;
	@!%p2 bra $Lwait;
	ret;
}
`
	}
	cycles := func(src string, interval int) uint64 {
		return runPTXCycles(t, "ac.ptx", src, "-b", "1024", "--set", fmt.Sprintf("syncs.count_interval=%d", interval)).Cycles
	}
	counted := kernel("mbarrier.arrive.shared::cta.b64 _, [%r1], 32;")
	if a, b := cycles(counted, 4), cycles(counted, 24); b-a < 31*20-40 || b-a > 32*20+40 {
		t.Errorf("count operand: syncs.count_interval 4 -> 24 added %d cycles, want about %d (31 gaps of 20)", b-a, 31*20)
	}
	// The same arrivals as 32 updates of one lane each would need a
	// different kernel; a plain single arrive per lane is the control.
	plain := strings.Replace(kernel("mbarrier.arrive.shared::cta.b64 _, [%r1];"), "1024;", "32;", 1)
	if a, b := cycles(plain, 4), cycles(plain, 24); a != b {
		t.Errorf("plain arrive: syncs.count_interval changed the run from %d to %d cycles", a, b)
	}
}

// The wait loops CUDA code compiles to and the one CUTLASS writes in inline
// PTX become the same SASS loop (`TRYWAIT P; @!P BRA`), so they take the
// same time: a producer arrives on a count-1 barrier 20 times, each phase
// awaited one way or the other.
func TestCUTLASSAndCUDAWaitLoopsTakeTheSameTime(t *testing.T) {
	kernel := func(wait string) string {
		return `.version 8.7
.target sm_90a
.address_size 64
.visible .entry wl(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .pred %p<4>;
	.shared .align 8 .b64 bar;
	mov.u32 %r1, bar;
	mbarrier.init.shared::cta.b64 [%r1], 1;
	mov.u32 %r3, 0;
	mov.u32 %r4, 0;
$Lloop:
	mbarrier.arrive.shared::cta.b64 _, [%r1];
` + wait + `
	xor.b32 %r4, %r4, 1;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p3, %r3, 20;
	@%p3 bra $Lloop;
	ret;
}
`
	}
	cuda := `$Lw:
	{
	.reg .pred P1;
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], %r4;
	selp.b32 %r5, 1, 0, P1;
	}
	setp.eq.s32 %p1, %r5, 0;
	@%p1 bra $Lw;`
	cutlass := `{
	.reg .pred P1;
	LAB_WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 P1, [%r1], %r4;
	@P1 bra DONE;
	bra LAB_WAIT;
	DONE:
	}`
	a := runPTXCycles(t, "wl.ptx", kernel(cuda)).Cycles
	b := runPTXCycles(t, "wl.ptx", kernel(cutlass)).Cycles
	if a != b {
		t.Errorf("CUDA-style wait loop %d cycles, CUTLASS-style %d: want the same", a, b)
	}
}

// A true answer of try_wait or test_wait carries the wait's acquire: it
// reaches the warp no sooner than the acquire after the wait's issue
// (syncs.acquire less ptxas.syncs_acquire_overlap for a PTX program), however long ago the phase
// completed (steps.csv: 47 cycles clock to clock for both). A false answer
// does not wait for it.
func TestTrueWaitAnswerCarriesTheAcquire(t *testing.T) {
	kernel := func(count int, wait string) string {
		return fmt.Sprintf(oneArrivePrologue("aq")+`
	mov.u32 %%r2, 0;
$Lsettle:
	add.u32 %%r2, %%r2, 1;
	setp.lt.u32 %%p2, %%r2, 50;
	@%%p2 bra $Lsettle;
	mov.u64 %%rd2, %%clock64;
	mbarrier.%s.parity.shared::cta.b64 %%p1, [%%r1], 0;
	@!%%p1 bra $Lout;
	mov.u64 %%rd3, %%clock64;
	sub.s64 %%rd4, %%rd3, %%rd2;
	st.global.u64 [%%rd1], %%rd4;
$Lout:
	ret;
}
`, count, wait)
	}
	gap := func(src string, acquire int) int64 {
		return outWord(t, runPTXCycles(t, "aq.ptx", src, "--dump", "out:i64:1", "--set", fmt.Sprintf("syncs.acquire=%d", acquire), "--set", "ptxas.syncs_acquire_overlap=0",
			"--set", "syncs.try_wait_timeout=40"))
	}
	for _, wait := range []string{"try_wait", "test_wait"} {
		src := kernel(1, wait)
		fast, slow := gap(src, 0), gap(src, 120)
		if fast >= 60 {
			t.Errorf("%s on a completed phase, syncs.acquire 0: %d cycles clock to clock, want under 60", wait, fast)
		}
		if slow < 120 || slow > 140 {
			t.Errorf("%s on a completed phase, syncs.acquire 120: %d cycles clock to clock, want 120 plus the branch", wait, slow)
		}
	}
	// An open phase (count 2, one arrive): try_wait answers false at its
	// time limit and the branch skips the store; the run's length must not
	// grow by the acquire.
	open := kernel(2, "try_wait")
	r0 := runPTXCycles(t, "aq.ptx", open, "--set", "syncs.acquire=0", "--set", "ptxas.syncs_acquire_overlap=0", "--set", "syncs.try_wait_timeout=40")
	r1 := runPTXCycles(t, "aq.ptx", open, "--set", "syncs.acquire=500", "--set", "ptxas.syncs_acquire_overlap=0", "--set", "syncs.try_wait_timeout=40")
	if r1.Cycles != r0.Cycles {
		t.Errorf("false answer: %d cycles with syncs.acquire 500 against %d with 0, want the same", r1.Cycles, r0.Cycles)
	}
}

// A wait through a lane-dependent address is addressed through a per-thread
// register (compiler.MarkDivergentWaits), and the barrier unit takes each of its
// polls as new checks; a wait through a uniform one stays registered
// between polls. With a short time limit (polls every 25 cycles) 32 warps'
// vector waits compete with the arrives. The retry loop of such a wait is
// a convergence region: leaving it costs the BSYNC (branch.bsync), which is
// all that differs with one warp (calibration/h200/trywait.csv vecaddr_loop:
// the address is the barrier's plus z·lane·8, z = 0 at run time).
func TestVectorAddressedWaitPollsLoadTheBarrierUnit(t *testing.T) {
	kernel := func(cond string) string {
		return `.version 8.7
.target sm_90a
.address_size 64
.visible .entry vw(.param .u64 out, .param .u32 z)
{
	.reg .b32 %r<12>;
	.reg .pred %p<6>;
	.shared .align 8 .b64 bar;
	ld.param.u32 %r9, [z];
	mov.u32 %r1, bar;
	mov.u32 %r2, %tid.x;
	setp.ne.u32 %p1, %r2, 0;
	@%p1 bra $Linit;
	mov.u32 %r3, %ntid.x;
	mbarrier.init.shared::cta.b64 [%r1], %r3;
$Linit:
	bar.sync 0;
	mul.lo.u32 %r10, ` + cond + `, %r9;
	shl.b32 %r10, %r10, 3;
	add.u32 %r11, %r1, %r10;
	mov.u32 %r4, 0;
	mov.u32 %r5, 0;
$Lphase:
	mbarrier.arrive.shared::cta.b64 _, [%r1];
$Lwait:
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r11], %r5;
	@!%p3 bra $Lwait;
	xor.b32 %r5, %r5, 1;
	add.u32 %r4, %r4, 1;
	setp.lt.u32 %p4, %r4, 200;
	@%p4 bra $Lphase;
$Ldone:
	ret;
}
`
	}
	polls := []string{"--set", "syncs.try_wait_timeout=25", "--set", "branch.bsync=0"}
	lane := runPTXCycles(t, "vw.ptx", kernel("%r2"), append([]string{"-b", "1024", "-a", "0"}, polls...)...).Cycles // %tid.x·z: lane-dependent
	unif := runPTXCycles(t, "vw.ptx", kernel("%r9"), append([]string{"-b", "1024", "-a", "0"}, polls...)...).Cycles // z·z: uniform
	if float64(lane) < 1.15*float64(unif) {
		t.Errorf("32 warps, 200 phases: %d cycles with the wait through a lane-dependent address, %d through a uniform one; want the first at least 15 %% slower", lane, unif)
	}
	one := runPTXCycles(t, "vw.ptx", kernel("%r2"), append([]string{"-b", "32", "-a", "0"}, polls...)...).Cycles
	oneU := runPTXCycles(t, "vw.ptx", kernel("%r9"), append([]string{"-b", "32", "-a", "0"}, polls...)...).Cycles
	if one != oneU {
		t.Errorf("one warp, branch.bsync 0: %d against %d cycles, want the same (its own arrive completes each phase: no polls)", one, oneU)
	}
	bs := runPTXCycles(t, "vw.ptx", kernel("%r2"), "-b", "32", "-a", "0", "--set", "branch.bsync=20").Cycles
	if d := bs - oneU; d < 200*10 {
		t.Errorf("one warp, branch.bsync 20: %d cycles more than the uniform wait over 200 phases, want the BSYNC of every phase's wait loop", d)
	}
}

// A compare's 13 cycles to its branch are static stall counts in SASS: a
// shared load the warp waits for between them does not overlap them. Here
// the loop's load issues first (compiler.ScheduleLoads), then the compare, then
// an add that waits for the load, then the branch: each trip pays the
// load's wait and then the rest of latency.pred, so raising latency.pred
// from 13 to 23 adds 10 cycles a trip (with the wait overlapping the
// predicate's latency it would add 4).
func TestPredicateLatencyDoesNotOverlapALoadsWait(t *testing.T) {
	const ptx = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry sp(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .pred %p<3>;
	.shared .align 4 .b32 word;
	mov.u32 %r4, word;
	mov.u32 %r5, 0;
	st.shared.u32 [%r4], %r5;
	mov.u32 %r1, 0;
$Lloop:
	add.u32 %r1, %r1, 1;
	setp.lt.u32 %p1, %r1, 100;
	ld.shared.u32 %r2, [%r4];
	add.u32 %r3, %r2, %r3;
	@%p1 bra $Lloop;
	ret;
}
`
	cycles := func(pred int) uint64 {
		return runPTXCycles(t, "sp.ptx", ptx, "--set", fmt.Sprintf("latency.pred=%d", pred)).Cycles
	}
	base, slow := cycles(13), cycles(23)
	if d := float64(slow-base) / 100; d < 9 || d > 11 {
		t.Errorf("latency.pred 13 -> 23: %d -> %d cycles, %.1f a trip, want about 10", base, slow, d)
	}
}
