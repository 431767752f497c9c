package calibration

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// TestCalibrationKernelsRunFromSASS runs every kernel of the calibration
// suite from its SASS (the listing with the cubin beside it) and requires it
// to run to completion: in the full run validate --input sass makes (which
// the docs' check shares), or, with -short, once with the launch one of its
// recipes makes (arguments, input buffers; loops shortened as validate
// --quick does).
func TestCalibrationKernelsRunFromSASS(t *testing.T) {
	if !testing.Short() {
		v := fullSASSValidation(t)
		kernels := map[string]bool{}
		for _, l := range v.Launches {
			kernels[l.Kernel] = true
		}
		for _, r := range v.Rows {
			if r.Err != "" {
				t.Errorf("%s %s,%s,%s: %s", r.File, r.Bench, r.Config, r.Metric, r.Err)
			}
		}
		if len(kernels) < 250 {
			t.Errorf("%d calibration kernels, want them all", len(kernels))
		}
		return
	}
	dir := DefaultDir()
	sources := &sourceCache{dir: dir, m: map[string]*run.Source{}}
	seen := map[string]bool{}
	for _, r := range recipes(dir, Options{Quick: true}) {
		key := r.file + " " + r.kernel
		if seen[key] {
			continue
		}
		seen[key] = true
		r.file = strings.TrimSuffix(r.file, ".ptx") + ".sass"
		t.Run(filepath.Base(r.file)+"/"+r.kernel+fmt.Sprint(r.block, r.args), func(t *testing.T) {
			t.Parallel()
			if _, _, err := runRecipe(sources, r, sm.DefaultConfig()); err != nil {
				t.Fatal(err)
			}
		})
	}
	if len(seen) < 250 {
		t.Errorf("%d calibration kernels, want them all", len(seen))
	}
}

// Every application case runs from the SASS the H200 ran, and its outputs
// are the H200's bit for bit (but for inexactApps).
func TestApplicationSetRunsFromSASS(t *testing.T) {
	checkApps(t, appsFrom(t, "sass"))
}

// TestSASSHoldsItsLevel holds the suite run from SASS to the level it
// reached (docs/validation.md; docs/sass-timing.md gives each mechanism
// with its rows): the mean absolute error of all 1,797 timing rows and of
// microbench.csv's, microbench.csv's worst row, probe.csv's latency rows
// and every semantic row exact.
func TestSASSHoldsItsLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite from SASS")
	}
	v := fullSASSValidation(t)
	// Held at the level of the memory path's (with its DRAM channels and
	// refresh), the
	// barrier unit's (with the constant loads that share its port), the
	// special-register reads', the constant caches', a BSYNC's redirect, a
	// CTA-scope membar's wait for shared stores and a YIELD's switch
	// between a warp's paths' measured timing, with the polling of an
	// elected lane's try_wait (docs/model.md): all rows 4.73 % (with the
	// 290 tensor-core rows, 2.93 % on their own), microbench.csv 3.64 % —
	// issue 31's targets are 5 and 4 %. Its worst row, elected_count1_warps16
	// (-12.5 %), is the arrive/wait loops' per-warp cost at many warps the
	// model lacks (docs/model.md).
	const allMAPE, microMAPE, microWorst = 5.0, 4.0, 13.5
	if m := v.Overall["all"]; m.Rows != 1797 || m.MAPE > allMAPE {
		t.Errorf("all files from SASS: %d rows, MAPE %.2f %% (held at %g %%)", m.Rows, m.MAPE, allMAPE)
	}
	if m := v.Overall["microbench.csv"]; m.Rows != 70 || m.MAPE > microMAPE || m.Worst > microWorst {
		t.Errorf("microbench.csv from SASS: %d rows, MAPE %.2f %% (held at %g %%), worst %.1f %% (%s; held at %g %%)",
			m.Rows, m.MAPE, microMAPE, m.Worst, m.WorstRow, microWorst)
	}
	// The tensor-core files (calibration/h200/README.md, "Tensor cores"),
	// 290 rows at 2.93 %: docs/validation.md names the rows that miss.
	const tensorMAPE = 3.1
	rows, sum := 0, 0.0
	for _, f := range []string{"wgmma_timing.csv", "wgmma_rate.csv", "wgmma_share.csv", "stg_wgmma.csv", "tma_swizzle.csv"} {
		rows, sum = rows+v.Overall[f].Rows, sum+v.Overall[f].MAPE*float64(v.Overall[f].Rows)
	}
	if rows != 290 || sum/float64(rows) > tensorMAPE {
		t.Errorf("tensor-core files from SASS: %d rows, MAPE %.2f %% (held at %g %%)", rows, sum/max(float64(rows), 1), tensorMAPE)
	}
	for _, r := range v.Rows {
		if r.Semantic && r.Predicted != r.Measured {
			t.Errorf("%s %s,%s,%s from SASS: predicted %g, measured %g", r.File, r.Bench, r.Config, r.Metric, r.Predicted, r.Measured)
		}
		if r.File == "probe.csv" && !r.Semantic && ProbeLatencyBench(r.Bench) && math.Abs(r.ErrorPct) > 10 && !strings.HasPrefix(r.Config, "hint_ns") && !sassKnownDeparture(r) {
			t.Errorf("probe.csv %s,%s from SASS: predicted %.1f, measured %.1f (%+.1f %%)", r.Bench, r.Config, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
}

// sassKnownDeparture names the probe rows the SASS path is known to miss,
// each for a mechanism the model does not have yet (docs/validation.md).
// test_wait_incomplete_phase's 8 cycles are the time between two clock reads
// around a SYNCS.PHASECHK; the second CS2R waits on the read scoreboard of
// the second of two back-to-back STG.E.64 (hwprobe.sass), whose register
// read the H200 serialises behind the first's. The model releases every
// read scoreboard sass.read_scoreboard cycles after its own issue, so it
// measures 4.
func sassKnownDeparture(r Row) bool {
	return r.File == "probe.csv" && r.Bench == "test_wait_incomplete_phase"
}

// sreg.csv (calibration/h200/sreg.cu, not a validate row): a special-register
// read and the shared store whose address depends on it, clock to clock,
// run from the SASS the H200 ran. With sass.special_read the model is within
// 5 % of each read the probe isolates (S2R SR_VIRTUALSMID, S2R SR_VIRTID,
// S2UR SR_VIRTUALSMID) and exact for the clock read, which sets no
// scoreboard; at latency.special's 2 cycles the reads would be over half short.
func TestSpecialRegisterReadsMatchTheH200(t *testing.T) {
	dir := DefaultDir()
	meas, err := readCSV(filepath.Join(dir, "sreg.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{}
	for _, m := range meas {
		want[m.config] = m.value
	}
	sources := &sourceCache{dir: dir, m: map[string]*run.Source{}}
	const reps = 64
	for _, c := range []struct {
		mode      int
		name      string
		tolerance float64 // percent
	}{{3, "smid", 5}, {4, "warpid", 5}, {6, "s2r_smid", 5}, {5, "clock64", 0}} {
		r := recipe{file: "sreg.sass", kernel: fmt.Sprintf("_Z6k_sregILi%dEEviiPx", c.mode), block: 32, smem: 4096,
			args: []string{fmt.Sprint(reps), "77", fmt.Sprintf("buf:%d", 8*reps)}, outLen: reps,
			rows: []rowFn{{"sreg", c.name, "cycles", func(o []int64) float64 { return median(o[1:]) }}}}
		got, _, err := runRecipe(sources, r, sm.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		m, ok := want[c.name]
		if !ok {
			t.Fatalf("sreg.csv has no row %s", c.name)
		}
		if e := 100 * (got[0] - m) / m; math.Abs(e) > c.tolerance {
			t.Errorf("sreg %s: %.1f cycles clock to clock, the H200 %.1f (%+.1f %%, within %g %%)", c.name, got[0], m, e, c.tolerance)
		}
	}
}
