package run_test

import (
	"fmt"
	"testing"
)

// branch.taken charges a taken branch (each loop trip's back edge) and
// nothing else: raising it by d adds d per trip; a branch no lane takes
// (the loop's last test) costs latency.branch as before.
func TestBranchTakenChargesTakenBranchesOnly(t *testing.T) {
	src := "kernel loop\nblock 32\nlet x = tid\nfor i in 0..100 {\n    x = x + 1\n}\n"
	cycles := func(taken int) uint64 {
		r, err := simulate(t, src, "--set", fmt.Sprintf("branch.taken=%d", taken))
		if err != nil {
			t.Fatal(err)
		}
		return r.Cycles
	}
	base, slow := cycles(3), cycles(13)
	// 99 back edges are taken, the 100th test falls through.
	if slow-base != 99*10 {
		t.Errorf("branch.taken 3 -> 13: %d -> %d cycles, want %d more (99 taken back edges)", base, slow, 99*10)
	}
}
