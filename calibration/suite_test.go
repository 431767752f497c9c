package calibration

import (
	"context"
	"math"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// The fit must not regress: TestCalibrationHoldsItsLevel runs the H200
// suite (microbench.csv in full, probe.csv shortened) and fails when
// microbench.csv misses the targets — a mean absolute percentage
// error of at most 5 % (bound here at the level reached, 4.3 %: 4.17 % with
// DRAM refresh, 4.60 % before it) and no row worse than 15 % (the worst,
// elected_count1_warps16 at -14.4 %, is close to it) — when a probe.csv latency row leaves 10 %, or when any semantic
// row stops matching. The level rests on try_wait's measured semantics (no
// hold, a 7,780-cycle limit, waiters answered one per unit slot,
// calibration/h200/trywait.cu), each scheduler resuming its warps on try_wait
// answers 11 cycles apart (stamps.csv), the 16-lane integer and FMA pipes of
// throughput.csv, and the elected loop as ptxas schedules it (compare behind
// the try_wait, __syncwarp() a NOP, predicates recomputed past seven).
func TestCalibrationHoldsItsLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	// microbench.csv runs in full (a few seconds): shortened, its 16 KiB-chunk
	// bandwidth rows do not reach their steady state. probe.csv runs short.
	dir := "h200"
	v, err := Validate(context.Background(), dir, sm.DefaultConfig(), Options{Only: "microbench.csv"}, runtime.NumCPU(), nil)
	if err != nil {
		t.Fatal(err)
	}
	pv, err := Validate(context.Background(), dir, sm.DefaultConfig(), Options{Quick: true, Only: "probe.csv"}, runtime.NumCPU(), nil)
	if err != nil {
		t.Fatal(err)
	}
	v.Rows = append(v.Rows, pv.Rows...)
	m := v.Overall["microbench.csv"]
	if m.Rows != 70 {
		t.Fatalf("got %d microbench rows, want 70", m.Rows)
	}
	if m.MAPE > 4.3 {
		t.Errorf("microbench.csv MAPE %.2f %% > 4.3 %%", m.MAPE)
	}
	for _, r := range v.Rows {
		if r.File == "microbench.csv" && !r.Semantic && math.Abs(r.ErrorPct) > 15 {
			t.Errorf("microbench.csv %s,%s,%s: predicted %.2f, measured %.2f (%+.1f %%, target 15 %%)",
				r.Bench, r.Config, r.Metric, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	// probe.csv's latency rows meet the 10 % target and stay there.
	n := 0
	for _, r := range v.Rows {
		if r.File != "probe.csv" || r.Semantic || !ProbeLatencyBench(r.Bench) {
			continue
		}
		n++
		if r.ErrorPct > 10 || r.ErrorPct < -10 {
			t.Errorf("probe.csv %s,%s,%s: predicted %.1f, measured %.1f (%+.1f %%)", r.Bench, r.Config, r.Metric, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	if n != 28 {
		t.Errorf("%d probe.csv latency rows checked, want 28", n)
	}
	for _, r := range v.Rows {
		if r.Err != "" {
			t.Errorf("%s %s,%s: %s", r.File, r.Bench, r.Config, r.Err)
		}
		if r.Semantic && r.Predicted != r.Measured {
			t.Errorf("%s %s,%s,%s: predicted %g, measured %g", r.File, r.Bench, r.Config, r.Metric, r.Predicted, r.Measured)
		}
	}
}

// TestMicrobenchMeetsTheMAPETarget runs microbench.csv at full length, as
// `smsim validate` does, and holds it to the target: a mean absolute
// percentage error of at most 5 % (TestCalibrationHoldsItsLevel holds the
// worst row to 15 %).
func TestMicrobenchMeetsTheMAPETarget(t *testing.T) {
	if testing.Short() {
		t.Skip("runs microbench.csv at full length")
	}
	v := fullValidation(t)
	if m := v.Overall["microbench.csv"]; m.Rows != 70 || m.MAPE > 5.0 {
		t.Errorf("microbench.csv: %d rows, MAPE %.2f %% (target 5 %%)", m.Rows, m.MAPE)
	}
}

// TestLoopBranchesMatchTheH200 holds the branch model (latency.pred,
// branch.taken, latency.branch and the loop transformations) to
// calibration/h200/branch.csv: one warp's loops of 1 to 32 instructions,
// every row within 8 % and 5 % on average. The rows whose chain waits on a
// shared load between the compare and its branch were −22 and −20 % until
// the predicate's latency was made static (ptxas's stall counts add to the
// load's wait: sm/static.go).
func TestLoopBranchesMatchTheH200(t *testing.T) {
	holdsLevel(t, "branch.csv", 20, 8, 5, nil)
}

// holdsLevel checks the rows of one of this repository's calibration files
// (calibration/h200/FILE): there are want of them, each within rowLimit %
// of the H200 unless exempt says it is a known miss, and their mean
// absolute error is at most mapeLimit %.
func holdsLevel(t *testing.T, file string, want int, rowLimit, mapeLimit float64, exempt func(key string) bool) {
	t.Helper()
	rows := repoCalibration(t, sm.DefaultConfig(), regexp.QuoteMeta(file)+":")
	if len(rows) != want {
		t.Fatalf("%d %s rows, want %d", len(rows), file, want)
	}
	sum := 0.0
	for k, r := range rows {
		sum += math.Abs(r.ErrorPct)
		if (exempt == nil || !exempt(k)) && math.Abs(r.ErrorPct) > rowLimit {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	if mape := sum / float64(len(rows)); mape > mapeLimit {
		t.Errorf("%s MAPE %.2f %%, want at most %g %%", file, mape, mapeLimit)
	}
}

// TestHeldOutLibcuPipeline holds the model to calibration/h200/libpipe.csv, a
// warp-specialised pipeline written with libcu++'s cuda::barrier that no fit
// has seen: the 18 rows at most 11 % off on average, none over 17 % but the
// four-stage rows, which the H200 runs slower than two stages (ptxas gives
// k_libpipe<4>'s loads one address register: docs/model.md's known misses),
// none of those over 36 %. Two mechanisms were read from its SASS (its
// parameters come from other files): the consumer's three-input adds
// (compiler.FuseAdds), and the shared window its consumer re-reads at each use in
// a loop holding libcu++'s back-off wait (compiler.ReloadSharedWindowInSleepLoops,
// whose cost window.csv measures). With 61 cycles a read, the call loops'
// effective figure, it was 6.3 % (and ptxpipe.csv 13.0 %); with neither
// mechanism 7.3 %; what its consumer pays beyond the model (lpstamp.csv:
// 50–80 cycles a tile in the summing loop, 45 after it) is not identified.
func TestHeldOutLibcuPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "libpipe.csv", 18, 17, 11, func(key string) bool { return strings.Contains(key, "_stages4,") })
	rows := repoCalibration(t, sm.DefaultConfig(), `libpipe\.csv:.*_stages4,`)
	for k, r := range rows {
		if math.Abs(r.ErrorPct) > 36 {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
}

// TestHeldOutCCCLPipelines holds the model to calibration/h200/ptxpipe.csv:
// warp-specialised TMA pipelines in CCCL's cuda::ptx and cuda::barrier terms,
// 2–4 stages, 1–4 consumer warps, measured after every fit (13.0 % at its
// first run; two mechanisms read from its SASS since, their costs measured
// elsewhere): the 72 rows at most 6.5 % off on average, none over 11 %.
func TestHeldOutCCCLPipelines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "ptxpipe.csv", 72, 11, 6.5, nil)
}

// TestHeldOutCudaPipeline holds the model to calibration/h200/cpipe.csv:
// the Programming Guide's cuda::pipeline pipelines (cp.async with libcu++'s
// waits on the pipeline's shared state), measured after every fit and run
// with nothing read from its SASS: the 24 rows at most 11 % off on average,
// none over 27 % (the one over 20 %, four stages slower than two on the H200,
// is libpipe.csv's known miss).
func TestHeldOutCudaPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "cpipe.csv", 24, 27, 11, nil)
}

// TestHeldOutEpiloguePipeline holds the model to calibration/h200
// epilogue.csv: a warp-specialised pipeline whose consumers transform each
// bulk-loaded tile into one of two output buffers that one consumer thread
// writes back with a bulk store, measured after every fit. The model runs 13–23 % fast, 17.1 % on average, since the
// consumer's bulk store pays its operands' moves to uniform registers and its
// source reads share the shared-memory array with the consumers' loads and
// stores (docs/model.md, known misses: the copy loop's register
// reuse in its SASS, what fence.proxy.async becomes, the store's address
// arithmetic); this pins that level.
func TestHeldOutEpiloguePipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "epilogue.csv", 12, 26, 19, nil)
}

// libcopy.csv is held out too: the Programming Guide's cuda::memcpy_async
// pattern, whose PTX libcu++ writes (expect_tx.relaxed, an arrive with a
// count operand, a token try_wait loop). It must keep running and stay at
// the level reached: 10.3 % when it was measured, 3.3 % once the shared
// window's reload in loops with a call (prodonly.csv) was modelled.
func TestHeldOutLibcuMemcpyAsync(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "libcopy.csv", 8, 25, 5, nil)
}

// wspipe.csv is held out as well: a warp-specialised TMA pipeline in
// CUTLASS's idioms (elect.sync producer, hinted try_wait loops,
// arrive.expect_tx and 2-D tensor copies, elected consumer releases). It was
// 25.0 % when first run; two ptxas behaviours read from its SASS (registers
// of their own for each unrolled copy's temporaries; arithmetic scheduled
// above a barrier arrive and the wait loop before it) brought it to 8.4 %,
// every row within 12.5 %, with no parameter fitted to it; leaving out the
// convergence barrier its SASS does not have on the consumer's and
// producer's wait loops (compiler.MarkDivergentWaits: exitwait.csv) to 2.96 %,
// every row within 7 %. With a tensor copy's extra setup measured at none
// (tma.descriptor, calibration/h200/tma_swizzle.csv; 44 was fitted
// before) it is 3.73 % from the PTX, every row within 7.1 % (3.43 % from the
// SASS).
func TestHeldOutCutlassStylePipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "wspipe.csv", 24, 8, 4, nil)
}

// dsweep.csv (fitted to nothing): the arrive/wait loop with 0-12 clock reads
// between the arrive and the try_wait. A few cycles of layout move the H200's
// 16- and 32-warp phases by ±10 %, up and down, which the model does not
// follow; it holds the level it reached: 6.5 %, every row within 17 % (8.2 %
// and 31 % when the file was measured, before compiler.HoistInvariantCompares took
// the lane test out of the loop, as ptxas does; converged_k4_warps8 +16.2 %).
func TestLayoutSweepHoldsItsLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	holdsLevel(t, "dsweep.csv", 80, 17, 7, nil)
}

// validate --check applies the targets: microbench.csv's mean and
// worst row, probe.csv's latency rows within 10 % (not its arrive-throughput
// or cold-copy rows, which are shown but not targeted), and every semantic
// row exact.
func TestValidateCheckAppliesTheTargets(t *testing.T) {
	ok := Metric{Rows: 70, MAPE: 4.5, Worst: 12, WorstRow: "a"}
	row := func(bench string, errPct float64) Row {
		return Row{File: "probe.csv", Bench: bench, Config: "c", Metric: "m", Measured: 100, Predicted: 100 + errPct, ErrorPct: errPct}
	}
	cases := []struct {
		name    string
		overall Metric
		rows    []Row
		missed  bool
	}{
		{"all targets met", ok, []Row{row("alu_chain", 4), row("arrive_throughput", 40), row("semantics_tma_oob", -57)}, false},
		{"microbench MAPE over 5 %", Metric{Rows: 70, MAPE: 5.2, Worst: 12}, nil, true},
		{"a microbench row over 15 %", Metric{Rows: 70, MAPE: 4.5, Worst: 17.8, WorstRow: "b"}, nil, true},
		{"a probe latency row over 10 %", ok, []Row{row("smem_load_chain", -10.5)}, true},
		{"a semantic row wrong", ok, []Row{{File: "probe.csv", Bench: "semantics", Semantic: true, Measured: 1, Predicted: 0}}, true},
	}
	for _, c := range cases {
		v := &Validation{Rows: c.rows, Overall: map[string]Metric{"microbench.csv": c.overall}}
		if got := v.Missed() != ""; got != c.missed {
			t.Errorf("%s: missed %q, want missed=%v", c.name, v.Missed(), c.missed)
		}
	}
}
