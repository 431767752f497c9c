package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
)

type statsOptions struct {
	launchFlags
	format  string
	bins    int
	barrier string
	arrays  bool
}

// barrierDists is a barrier's distributions (stats -o json).
type barrierDists struct {
	Name           string `json:"name"`
	CTAs           int    `json:"ctas"`
	PhaseCycles    dist   `json:"phase_cycles"`
	WaitCycles     dist   `json:"wait_cycles"`
	PhaseHistogram []bin  `json:"phase_histogram"`
	WaitHistogram  []bin  `json:"wait_histogram"`
}

type statsDoc struct {
	Kernel   string         `json:"kernel"`
	Cycles   uint64         `json:"cycles"`
	Barriers []barrierDists `json:"barriers"`
}

func newStatsCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &statsOptions{}
	c := &cobra.Command{
		Use:   "stats FILE",
		Short: "Distributions of phase durations and wait times per barrier: percentiles and histograms",
		Long: `Run FILE (.ptx or .sms, with run's launch flags) — or read REPORT.json written by
'smsim run -o json' — and describe, per barrier, the distribution of its phase durations
(open to complete) and of its wait times (each waiting warp's stall cycles in a phase):
count, mean, standard deviation, percentiles and a histogram, computed with gonum/stat.

` + exitHelp,
		Example: `  smsim stats examples/tma_pipeline.sms --arrays
  smsim run examples/entangle_half.sms -o json > half.json && smsim stats half.json --bins 8`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles("ptx", "sms", "json"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runStats(o, args[0], stdout, stderr)
		},
	}
	o.bind(c)
	fs := c.Flags()
	fs.StringVarP(&o.format, "format", "o", "table", "output format: table, json or csv (distributions, a blank line, histogram bins)")
	fs.IntVar(&o.bins, "bins", 10, "histogram bins (at most)")
	fs.StringVar(&o.barrier, "barrier", "", "only the barrier with this name")
	fs.BoolVar(&o.arrays, "arrays", false, "pool each barrier array's elements (full[0], full[1], ... as full[*])")
	completeLaunchFlags(c)
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json", "csv"))
	return c
}

// loadReport runs file, or reads it when it is a JSON report.
func loadReport(f launchFlags, file string, stderr io.Writer) (*report, error) {
	if strings.HasSuffix(strings.ToLower(file), ".json") {
		data, err := run.ReadInput(file, "JSON report", run.MaxReportBytes)
		if err != nil {
			return nil, &inputError{Err: err}
		}
		var r report
		if err := json.Unmarshal(data, &r); err != nil || r.Kernel == "" {
			return nil, &inputError{Err: fmt.Errorf("%s: not a JSON report of smsim run -o json", file)}
		}
		return &r, nil
	}
	j, err := f.Job(file)
	if err != nil {
		return nil, err
	}
	out, err := run.Execute(j)
	if err != nil {
		return nil, err
	}
	if out.Err != nil {
		return nil, out.Err
	}
	r := buildReport(j, out)
	return r, warnings(stderr, r)
}

func runStats(o *statsOptions, file string, stdout, stderr io.Writer) error {
	if o.format != "table" && o.format != "json" && o.format != "csv" {
		return &usageError{Msg: fmt.Sprintf("--format %q: want table, json or csv", o.format)}
	}
	if o.bins < 1 || o.bins > 1000 {
		return &usageError{Msg: fmt.Sprintf("--bins %d: want 1..1000", o.bins)}
	}
	r, err := loadReport(o.launchFlags, file, stderr)
	if err != nil {
		return err
	}
	doc := statsDoc{Kernel: r.Kernel, Cycles: r.Cycles, Barriers: []barrierDists{}}
	for _, s := range barrierStats(r, o.arrays) {
		if o.barrier != "" && s.Name != o.barrier {
			continue
		}
		doc.Barriers = append(doc.Barriers, barrierDists{Name: s.Name, CTAs: s.CTAs,
			PhaseCycles: distribution(s.Durations), WaitCycles: distribution(s.Waits),
			PhaseHistogram: nonNilBins(histogram(s.Durations, o.bins)), WaitHistogram: nonNilBins(histogram(s.Waits, o.bins))})
	}
	if o.barrier != "" && len(doc.Barriers) == 0 {
		return &usageError{Msg: fmt.Sprintf("--barrier %q: kernel %s has no such barrier", o.barrier, r.Kernel)}
	}
	switch o.format {
	case "json":
		return writeJSON(stdout, doc)
	case "csv":
		return writeStatsCSV(stdout, doc)
	}
	fmt.Fprintf(stdout, "kernel %s: %d cycles, %d barrier%s\n\n", r.Kernel, r.Cycles, len(doc.Barriers), plural(len(doc.Barriers)))
	for _, b := range doc.Barriers {
		fmt.Fprintf(stdout, "barrier %s (%d CTA%s): phase durations and wait times, in cycles\n", b.Name, b.CTAs, plural(b.CTAs))
		t := leftTable(stdout, "sample", "n", "mean", "std", "min", "p25", "p50", "p75", "p95", "p99", "max")
		for _, row := range []struct {
			name string
			d    dist
		}{{"phase", b.PhaseCycles}, {"wait", b.WaitCycles}} {
			d := row.d
			_ = t.Append(row.name, d.N, f1(d.Mean), f1(d.Std), f0(d.Min), f0(d.P25), f0(d.P50), f0(d.P75), f0(d.P95), f0(d.P99), f0(d.Max))
		}
		if err := t.Render(); err != nil {
			return err
		}
		drawHistogram(stdout, "phase durations", b.PhaseHistogram)
		drawHistogram(stdout, "wait times", b.WaitHistogram)
		fmt.Fprintln(stdout)
	}
	return nil
}

// writeStatsCSV writes two tidy tables, a blank line between them: one row
// per barrier and sample (phase durations, wait times) with its
// distribution, then one row per histogram bin.
func writeStatsCSV(w io.Writer, doc statsDoc) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"kernel", "barrier", "ctas", "sample", "n", "mean", "std", "min", "p25", "p50", "p75", "p95", "p99", "max"})
	for _, b := range doc.Barriers {
		for _, row := range []struct {
			name string
			d    dist
		}{{"phase", b.PhaseCycles}, {"wait", b.WaitCycles}} {
			d := row.d
			_ = cw.Write([]string{doc.Kernel, b.Name, itoa(b.CTAs), row.name, itoa(d.N), g(d.Mean), g(d.Std), g(d.Min),
				g(d.P25), g(d.P50), g(d.P75), g(d.P95), g(d.P99), g(d.Max)})
		}
	}
	cw.Flush()
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	_ = cw.Write([]string{"kernel", "barrier", "sample", "lo", "hi", "count"})
	for _, b := range doc.Barriers {
		for _, h := range []struct {
			name string
			bins []bin
		}{{"phase", b.PhaseHistogram}, {"wait", b.WaitHistogram}} {
			for _, x := range h.bins {
				_ = cw.Write([]string{doc.Kernel, b.Name, h.name, g(x.Lo), g(x.Hi), itoa(x.Count)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func nonNilBins(b []bin) []bin {
	if b == nil {
		return []bin{}
	}
	return b
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// drawHistogram prints bins as rows of '#' at most 50 wide.
func drawHistogram(w io.Writer, title string, bins []bin) {
	if len(bins) == 0 {
		fmt.Fprintf(w, "%s: none\n", title)
		return
	}
	most := 0
	for _, b := range bins {
		most = max(most, b.Count)
	}
	fmt.Fprintf(w, "%s (cycles, from <= x < to):\n", title)
	for _, b := range bins {
		bar := strings.Repeat("#", (50*b.Count+most-1)/max(most, 1))
		fmt.Fprintf(w, "  %8s - %-8s %-50s %d\n", f0(b.Lo), f0(b.Hi), bar, b.Count)
	}
}
