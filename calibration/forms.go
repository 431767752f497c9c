package calibration

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// Inputs are the forms a calibration kernel runs from: its PTX, through the
// compiler model, or the SASS ptxas made of it, timed by its control bits.
var Inputs = []string{"ptx", "sass"}

// CheckInputs reports an input form that is not one of Inputs, or none.
func CheckInputs(inputs []string) error {
	if len(inputs) == 0 {
		return &run.UsageError{Msg: "--input: want ptx, sass or both"}
	}
	seen := map[string]bool{}
	for _, in := range inputs {
		if in != "ptx" && in != "sass" {
			return &run.UsageError{Msg: fmt.Sprintf("--input %q: want ptx or sass", in)}
		}
		if seen[in] {
			return &run.UsageError{Msg: fmt.Sprintf("--input %q given twice", in)}
		}
		seen[in] = true
	}
	return nil
}

// Forms is the suite validated from several input forms, in the order
// given: the same rows, each predicted once per form.
type Forms struct {
	Inputs      []string               `json:"inputs"`
	Validations map[string]*Validation `json:"validations"` // by input form
}

// ValidateForms runs Validate once per input form (opts.Input is ignored).
func ValidateForms(ctx context.Context, dir string, cfg sm.Config, opts Options, inputs []string, jobs int, progress io.Writer) (*Forms, error) {
	if err := CheckInputs(inputs); err != nil {
		return nil, err
	}
	f := &Forms{Inputs: inputs, Validations: map[string]*Validation{}}
	for _, in := range inputs {
		o := opts
		o.Input = in
		v, err := Validate(ctx, dir, cfg, o, jobs, progress)
		if err != nil {
			return nil, err
		}
		f.Validations[in] = v
	}
	return f, nil
}

// Targets are the calibration targets one input form is held to.
type Targets struct {
	MicrobenchMAPE  float64 // microbench.csv's mean absolute percentage error, at most
	MicrobenchWorst float64 // microbench.csv's worst row, at most
	ProbeLatency    float64 // every probe.csv latency row (ProbeLatencyBench), at most
	AllMAPE         float64 // every file's rows together, at most (0: no target); judged on a full run only
}

// TargetsFor is what `validate --check` holds the input form to. PTX: the
// issue that calibrated the timing model (microbench.csv MAPE ≤ 5 %, no row
// worse than 15 %, probe.csv's latency rows within 10 %). SASS, where the
// schedule is ptxas's own and no compiler model stands between: microbench.csv
// ≤ 4 % and all files together ≤ 5 %, with the same row bounds.
func TargetsFor(input string) Targets {
	if input == "sass" {
		return Targets{MicrobenchMAPE: 4, MicrobenchWorst: 15, ProbeLatency: 10, AllMAPE: 5}
	}
	return Targets{MicrobenchMAPE: 5, MicrobenchWorst: 15, ProbeLatency: 10}
}

// String states the targets as --check's help does.
func (t Targets) String() string {
	s := fmt.Sprintf("microbench.csv MAPE <= %g %%, worst row <= %g %%; probe latency rows <= %g %%", t.MicrobenchMAPE, t.MicrobenchWorst, t.ProbeLatency)
	if t.AllMAPE > 0 {
		s += fmt.Sprintf("; all files MAPE <= %g %%", t.AllMAPE)
	}
	return s
}

// Missed names the targets of the forms' validations that are missed, or "".
func (f *Forms) Missed() string {
	var out []string
	for _, in := range f.Inputs {
		if m := f.Validations[in].Missed(); m != "" {
			out = append(out, in+": "+m)
		}
	}
	if len(out) == 0 {
		return ""
	}
	s := out[0]
	for _, m := range out[1:] {
		s += "; " + m
	}
	return s
}

// WriteFormsTable prints the forms side by side: every row with the
// measurement and, per form, the prediction and its error; the error per
// family and form; then per form the lines of WriteTable's summary.
func WriteFormsTable(w io.Writer, f *Forms) error {
	if len(f.Inputs) == 1 {
		return WriteTable(w, f.Validations[f.Inputs[0]])
	}
	head := []any{"file", "bench", "config", "metric", "measured"}
	for _, in := range f.Inputs {
		head = append(head, in, in+" error %")
	}
	t := report.NewTable(w, head...)
	first := f.Validations[f.Inputs[0]]
	byInput := map[string]map[string]Row{}
	for _, in := range f.Inputs {
		byInput[in] = rowsByKey(f.Validations[in])
	}
	for _, r := range first.Rows {
		row := []any{r.File, r.Bench, r.Config, r.Metric, strconv.FormatFloat(r.Measured, 'f', 2, 64)}
		for _, in := range f.Inputs {
			x, ok := byInput[in][r.key()]
			switch {
			case !ok:
				row = append(row, "", "")
			case x.Err != "":
				row = append(row, "error", strconv.FormatFloat(x.ErrorPct, 'f', 1, 64))
			default:
				row = append(row, strconv.FormatFloat(x.Predicted, 'f', 2, 64), strconv.FormatFloat(x.ErrorPct, 'f', 1, 64))
			}
		}
		_ = t.Append(row...)
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, in := range f.Inputs {
		for _, r := range f.Validations[in].Rows {
			if r.Err != "" {
				fmt.Fprintf(w, "error in %s,%s from %s: %s\n", r.Bench, r.Config, in, r.Err)
			}
		}
	}
	fmt.Fprintln(w)
	head = []any{"file", "family", "rows"}
	for _, in := range f.Inputs {
		head = append(head, in+" MAPE %", in+" worst %")
	}
	ft := report.NewTable(w, head...)
	fams := map[string]map[string]Family{}
	for _, in := range f.Inputs {
		fams[in] = map[string]Family{}
		for _, x := range f.Validations[in].Families {
			fams[in][x.File+"/"+x.Bench] = x
		}
	}
	for _, x := range first.Families {
		row := []any{x.File, x.Bench, x.Rows}
		for _, in := range f.Inputs {
			y := fams[in][x.File+"/"+x.Bench]
			row = append(row, strconv.FormatFloat(y.MAPE, 'f', 1, 64), strconv.FormatFloat(y.Worst, 'f', 1, 64))
		}
		_ = ft.Append(row...)
	}
	if err := ft.Render(); err != nil {
		return err
	}
	var keys []string
	for k := range first.Overall {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		for _, in := range f.Inputs {
			m := f.Validations[in].Overall[k]
			fmt.Fprintf(w, "%-16s %-4s %4d rows  MAPE %5.2f %%  worst %5.1f %% (%s)\n", k, in, m.Rows, m.MAPE, m.Worst, m.WorstRow)
		}
	}
	var host, slow float64
	n := 0
	for _, in := range f.Inputs {
		for _, l := range f.Validations[in].Launches {
			host += l.HostSeconds
			slow = math.Max(slow, l.Slowdown)
		}
		n += len(f.Validations[in].Launches)
	}
	_, err := fmt.Fprintf(w, "%d launches simulated in %.1f s of host time; slowdown against the H200 up to %.0fx\n", n, host, slow)
	return err
}

// key names a row: FILE:bench,config,metric.
func (r Row) key() string { return r.File + ":" + r.Bench + "," + r.Config + "," + r.Metric }

// rowsByKey indexes v's rows by Row.key.
func rowsByKey(v *Validation) map[string]Row {
	m := make(map[string]Row, len(v.Rows))
	for _, r := range v.Rows {
		m[r.key()] = r
	}
	return m
}
