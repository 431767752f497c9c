package calibration

import (
	"context"
	"math"
	"reflect"
	"regexp"
	"runtime"
	"sync"
	"testing"

	"github.com/smsim/smsim/sm"
)

// Facts of mbarrier-semantics.md §5 that are timings of the whole SM, checked
// by running the H200 suite's own kernels (their PTX) as `smsim validate`
// does. Barrier-local facts (§5.1, 5.6–5.10) are tested in package mbarrier,
// §5.2 in package tma and in edge_test.go. The tolerances are those the
// current calibration reaches (docs/validation.md).

func validateRows(t *testing.T, only string) map[string]Row {
	t.Helper()
	return rowsOf(t, "h200", sm.DefaultConfig(),
		Options{Quick: true, Only: only})
}

// fullRuns are the whole suite at full length on the h200 configuration,
// from each input form, as `smsim validate --input FORM` runs it, each made
// once for every test that reads its rows (and for docs/validation.md's
// check).
var fullRuns = map[string]*fullRun{"ptx": {}, "sass": {}}

type fullRun struct {
	once sync.Once
	v    *Validation
	err  error
}

// fullValidation is the suite run from PTX.
func fullValidation(t *testing.T) *Validation { return fullValidationOf(t, "ptx") }

// fullSASSValidation is the suite run from SASS.
func fullSASSValidation(t *testing.T) *Validation { return fullValidationOf(t, "sass") }

func fullValidationOf(t *testing.T, input string) *Validation {
	t.Helper()
	r := fullRuns[input]
	r.once.Do(func() {
		r.v, r.err = Validate(context.Background(), "h200", sm.DefaultConfig(), Options{Input: input}, runtime.NumCPU(), nil)
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	return r.v
}

// rowsOf runs validate on dir with cfg and returns its rows by
// "bench,config,metric"; a row that failed to run fails the test. Rows of
// the full-length suite on the h200 configuration come from fullValidation.
func rowsOf(t *testing.T, dir string, cfg sm.Config, opts Options) map[string]Row {
	t.Helper()
	var rows []Row
	if dir == "h200" && !opts.Quick && reflect.DeepEqual(cfg, sm.DefaultConfig()) {
		only, err := regexp.Compile(opts.Only)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range fullValidation(t).Rows {
			if only.MatchString(r.File + ":" + r.Bench + "," + r.Config + "," + r.Metric) {
				rows = append(rows, r)
			}
		}
	} else {
		v, err := Validate(context.Background(), dir, cfg, opts, runtime.NumCPU(), nil)
		if err != nil {
			t.Fatal(err)
		}
		rows = v.Rows
	}
	out := map[string]Row{}
	for _, r := range rows {
		if r.Err != "" {
			t.Fatalf("%s,%s: %s", r.Bench, r.Config, r.Err)
		}
		out[r.Bench+","+r.Config+","+r.Metric] = r
	}
	return out
}

func within(t *testing.T, rows map[string]Row, key string, pct float64) Row {
	t.Helper()
	r, ok := rows[key]
	if !ok {
		t.Fatalf("no row %s", key)
	}
	if math.Abs(r.ErrorPct) > pct {
		t.Errorf("%s: predicted %.1f, measured %.1f (%.1f %%, allowed %.0f %%)", key, r.Predicted, r.Measured, r.ErrorPct, pct)
	}
	return r
}

// §5.3: hwprobe.cu's try_wait on an open phase: 33 cycles clock to clock
// without a hint (the guarded-off hinted TRYWAIT's scoreboard: the un-hinted
// one answers false only after ~7,800 cycles, calibration/h200/trywait.csv)
// and ~7838 with any hint; a try_wait loop sees another warp's arrival ~101
// cycles later, a test_wait spin ~159 cycles later; test_wait takes ~8.
func TestMeasured5_3_TryWaitTimeLimitsAndWakeUp(t *testing.T) {
	rows := validateRows(t, "try_wait_incomplete_phase|test_wait_incomplete_phase|wake_latency")
	within(t, rows, "try_wait_incomplete_phase,hint_ns0,median_cycles_until_false", 10)
	for _, h := range []string{"100", "1000", "10000", "100000"} {
		within(t, rows, "try_wait_incomplete_phase,hint_ns"+h+",median_cycles_until_false", 2)
		if r := rows["try_wait_incomplete_phase,hint_ns"+h+",returned_true"]; r.Predicted != 0 {
			t.Errorf("hint %s ns: a try_wait on a phase that never completes returned true", h)
		}
	}
	within(t, rows, "test_wait_incomplete_phase,single,cycles", 15)
	within(t, rows, "wake_latency,try_wait_loop,median_cycles", 15)
	within(t, rows, "wake_latency,test_wait_spin,median_cycles", 15)
}

// §5.4: one warp issues back-to-back converged arrives every ~5.4 cycles;
// four or more warps saturate the barrier unit at ~2 cycles per update.
func TestMeasured5_4_BarrierUnitThroughput(t *testing.T) {
	rows := validateRows(t, "arrive_throughput,converged|arrive_issue_interval")
	within(t, rows, "arrive_throughput,converged_warps1_64each,cycles_per_update", 10)
	within(t, rows, "arrive_throughput,converged_warps16_64each,cycles_per_update", 15)
	within(t, rows, "arrive_throughput,converged_warps32_64each,cycles_per_update", 15)
	within(t, rows, "latency,single_thread,arrive_issue_interval_64_back_to_back", 5)
}

// §5.5: warp entanglement costs time: an arrive + try_wait loop on one warp
// takes 66 cycles a phase converged, 105 split in halves, 306 lane-serial.
func TestMeasured5_5_EntanglementCostsTime(t *testing.T) {
	rows := validateRows(t, "arrive_wait_loop,(converged|divergent2|divergent32)_warps1,")
	c := within(t, rows, "arrive_wait_loop,converged_warps1,cycles_per_phase", 10)
	h := within(t, rows, "arrive_wait_loop,divergent2_warps1,cycles_per_phase", 15)
	l := within(t, rows, "arrive_wait_loop,divergent32_warps1,cycles_per_phase", 10)
	if !(c.Predicted < h.Predicted && h.Predicted < l.Predicted) {
		t.Errorf("got %.0f, %.0f, %.0f cycles a phase, want converged < halves < lane-serial", c.Predicted, h.Predicted, l.Predicted)
	}
}
