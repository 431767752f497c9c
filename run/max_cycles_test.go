package run_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/run"
)

// A launch that finishes within --max-cycles has not reached it, though the
// time limits of its ended try_waits (thousands of cycles after the last)
// lie past it: the run reports the same cycles as without a limit, on one
// SM and on a GPU of several, and a limit the kernel does reach still stops
// it.
func TestMaxCyclesPastTheLastWarpIsNotReached(t *testing.T) {
	ptx := filepath.Join("..", "calibration", "h200", "microbench.ptx")
	for _, sms := range []string{"1", "4"} {
		flags := []string{"-k", "_Z13k_arrive_waitILi0EEviPx", "-b", "256", "-g", "4", "-a", "50", "-a", "buf:8",
			"--sms", sms}
		free := runCycles(t, ptx, flags...)
		if got := runCycles(t, ptx, append(flags, "--max-cycles", fmt.Sprint(free+100))...); got != free {
			t.Errorf("%s SMs: %d cycles with a limit 100 past the end, %d without", sms, got, free)
		}
		j, err := launch(t, ptx, append(flags, "--max-cycles", fmt.Sprint(free/2))...)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := run.Execute(j); err == nil && out.Err == nil {
			t.Errorf("%s SMs: a limit at half the kernel's %d cycles did not stop it", sms, free)
		}
	}
}

// runCycles runs a launch and returns its cycles, failing on any error.
func runCycles(t *testing.T, file string, flags ...string) uint64 {
	t.Helper()
	j, err := launch(t, file, flags...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		t.Fatalf("%v: %v", flags, err)
	}
	return out.Result.Cycles
}
