package calibration

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/smsim/smsim/report"
)

// WriteTable prints a validation: every row (measured, predicted, error),
// the rows that failed to run, the error per family and per file, and the
// host time and slowdown.
func WriteTable(w io.Writer, v *Validation) error {
	t := report.NewTable(w, "file", "bench", "config", "metric", "measured", "predicted", "error %")
	for _, r := range v.Rows {
		pred := strconv.FormatFloat(r.Predicted, 'f', 2, 64)
		if r.Err != "" {
			pred = "error"
		}
		_ = t.Append(r.File, r.Bench, r.Config, r.Metric, strconv.FormatFloat(r.Measured, 'f', 2, 64), pred,
			strconv.FormatFloat(r.ErrorPct, 'f', 1, 64))
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, r := range v.Rows {
		if r.Err != "" {
			fmt.Fprintf(w, "error in %s,%s: %s\n", r.Bench, r.Config, r.Err)
		}
	}
	fmt.Fprintln(w)
	ft := report.NewTable(w, "file", "family", "rows", "MAPE %", "worst %")
	for _, f := range v.Families {
		_ = ft.Append(f.File, f.Bench, f.Rows, strconv.FormatFloat(f.MAPE, 'f', 1, 64), strconv.FormatFloat(f.Worst, 'f', 1, 64))
	}
	if err := ft.Render(); err != nil {
		return err
	}
	var keys []string
	for k := range v.Overall {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := v.Overall[k]
		fmt.Fprintf(w, "%-16s %3d rows  MAPE %5.2f %%  worst %5.1f %% (%s)\n", k, m.Rows, m.MAPE, m.Worst, m.WorstRow)
	}
	var host, slow float64
	for _, l := range v.Launches {
		host += l.HostSeconds
		slow = math.Max(slow, l.Slowdown)
	}
	_, err := fmt.Fprintf(w, "%d launches simulated in %.1f s of host time; slowdown against the H200 up to %.0fx\n",
		len(v.Launches), host, slow)
	return err
}
