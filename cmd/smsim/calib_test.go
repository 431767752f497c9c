package main

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/smsim/smsim/sm"
)

// The fit must not regress: TestCalibrationHoldsItsLevel runs the H200
// suite (shortened loops) and fails when microbench.csv's mean absolute
// percentage error or its worst row gets worse than the current fit allows,
// or any semantic row stops matching. The targets (5 % / 15 %) are
// not met yet; these bounds are the level reached, so regressions show.
func TestCalibrationHoldsItsLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite")
	}
	v, err := validate(filepath.Join("..", "..", "..", "shared", "calibration", "h200"), sm.DefaultConfig(), suiteOpts{quick: true, only: "microbench.csv|probe.csv"},
		runtime.NumCPU(), nil)
	if err != nil {
		t.Fatal(err)
	}
	m := v.Overall["microbench.csv"]
	if m.Rows != 70 {
		t.Fatalf("got %d microbench rows, want 70", m.Rows)
	}
	if m.MAPE > 6.5 {
		t.Errorf("microbench.csv MAPE %.2f %% > 6.5 %%", m.MAPE)
	}
	if m.Worst > 25 {
		t.Errorf("microbench.csv worst row %s off by %.1f %% > 25 %%", m.WorstRow, m.Worst)
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
