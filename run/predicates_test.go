package run_test

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/smsim/smsim/run"
)

// microbench.ptx's divergent32 loop reads 32 lane predicates; ptxas keeps
// five and recomputes the rest in the loop (compiler.RecomputeCompares). The
// recomputed compares must give every lane its own arrive: each phase of two
// warps is 64 arrivals in 64 updates, the 27 copies sit in the loop, and the
// run ends (no lane arrives twice or never).
func TestDivergent32RecomputesItsLanePredicates(t *testing.T) {
	ptx := filepath.Join("..", "calibration", "h200", "microbench.ptx")
	src, err := run.Load(ptx)
	if err != nil {
		t.Fatal(err)
	}
	prog, err := src.Kernel("k_arrive_waitILi2E")
	if err != nil {
		t.Fatal(err)
	}
	var disasm strings.Builder
	if err := prog.Disasm(&disasm); err != nil {
		t.Fatal(err)
	}
	out := disasm.String()
	// The timed loop starts after the first clock read; count its lane compares.
	loop := out[strings.Index(out, "%clock64"):]
	if n := len(regexp.MustCompile(`setp\.ne\.s32 p\d+, r\d+, \d+ `).FindAllString(loop, -1)); n != 27 {
		t.Errorf("%d lane compares in the timed loop, want 27 (32 less the five kept)", n)
	}
	r := runReport(t, "run", ptx, "-k", "k_arrive_waitILi2E", "-b", "64", "-a", "4", "-a", "buf:8", "--format", "json")
	if len(r.Barriers) != 1 || len(r.Barriers[0].Phases) < 12 {
		t.Fatalf("want one barrier with 12 phases: %+v", r.Barriers)
	}
	for _, ph := range r.Barriers[0].Phases {
		if ph.Completed >= 0 && (ph.Arrivals != 64 || ph.Updates != 64) {
			t.Errorf("phase %d: %d arrivals in %d updates, want 64 in 64", ph.Phase, ph.Arrivals, ph.Updates)
		}
	}
}

// syncs.pad_answers 1 makes a warp pay, after a barrier wait's answer, the
// part of a fixed latency ptxas's stall counts pad across the wait: in
// microbench.cu's converged loop the counter's compare sits before the
// try_wait and its branch after, so each trip of one warp grows by what is
// left of latency.pred when the answer comes (the SASS's stall of 10 on the
// wait's branch; calibration/h200 latency3.csv).
func TestPadAnswersChargesTheStallAcrossTheWait(t *testing.T) {
	ptx := filepath.Join("..", "calibration", "h200", "microbench.ptx")
	run := func(pad string) float64 {
		r := runReport(t, "run", ptx, "-k", "k_arrive_waitILi0E", "-b", "32", "-a", "200", "-a", "buf:8",
			"--set", "syncs.pad_answers="+pad, "--dump", "1:i64:1", "--format", "json")
		return r.Dumps["1"][0].(float64) / 200
	}
	plain, padded := run("0"), run("1")
	if padded < plain+4 || padded > plain+14 {
		t.Errorf("cycles a phase: %.1f unpadded, %.1f padded; want 4-14 more (the rest of latency.pred)", plain, padded)
	}
}
