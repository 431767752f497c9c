package sm_test

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// TestWgmmaWorkersChangeNothing runs apps/h200/gemm_grid.cu's GEMM on 6 SMs
// with its wgmmas computed inline (--threads 1: no workers) and on three
// workers (--threads 4), each made slow, so that the SMs run far ahead of them unless
// they wait where they must (sm.MMAWorkers): the report, every warp's
// stalls and C must be the same, bit for bit.
func TestWgmmaWorkersChangeNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates a GEMM on 6 SMs twice")
	}
	m, n, grid := 64, 768, 6
	f := run.Spec{Kernel: "gemm_grid<4>", Block: "384", Grid: strconv.Itoa(grid), Smem: strconv.Itoa(4*24576 + 1024),
		Launches: 1, Config: "h200", SMs: 132, Args: []string{
			fmt.Sprintf("tensormap:f16,1024x%d,box=64x64,swizzle=128B,fill=f16int:1", m),
			fmt.Sprintf("tensormap:f16,1024x%d,box=64x128,swizzle=128B,fill=f16int:2", n),
			fmt.Sprintf("buf:%d", m*n*4), strconv.Itoa(m), strconv.Itoa(n), "1024", fmt.Sprintf("buf:%d", grid*32)}}
	outcome := func(threads int) *run.Outcome {
		f.Threads = threads
		j, err := f.Job("../apps/h200/gemm_grid.sass")
		if err != nil {
			t.Fatal(err)
		}
		d, err := run.ParseDump(fmt.Sprintf("2:hex:%d", m*n))
		if err != nil {
			t.Fatal(err)
		}
		j.Dumps = append(j.Dumps, d)
		out, err := run.Execute(j)
		if err != nil || out.Err != nil {
			t.Fatalf("--threads %d: %v %v", threads, err, out.Err)
		}
		return out
	}
	inline := outcome(1)
	sm.SetMMAJobHold(func() { time.Sleep(200 * time.Microsecond) })
	defer sm.SetMMAJobHold(nil)
	workers := outcome(4)
	if !reflect.DeepEqual(inline.Dumps, workers.Dumps) {
		t.Error("C differs between inline wgmmas and three workers")
	}
	if inline.Cycles != workers.Cycles || inline.WarpInstrs != workers.WarpInstrs {
		t.Errorf("cycles %d / %d, warp instructions %d / %d", inline.Cycles, workers.Cycles, inline.WarpInstrs, workers.WarpInstrs)
	}
	if !reflect.DeepEqual(inline.Result.Warps, workers.Result.Warps) || !reflect.DeepEqual(inline.Result.Stats, workers.Result.Stats) {
		t.Error("the warps' reports differ between inline wgmmas and three workers")
	}
}
