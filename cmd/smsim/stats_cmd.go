package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

type statsOptions struct {
	launchFlags
	format  string
	bins    int
	barrier string
	arrays  bool
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
		ValidArgsFunction: completeFiles(append(run.Extensions(), "json")...),
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
func loadReport(f launchFlags, file string, stderr io.Writer) (*report.Report, error) {
	if strings.HasSuffix(strings.ToLower(file), ".json") {
		return report.ReadJSON(file)
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
	r := report.Build(j, out)
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
	doc := report.Stats(r, o.arrays, o.barrier, o.bins)
	if o.barrier != "" && len(doc.Barriers) == 0 {
		return &usageError{Msg: fmt.Sprintf("--barrier %q: kernel %s has no such barrier", o.barrier, r.Kernel)}
	}
	switch o.format {
	case "json":
		return report.WriteJSON(stdout, doc)
	case "csv":
		return report.WriteStatsCSV(stdout, doc)
	}
	return report.WriteStatsTable(stdout, doc)
}
