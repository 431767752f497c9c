package run

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// ticketKernel is testdata/gpu/tickets.ptx: a ticket per thread from one
// global counter, written with its SM where the thread's index says.
var ticketKernel = func() string {
	b, err := os.ReadFile(filepath.Join("..", "testdata", "gpu", "tickets.ptx"))
	if err != nil {
		panic(err)
	}
	return string(b)
}()

// outcomeBytes is what a run gives its user, as bytes: the report, the
// error and the dumps (not the host time).
func outcomeBytes(t *testing.T, out *Outcome) string {
	t.Helper()
	b, err := json.Marshal(struct {
		Result any
		Dumps  []Dump
		Err    string
	}{out.Result, out.Dumps, fmt.Sprint(out.Err)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sameOnAnyThreads runs the job built by job on 1 host thread and on
// several, and fails unless every run gives the same bytes.
func sameOnAnyThreads(t *testing.T, job func() *Job, threads ...int) *Outcome {
	t.Helper()
	var want string
	var first *Outcome
	for _, n := range append([]int{1}, threads...) {
		j := job()
		j.Threads, j.SMThreads = n, n
		out, err := Execute(j)
		if err != nil {
			t.Fatal(err)
		}
		got := outcomeBytes(t, out)
		if n == 1 {
			want, first = got, out
			continue
		}
		if got != want {
			t.Errorf("%d threads: the outcome differs from one thread's (%d bytes against %d)", n, len(got), len(want))
		}
	}
	return first
}

// TestGPUOnSeveralThreadsGivesOneThreadsResults runs launches over many
// SMs on 1, 2, 3 and 8 host threads: the L2 and DRAM stream and reduction
// grids (shared bandwidth, the L2's contents, GPC deliveries, waves of
// CTAs), a warp-specialised GEMM grid (TMA, mbarriers, wgmma) and a grid of
// global atomics on one counter, whose tickets record the order of every
// SM's atomics; and cluster launches, whose GPCs run on a thread each.
func TestGPUOnSeveralThreadsGivesOneThreadsResults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs grids of 132 and 264 CTAs four times each")
	}
	for _, c := range []struct {
		kernel, place string
		grid          int
	}{{"stream", "dram", 132}, {"reduce", "dram", 264}, {"stream", "l2", 66}} {
		t.Run(fmt.Sprintf("%s_%s_%d", c.kernel, c.place, c.grid), func(t *testing.T) {
			sameOnAnyThreads(t, func() *Job { return l2bwJob(t, c.kernel, c.place, c.grid) }, 2, 3, 8)
		})
	}
	t.Run("gemm_6", func(t *testing.T) { // TMA, mbarriers and wgmma
		sameOnAnyThreads(t, func() *Job { return withDumps(t, gemmGridJob(t, 64, 768, 6), "2:hex:49152", "6:i64:24") }, 2, 8)
	})
	for _, c := range []int{2, 4} { // clusters: multicast, DSMEM, remote arrivals, cluster barriers
		t.Run(fmt.Sprintf("cluster_%d", c), func(t *testing.T) {
			sameOnAnyThreads(t, func() *Job { return clusterFuncJob(t, c) }, 2, 3, 8)
		})
	}
	t.Run("tickets", func(t *testing.T) {
		out := sameOnAnyThreads(t, ticketsJob(t, "buf:4"), 2, 3, 8)
		if out.Err != nil {
			t.Fatal(out.Err)
		}
	})
}

// ticketsJob is the tickets kernel on 132 CTAs of 96 threads over 132
// SMs, its tickets dumped; counter is the counter's buffer argument.
func ticketsJob(t *testing.T, counter string) func() *Job {
	return func() *Job {
		j := gpuJob(t, ticketKernel, Spec{Kernel: "tickets", Block: "96", Grid: "132", SMs: 132,
			Args: []string{counter, "buf:101376"}})
		spec, err := ParseDump("1:u32:25344")
		if err != nil {
			t.Fatal(err)
		}
		j.Dumps = []DumpSpec{spec}
		return j
	}
}

// A launch that fails on several threads may have run other SMs past the
// failure; it is run again on one, and its report is one thread's.
func TestGPUFailureOnSeveralThreadsReportsAsOneThread(t *testing.T) {
	// The counter is a buffer of 1 byte: every atomic is out of bounds.
	out := sameOnAnyThreads(t, ticketsJob(t, "buf:1"), 2, 4)
	if out.Err == nil {
		t.Fatal("the launch did not fail")
	}
}

// prefetchKernel's thread 0 of each CTA prefetches 16 KiB ranges into L2:
// timing state the SMs share (the L2's contents, its partitions' and
// DRAM's bandwidth), touched without global memory's bytes.
const prefetchKernel = ptxHead + `
.visible .entry prefetch(.param .u64 buf)
{
	.reg .pred %p<3>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [buf];
	mov.u32 %r1, %tid.x;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra DONE;
	mov.u32 %r2, %ctaid.x;
	mul.wide.u32 %rd2, %r2, 65536;
	add.u64 %rd3, %rd1, %rd2;
	mov.u32 %r3, 0;
LOOP:
	mul.wide.u32 %rd4, %r3, 16384;
	add.u64 %rd5, %rd3, %rd4;
	cp.async.bulk.prefetch.L2.global [%rd5], 16384;
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p2, %r3, 4;
	@%p2 bra LOOP;
DONE:
	ret;
}
`

// The race detector's run of the above, on grids small enough for it.
func TestGPUThreadsShareNothingUnguarded(t *testing.T) {
	sameOnAnyThreads(t, func() *Job {
		return gpuJob(t, prefetchKernel, Spec{Kernel: "prefetch", Block: "32", Grid: "16", SMs: 16, Args: []string{"buf:1048576"}})
	}, 4)
	sameOnAnyThreads(t, func() *Job { return withDumps(t, gemmGridJob(t, 64, 256, 2), "2:hex:16384") }, 2)
	sameOnAnyThreads(t, func() *Job { return clusterFuncJob(t, 4) }, 3)
	job := func() *Job {
		j := gpuJob(t, ticketKernel, Spec{Kernel: "tickets", Block: "64", Grid: "24", SMs: 8,
			Args: []string{"buf:4", "buf:12288"}})
		spec, err := ParseDump("1:u32:3072")
		if err != nil {
			t.Fatal(err)
		}
		j.Dumps = []DumpSpec{spec}
		return j
	}
	sameOnAnyThreads(t, job, 4)
}
