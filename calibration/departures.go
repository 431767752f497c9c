package calibration

import (
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/smsim/smsim/report"
)

// DefaultDepartureThreshold is the least difference between the PTX and the
// SASS path's predictions of a row, in percent of its measurement, that
// `validate --departures` lists.
const DefaultDepartureThreshold = 10

// Departures lists where the compiler model (the PTX path) departs from the
// SASS path: the rows whose two predictions differ by more than Threshold
// percent of the measurement, grouped by the kernel that measures them.
type Departures struct {
	Threshold float64 `json:"threshold_pct"`
	Rows      int     `json:"rows"`      // rows compared (timing rows both forms ran)
	Kernels   int     `json:"kernels"`   // kernels compared
	Departing int     `json:"departing"` // rows listed
	// PTXCloser and SASSCloser count the listed rows on which that path's
	// prediction is the nearer to the H200's.
	PTXCloser  int               `json:"ptx_closer"`
	SASSCloser int               `json:"sass_closer"`
	ByKernel   []KernelDeparture `json:"by_kernel"`
}

// KernelDeparture is one kernel's departing rows of one CSV file, and the
// error of both paths over all its rows of that file.
type KernelDeparture struct {
	File     string      `json:"file"`
	Source   string      `json:"source"`
	Kernel   string      `json:"kernel"`
	Rows     int         `json:"rows"`
	PTXMAPE  float64     `json:"ptx_mape_pct"`
	SASSMAPE float64     `json:"sass_mape_pct"`
	Listed   []Departure `json:"rows_departing"`
}

// Departure is one row both paths predict differently.
type Departure struct {
	Row      string  `json:"row"` // bench,config,metric
	Measured float64 `json:"measured"`
	PTX      float64 `json:"ptx"`
	PTXErr   float64 `json:"ptx_error_pct"`
	SASS     float64 `json:"sass"`
	SASSErr  float64 `json:"sass_error_pct"`
	Gap      float64 `json:"gap_pct"` // PTX less SASS, in percent of the measurement
}

// FindDepartures compares a validation from PTX with one from SASS of the
// same rows and lists the rows whose predictions differ by more than
// threshold percent of their measurement. Semantic rows and rows that
// failed on either path are not compared.
func FindDepartures(ptx, sass *Validation, threshold float64) *Departures {
	d := &Departures{Threshold: threshold}
	other := rowsByKey(sass)
	idx := map[string]int{}
	var all []*KernelDeparture
	for _, p := range ptx.Rows {
		s, ok := other[p.key()]
		if !ok || p.Semantic || p.Err != "" || s.Err != "" {
			continue
		}
		name := p.File + " " + p.Kernel
		i, ok := idx[name]
		if !ok {
			i = len(all)
			idx[name] = i
			all = append(all, &KernelDeparture{File: p.File, Source: p.Source, Kernel: p.Kernel})
		}
		k := all[i]
		k.Rows++
		k.PTXMAPE += math.Abs(p.ErrorPct)
		k.SASSMAPE += math.Abs(s.ErrorPct)
		d.Rows++
		gap := p.ErrorPct - s.ErrorPct
		if math.Abs(gap) <= threshold {
			continue
		}
		d.Departing++
		if math.Abs(p.ErrorPct) < math.Abs(s.ErrorPct) {
			d.PTXCloser++
		} else {
			d.SASSCloser++
		}
		k.Listed = append(k.Listed, Departure{Row: p.Bench + "," + p.Config + "," + p.Metric, Measured: p.Measured,
			PTX: p.Predicted, PTXErr: p.ErrorPct, SASS: s.Predicted, SASSErr: s.ErrorPct, Gap: gap})
	}
	d.Kernels = len(all)
	for _, k := range all {
		k.PTXMAPE /= float64(k.Rows)
		k.SASSMAPE /= float64(k.Rows)
		if len(k.Listed) > 0 {
			d.ByKernel = append(d.ByKernel, *k)
		}
	}
	return d
}

// WriteDepartures prints the departures: one table row per departing row,
// its file and kernel named on the first of their rows with the MAPE of each
// path over all the kernel's rows of the file, then a summary line.
func WriteDepartures(w io.Writer, d *Departures) error {
	t := report.NewTable(w, "file", "kernel", "rows", "ptx MAPE %", "sass MAPE %", "row", "measured", "ptx", "ptx error %", "sass", "sass error %", "ptx - sass %")
	f := func(x float64, prec int) string { return strconv.FormatFloat(x, 'f', prec, 64) }
	for _, k := range d.ByKernel {
		for i, r := range k.Listed {
			head := []any{"", "", "", "", ""}
			if i == 0 {
				head = []any{k.File, k.Kernel, k.Rows, f(k.PTXMAPE, 1), f(k.SASSMAPE, 1)}
			}
			_ = t.Append(append(head, r.Row, f(r.Measured, 2), f(r.PTX, 2), f(r.PTXErr, 1), f(r.SASS, 2), f(r.SASSErr, 1), f(r.Gap, 1))...)
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "%d of %d rows (%d of %d kernels) depart by more than %g %% of the measurement; "+
		"the PTX path is nearer the H200 on %d of them, the SASS path on %d\n",
		d.Departing, d.Rows, len(d.ByKernel), d.Kernels, d.Threshold, d.PTXCloser, d.SASSCloser)
	return err
}
