package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sweep"
)

// metricHelp lists the metrics a sweep plot can show.
const metricHelp = "cycles, stall_cycles, phases, warp_instructions, host_seconds, " +
	"or per barrier stall:NAME, phase_p50:NAME, phase_p95:NAME, updates_per_phase:NAME"

// metricOf returns a record's value of metric; ok is false when the record
// has no such value (a failed point, or no barrier NAME).
func metricOf(r sweep.Record, metric string) (v float64, ok bool, err error) {
	switch metric {
	case "cycles":
		return float64(r.Cycles), true, nil
	case "stall_cycles":
		return float64(r.StallCycles), true, nil
	case "phases":
		return float64(r.Phases), true, nil
	case "warp_instructions":
		return float64(r.WarpInstructions), true, nil
	case "host_seconds":
		return r.HostSeconds, true, nil
	}
	kind, name, found := strings.Cut(metric, ":")
	if !found {
		return 0, false, &usageError{Msg: fmt.Sprintf("--plot-y %q: want %s", metric, metricHelp)}
	}
	for _, b := range r.Barriers {
		if b.Name != name {
			continue
		}
		switch kind {
		case "stall":
			return float64(b.StallCycles), true, nil
		case "phase_p50":
			return b.PhaseCycles.P50, true, nil
		case "phase_p95":
			return b.PhaseCycles.P95, true, nil
		case "updates_per_phase":
			return b.UpdatesPerPhase, true, nil
		}
		return 0, false, &usageError{Msg: fmt.Sprintf("--plot-y %q: want %s", metric, metricHelp)}
	}
	return 0, false, nil
}

// writeSweepPlot draws metric y against parameter x, one line for each
// combination of the other parameters. Failed points are left out (the
// title counts them). Non-numeric x values are placed in order of first
// appearance.
func writeSweepPlot(flag, path string, rs []sweep.Record, x, y string) error {
	if len(rs) == 0 {
		return &inputError{Err: fmt.Errorf("%s %s: no records to plot", flag, path)}
	}
	if _, ok := rs[0].Params[x]; !ok {
		return &usageError{Msg: fmt.Sprintf("--plot-x %q: not a parameter of the sweep (%s)", x, strings.Join(sweep.ParamNames(rs), ", "))}
	}
	rs = append([]sweep.Record(nil), rs...)
	sort.Slice(rs, func(a, b int) bool { return rs[a].Index < rs[b].Index })
	numeric := true
	var cats []string
	catPos := map[string]float64{}
	for _, r := range rs {
		v := r.Params[x]
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			numeric = false
		}
		if _, ok := catPos[v]; !ok {
			catPos[v] = float64(len(cats))
			cats = append(cats, v)
		}
	}
	var order []string
	lines := map[string]plotter.XYs{}
	failed, absent := 0, 0
	for _, r := range rs {
		if r.Exit != 0 {
			failed++
			continue
		}
		v, ok, err := metricOf(r, y)
		if err != nil {
			return err
		}
		if !ok {
			absent++
			continue
		}
		xv := catPos[r.Params[x]]
		if numeric {
			xv, _ = strconv.ParseFloat(r.Params[x], 64)
		}
		key := otherParams(r.Params, x)
		if _, ok := lines[key]; !ok {
			order = append(order, key)
		}
		lines[key] = append(lines[key], plotter.XY{X: xv, Y: v})
	}
	if len(order) > maxSeries {
		order = order[:maxSeries]
	}
	var ss []series
	for _, k := range order {
		xy := lines[k]
		sort.SliceStable(xy, func(a, b int) bool { return xy[a].X < xy[b].X })
		name := k
		if name == "" {
			name = y
		}
		ss = append(ss, series{name, xy})
	}
	xName := x[strings.Index(x, ":")+1:]
	title := fmt.Sprintf("%s: %s vs %s", rs[0].Kernel, metricTitle(y), xName)
	if failed+absent > 0 {
		title += fmt.Sprintf(" (%d failed, %d without the metric, not shown)", failed, absent)
	}
	p := newPlot(title, fmt.Sprintf("%s (%s)", xName, x[:strings.Index(x, ":")]), metricTitle(y))
	if !numeric {
		p.NominalX(cats...)
	}
	leg, err := addSeries(p, ss, true)
	if err != nil {
		return err
	}
	return saveFigure(flag, path, []*plot.Plot{p}, &leg, 5*vg.Inch)
}

// metricTitle is how axes and titles name a metric.
func metricTitle(m string) string {
	kind, name, _ := strings.Cut(m, ":")
	switch kind {
	case "cycles":
		return "kernel cycles"
	case "stall_cycles":
		return "stall cycles, all barriers"
	case "warp_instructions":
		return "warp instructions"
	case "host_seconds":
		return "host seconds"
	case "phases":
		return "completed phases"
	case "stall":
		return "stall cycles of " + name
	case "phase_p50":
		return "median phase cycles of " + name
	case "phase_p95":
		return "p95 phase cycles of " + name
	case "updates_per_phase":
		return "updates per phase of " + name
	}
	return m
}

// otherParams names a record's parameters other than x: "ITERS=8".
func otherParams(ps map[string]string, x string) string {
	var keys []string
	for k := range ps {
		if k != x {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k[strings.Index(k, ":")+1:]+"="+ps[k])
	}
	return strings.Join(parts, " ")
}

type plotOptions struct {
	out string
	x   string
	y   string
}

func newPlotCmd(stdout io.Writer) *cobra.Command {
	o := &plotOptions{}
	c := &cobra.Command{
		Use:   "plot FILE... --out FILE.svg",
		Short: "Plot sweep results (a metric against a parameter) or a run's JSON report as SVG, PNG or PDF",
		Long: `Plot sweep or merge results (JSON lines or CSV) as a metric against a parameter, one
line per combination of the other parameters; or, given one JSON report written by
'smsim run -o json', its stall cycles per phase, phase durations over time and the
histogram of phase durations (what 'smsim run --plot' draws).

` + exitHelp,
		Example: `  smsim plot sweep.jsonl --out sweep.svg --x set:syncs.interval --y stall_cycles
  smsim run examples/tma_pipeline.sms -o json > run.json && smsim plot run.json --out run.svg`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeFiles("jsonl", "csv", "json"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPlot(o, args, stdout)
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.out, "out", "", "the image to write (required): .svg, .png or .pdf, as its extension says")
	fs.StringVar(&o.x, "x", "", "sweep parameter for the x axis, KIND:KEY (default: the first)")
	fs.StringVar(&o.y, "y", "cycles", "sweep metric for the y axis: "+metricHelp)
	return c
}

func runPlot(o *plotOptions, files []string, stdout io.Writer) error {
	if o.out == "" {
		return &usageError{Msg: "plot: --out FILE.svg is required"}
	}
	if _, err := plotFormat("--out", o.out); err != nil {
		return err
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	if len(files) == 1 && strings.HasSuffix(strings.ToLower(files[0]), ".json") {
		data, err := run.ReadInput(files[0], "JSON report", run.MaxReportBytes)
		if err != nil {
			return &inputError{Err: err}
		}
		var r report.Report
		if err := json.Unmarshal(data, &r); err != nil || r.Kernel == "" {
			return &inputError{Err: fmt.Errorf("%s: not a JSON report of smsim run -o json", files[0])}
		}
		if err := writeRunPlot("--out", o.out, &r); err != nil {
			return err
		}
	} else {
		m, err := sweep.MergeFiles(files, io.Discard)
		if err != nil {
			return err
		}
		x := o.x
		if x == "" && len(m.Params) > 0 {
			x = m.Params[0]
		}
		if err := writeSweepPlot("--out", o.out, m.Records, x, o.y); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(stdout, "wrote %s\n", o.out)
	return err
}
