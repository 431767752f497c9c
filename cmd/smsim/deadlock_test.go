package main

import (
	"fmt"
	"strings"
	"testing"
)

// ptxWarps is a kernel of three roles for deadlock tests: thread 0 makes
// bar (an mbarrier) expect one arrival, a bar.sync publishes it, then warp
// 0, warp 1 and warps 2.. run the three code fragments. %r1 is the thread
// index, %r4 the lane, %r3 bar's shared address; %rd1 the out buffer.
const ptxWarps = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %%p<8>;
	.reg .b32 %%r<16>;
	.reg .b64 %%rd<8>;
	.shared .align 8 .b64 bar;
	.shared .align 128 .b8 buf[1024];
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	shr.u32 %%r2, %%r1, 5;
	and.b32 %%r4, %%r1, 31;
	mov.u32 %%r3, bar;
	setp.ne.u32 %%p1, %%r1, 0;
	@%%p1 bra INITED;
	mbarrier.init.shared::cta.b64 [%%r3], 1;
INITED:
	bar.sync 0;
	setp.eq.u32 %%p1, %%r2, 0;
	@%%p1 bra W0;
	setp.eq.u32 %%p1, %%r2, 1;
	@%%p1 bra W1;
	%s
	bra.uni DONE;
W0:
	%s
	bra.uni DONE;
W1:
	%s
DONE:
	ret;
}
`

// PTX fragments of the roles.
const (
	ptxArriveLane0 = "setp.ne.u32 %p3, %r4, 0;\n\t@%p3 bra NOARRIVE;\n\tmbarrier.arrive.shared::cta.b64 %rd2, [%r3];\nNOARRIVE:"
	ptxTryWaitLoop = "TRY:\n\tmbarrier.try_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n\t@!%p2 bra TRY;"
	ptxTestLoop    = "TEST:\n\tmbarrier.test_wait.parity.shared::cta.b64 %p2, [%r3], 0;\n\t@!%p2 bra TEST;"
)

// stuck runs src (a .sms or .ptx file named name) with a short watchdog and
// returns the exit status, the one-line message and the detail lines.
func stuck(t *testing.T, name, src string, flags ...string) (int, string, string) {
	t.Helper()
	p := writeFile(t, name, src)
	args := []string{"run", p, "--set", "watchdog.spin_cycles=20000", "--max-cycles", "0"}
	if strings.HasSuffix(name, ".ptx") {
		args = append(args, "-a", "buf:4096", "-b", "64")
	}
	code, _, errs := cli(t, append(args, flags...)...)
	first, rest, _ := strings.Cut(errs, "\n")
	return code, first, rest
}

// Every combination of blocking that can never end — mbarrier waits
// (try_wait and test_wait loops, a try_wait suspended with a hint), CTA
// barriers (bar.sync, barrier.sync, with and without a thread count),
// bar.warp.sync, bulk-group and cp.async waits before them, warps that have
// exited — stops with exit status 4 and a message naming the barrier, its
// phase and pending counts, and where every warp waits; with --max-cycles 0
// it still stops.
func TestDeadlockCombinationsAreDetected(t *testing.T) {
	const smsHead = "kernel k\nblock 64\nbarrier bar\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\n"
	for _, tc := range []struct {
		name, file, src string
		flags           []string // more command-line flags
		kind            string   // "deadlock" or "livelock"
		frags           []string // in the one-line message
		detail          []string // in the detail lines
	}{{
		name: "try_wait loop and bar.sync", file: "k.sms",
		src:  smsHead + "warps 0 {\n    syncthreads\n    if lane == 0 {\n        arrive bar\n    }\n}\nwarps 1 {\n    wait bar parity 0\n}\n",
		kind: "deadlock", frags: []string{"k.sms:15:5", "barrier bar phase 0 is missing 1 of 1 arrivals and 0 tx bytes",
			"2 warps wait on one another (1 path in bar.sync or bar.warp.sync, 1 warp spinning on mbarrier phases)", "warp 1 lanes 0-31"},
		detail: []string{"warp 0 (CTA 0, warp 0 of the block) lanes 0-31: waiting in bar.sync 0 (32 of 64 threads arrived) at ", "k.sms:9:5\n",
			"warp 1 (CTA 0, warp 1 of the block) lanes 0-31: spinning on barrier bar phase 0 at ", "k.sms:15:5\n",
			"barrier bar (CTA 0, smem+0x0): phase 0, pending 1 of 1, tx-count 0",
			"hint: warp 0 waits in bar.sync 0, where it arrives on no mbarrier until the bar.sync is released, while warps it waits for spin on barrier bar"},
	}, {
		name: "try_wait suspended with a hint and bar.sync", file: "k.sms",
		src:  smsHead + "warps 0 {\n    syncthreads\n    if lane == 0 {\n        arrive bar\n    }\n}\nwarps 1 {\n    wait bar parity 0 hint 1000000\n}\n",
		kind: "deadlock", frags: []string{"barrier bar phase 0", "missing 1 of 1 arrivals"},
		detail: []string{"waiting in bar.sync 0 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "test_wait loop and bar.sync", file: "k.ptx",
		src:  fmt.Sprintf(ptxWarps, "", "bar.sync 0;\n\t"+ptxArriveLane0, ptxTestLoop),
		kind: "deadlock", frags: []string{"barrier bar phase 0", "missing 1 of 1 arrivals"},
		detail: []string{"waiting in bar.sync 0 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "try_wait loop and bar.sync with a thread count", file: "k.ptx",
		src:  fmt.Sprintf(ptxWarps, "", "bar.sync 1, 64;\n\t"+ptxArriveLane0, ptxTryWaitLoop),
		kind: "deadlock", frags: []string{"barrier bar phase 0", "missing 1 of 1 arrivals"},
		detail: []string{"waiting in bar.sync 1 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "try_wait loop and barrier.sync with a thread count", file: "k.ptx",
		src:  fmt.Sprintf(ptxWarps, "", "barrier.sync 2, 64;\n\t"+ptxArriveLane0, ptxTryWaitLoop),
		kind: "deadlock", frags: []string{"barrier bar phase 0"},
		detail: []string{"waiting in bar.sync 2 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "bulk-group wait, then bar.sync, and a try_wait loop", file: "k.sms",
		src: "kernel k\nblock 64\nbarrier bar\nshared buf[1024]\nglobal dst[1024]\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\n" +
			"warps 0 {\n    if lane == 0 {\n        store.bulk [dst], [buf], 1024\n        commit_group\n        wait_group 0\n    }\n" +
			"    syncthreads\n    if lane == 0 {\n        arrive bar\n    }\n}\nwarps 1 {\n    wait bar parity 0\n}\n",
		kind: "deadlock", frags: []string{"barrier bar phase 0"},
		detail: []string{"waiting in bar.sync 0 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "cp.async wait, then bar.sync, and a try_wait loop", file: "k.ptx",
		src: fmt.Sprintf(ptxWarps, "", "mov.u32 %r5, buf;\n\tcp.async.ca.shared.global [%r5], [%rd1], 16;\n\tcp.async.wait_all;\n\t"+
			"bar.sync 0;\n\t"+ptxArriveLane0, ptxTryWaitLoop),
		kind: "deadlock", frags: []string{"barrier bar phase 0"},
		detail: []string{"waiting in bar.sync 0 (32 of 64 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "an exited warp that bar.sync with a thread count waits for, and a try_wait loop", file: "k.ptx",
		src: fmt.Sprintf(ptxWarps, "exit;", "bar.sync 1, 96;\n\t"+ptxArriveLane0, ptxTryWaitLoop), flags: []string{"-b", "96"},
		kind: "deadlock", frags: []string{"barrier bar phase 0"},
		detail: []string{"waiting in bar.sync 1 (32 of 96 threads arrived)", "spinning on barrier bar phase 0"},
	}, {
		name: "a try_wait loop for an arrival of a warp that exited", file: "k.ptx",
		src:  fmt.Sprintf(ptxWarps, "", "exit;", ptxTryWaitLoop),
		kind: "livelock", frags: []string{"barrier bar phase 0", "missing 1 of 1 arrivals"},
		detail: []string{"spinning on barrier bar phase 0"},
	}, {
		name: "bar.warp.sync path and a try_wait path of one warp", file: "k.sms",
		src:  "kernel k\nblock 32\nbarrier bar\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\nif lane < 16 {\n    syncwarp\n    if lane == 0 {\n        arrive bar\n    }\n} else {\n    wait bar parity 0\n}\n",
		kind: "deadlock", frags: []string{"barrier bar phase 0", "1 warps wait on one another (1 path in bar.sync or bar.warp.sync, 1 warp spinning"},
		detail: []string{"lanes 0-15: waiting in bar.warp.sync for lanes that never arrive", "lanes 16-31: spinning on barrier bar phase 0"},
	}, {
		name: "two warps in different named barriers", file: "k.ptx",
		src:  fmt.Sprintf(ptxWarps, "", "bar.sync 1, 64;", "bar.sync 2, 64;"),
		kind: "deadlock", frags: []string{"2 warps blocked and nothing in flight can release them"},
		detail: []string{"waiting in bar.sync 1 (32 of 64 threads arrived)", "waiting in bar.sync 2 (32 of 64 threads arrived)"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			code, msg, detail := stuck(t, tc.file, tc.src, tc.flags...)
			if code != exitStuck {
				t.Fatalf("got exit %d, want %d: %s\n%s", code, exitStuck, msg, detail)
			}
			if !strings.HasPrefix(msg, "smsim: ") || !strings.Contains(msg, ": "+tc.kind+": ") {
				t.Errorf("got %q, want a %s", msg, tc.kind)
			}
			for _, f := range tc.frags {
				if !strings.Contains(msg, f) {
					t.Errorf("message %q lacks %q", msg, f)
				}
			}
			for _, f := range tc.detail {
				if !strings.Contains(detail, f) {
					t.Errorf("detail lacks %q:\n%s", f, detail)
				}
			}
		})
	}
}

// Waits that will end are not deadlocks, however long they last past
// watchdog.spin_cycles: a phase a copy in flight completes, a phase a warp
// still computing or sleeping will complete, a bar.sync an exited warp
// releases (it counts as arrived at a CTA-wide barrier).
func TestLongWaitsThatEndAreNotDeadlocks(t *testing.T) {
	for _, tc := range []struct{ name, file, src string }{{
		name: "a phase a TMA copy completes", file: "k.sms",
		src: "kernel k\nblock 64\nbarrier bar\nshared buf[65536]\nglobal src[65536] seq\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\n" +
			"warps 0 {\n    if lane == 0 {\n        arrive.expect_tx bar, 65536\n        copy.bulk [buf], [src], 65536, bar\n    }\n    syncthreads\n}\n" +
			"warps 1 {\n    wait bar parity 0\n    syncthreads\n}\n",
	}, {
		name: "a phase a warp completes after computing", file: "k.sms",
		src: "kernel k\nblock 96\nbarrier bar\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\n" +
			"warps 0 {\n    syncthreads\n}\nwarps 1 {\n    wait bar parity 0\n    syncthreads\n}\n" +
			"warps 2 {\n    delay 5000\n    if lane == 0 {\n        arrive bar\n    }\n    syncthreads\n}\n",
	}, {
		name: "a phase a warp completes after sleeping", file: "k.sms",
		src: "kernel k\nblock 96\nbarrier bar\nif tid == 0 {\n    init bar, 1\n}\nsyncthreads\n" +
			"warps 0 {\n    syncthreads\n}\nwarps 1 {\n    wait bar parity 0\n    syncthreads\n}\n" +
			"warps 2 {\n    nanosleep 5000\n    if lane == 0 {\n        arrive bar\n    }\n    syncthreads\n}\n",
	}, {
		name: "bar.sync 0 released by an exited warp", file: "k.ptx",
		src: fmt.Sprintf(ptxWarps, "exit;", "bar.sync 0;\n\t"+ptxArriveLane0, "bar.sync 0;\n\t"+ptxTryWaitLoop),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.file, tc.src)
			args := []string{"run", p, "--set", "watchdog.spin_cycles=2000", "--report", "summary"}
			if strings.HasSuffix(tc.file, ".ptx") {
				args = append(args, "-a", "buf:4096", "-b", "96")
			}
			if code, _, errs := cli(t, args...); code != 0 {
				t.Fatalf("got exit %d, want 0: %s", code, errs)
			}
		})
	}
}
