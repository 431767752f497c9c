package calibration

import (
	"fmt"
	"math"
	"regexp"
)

// Row is a measured row and what the simulator predicts for it.
type Row struct {
	File      string  `json:"file"`
	Bench     string  `json:"bench"`
	Config    string  `json:"config"`
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Predicted float64 `json:"predicted"`
	ErrorPct  float64 `json:"error_pct"` // (predicted - measured) / measured, or the absolute difference ×100 for measured 0
	Semantic  bool    `json:"semantic"`  // a functional answer (0/1), which must match exactly
	Err       string  `json:"error,omitempty"`
	// Source and Kernel name the launch that measured the row: the
	// calibration file it runs from (without its extension: elect) and the
	// kernel as the CUDA source names it (k_elect<0>).
	Source string `json:"source"`
	Kernel string `json:"kernel"`
}

// Launch is one recipe's run.
type Launch struct {
	Kernel      string  `json:"kernel"`
	Name        string  `json:"name"` // the kernel as its source names it (demangled, without parameters)
	Args        string  `json:"args"`
	Cycles      uint64  `json:"cycles"`
	HostSeconds float64 `json:"host_seconds"`
	Slowdown    float64 `json:"slowdown"` // host time over the hardware's time for the same cycles
}

// Validation is what validate reports: every row, the error per family
// (file and bench) and overall (per file and "all"), and the launches.
type Validation struct {
	Input    string            `json:"input"`          // the form the kernels ran from: ptx or sass
	Only     string            `json:"only,omitempty"` // the rows selected (--only), "" for all
	Rows     []Row             `json:"rows"`
	Families []Family          `json:"families"`
	Overall  map[string]Metric `json:"overall"`
	Launches []Launch          `json:"launches"`
}

// Family is the error of one bench of one file.
type Family struct {
	File  string  `json:"file"`
	Bench string  `json:"bench"`
	Rows  int     `json:"rows"`
	MAPE  float64 `json:"mape_pct"`
	Worst float64 `json:"worst_abs_error_pct"`
}

// Metric is the error of a file's rows, or of all rows.
type Metric struct {
	Rows     int     `json:"rows"`
	MAPE     float64 `json:"mape_pct"`
	Worst    float64 `json:"worst_abs_error_pct"`
	WorstRow string  `json:"worst_row"`
}

// semanticRow matches the rows of functional answers (0/1), which must match exactly.
var semanticRow = regexp.MustCompile(`^(semantics|semantics2)$|phase_completed|returned_true|false_per_warp_phase`)

// relErr is the row's error in percent: (pred - meas) / |meas|, or the
// difference times 100 for a measured 0.
func relErr(pred, meas float64) float64 {
	if meas == 0 {
		return 100 * (pred - meas)
	}
	return 100 * (pred - meas) / math.Abs(meas)
}

// summarize computes per-family and overall errors (semantic rows excluded
// from percentages: they must match exactly and are checked separately).
func (v *Validation) summarize() {
	fam := map[string]*Family{}
	var order []string
	over := map[string]*Metric{}
	for _, r := range v.Rows {
		if r.Semantic {
			continue
		}
		k := r.File + "/" + r.Bench
		f, ok := fam[k]
		if !ok {
			f = &Family{File: r.File, Bench: r.Bench}
			fam[k] = f
			order = append(order, k)
		}
		a := math.Abs(r.ErrorPct)
		f.Rows++
		f.MAPE += a
		f.Worst = math.Max(f.Worst, a)
		for _, scope := range []string{r.File, "all"} {
			m, ok := over[scope]
			if !ok {
				m = &Metric{}
				over[scope] = m
			}
			m.Rows++
			m.MAPE += a
			if a >= m.Worst {
				m.Worst, m.WorstRow = a, r.Bench+","+r.Config+","+r.Metric
			}
		}
	}
	for _, k := range order {
		f := fam[k]
		f.MAPE /= float64(f.Rows)
		v.Families = append(v.Families, *f)
	}
	v.Overall = map[string]Metric{}
	for k, m := range over {
		m.MAPE /= float64(m.Rows)
		v.Overall[k] = *m
	}
}

// ProbeLatencyBench reports whether a probe.csv bench is one of its latency
// measurements, which the calibration target holds to 10 %: the arithmetic,
// global- and shared-load chains, the __syncthreads loop and the waits on an
// incomplete phase (28 rows). The arrive-throughput rows and the cold
// tensor copies' completion times are validated and shown, not targeted.
func ProbeLatencyBench(bench string) bool {
	switch bench {
	case "alu_chain", "global_load_chain", "smem_load_chain", "syncthreads_loop",
		"test_wait_incomplete_phase", "try_wait_incomplete_phase":
		return true
	}
	return false
}

// Missed names the calibration targets the validation misses, or "": those
// of its input form (TargetsFor), the all-files target only on a run of
// every row.
func (v *Validation) Missed() string {
	t := TargetsFor(v.Input)
	var out []string
	if m, ok := v.Overall["microbench.csv"]; ok {
		if m.MAPE > t.MicrobenchMAPE {
			out = append(out, fmt.Sprintf("microbench.csv MAPE %.1f %% > %g %%", m.MAPE, t.MicrobenchMAPE))
		}
		if m.Worst > t.MicrobenchWorst {
			out = append(out, fmt.Sprintf("microbench.csv worst row %s off by %.1f %% > %g %%", m.WorstRow, m.Worst, t.MicrobenchWorst))
		}
	}
	if m, ok := v.Overall["all"]; ok && t.AllMAPE > 0 && v.Only == "" && m.MAPE > t.AllMAPE {
		out = append(out, fmt.Sprintf("all files MAPE %.1f %% > %g %%", m.MAPE, t.AllMAPE))
	}
	for _, r := range v.Rows {
		if r.File == "probe.csv" && !r.Semantic && ProbeLatencyBench(r.Bench) && math.Abs(r.ErrorPct) > t.ProbeLatency {
			out = append(out, fmt.Sprintf("probe.csv %s,%s off by %.1f %% > %g %%", r.Bench, r.Config, r.ErrorPct, t.ProbeLatency))
		}
		if r.Semantic && r.Predicted != r.Measured {
			out = append(out, fmt.Sprintf("%s %s,%s,%s: predicted %g, measured %g", r.File, r.Bench, r.Config, r.Metric, r.Predicted, r.Measured))
		}
	}
	if len(out) == 0 {
		return ""
	}
	s := out[0]
	if len(out) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(out)-1)
	}
	return s
}
