package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sweep"
)

// compareOptions are compare's flags: the shared launch flags (applied to
// every variant) and how to vary and show them.
type compareOptions struct {
	launchFlags
	variants []string
	vary     []string
	format   string
	reports  []string
	phases   int
	jobs     int
	arrays   bool
}

func newCompareCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &compareOptions{}
	c := &cobra.Command{
		Use:   "compare FILE... [--variant 'NAME:FLAGS']... [--vary KIND:KEY=V1,V2,...]...",
		Short: "Run variants side by side: cycles, speed-up, per-barrier stalls, updates and phase times",
		Long: `Run several variants of a launch and compare them side by side: kernel cycles, speed-up
against the first variant (the baseline), and per barrier its stall cycles, updates per
phase, updates per arriving warp and phase durations.

Variants are several FILEs; or one FILE under --variant 'NAME:FLAGS' (run's launch flags,
and optionally a FILE of its own); or --vary KIND:KEY=V1,V2,... with KIND set (a --set
key), arg (a --arg name) or const (a .sms 'const', rewritten in place), which multiplies
the variants by its values. Launch flags given outside --variant apply to every variant.

` + exitHelp,
		Example: `  smsim compare examples/entangle_converged.sms examples/entangle_half.sms examples/entangle_lanes.sms
  smsim compare examples/entangle_half.sms --variant 'base:' --variant 'slow:--set syncs.interval=4'
  smsim compare examples/tma_pipeline.sms --vary const:S=1,2,3,4 --report summary --report barriers
  smsim compare examples/entangle_converged.sms --vary arg:ITERS=8,16,32 -o csv`,
		Args:              cobra.ArbitraryArgs,
		ValidArgsFunction: completeFiles(run.Extensions()...),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(o, args, stdout, stderr)
		},
	}
	o.bind(c)
	fs := c.Flags()
	fs.StringArrayVar(&o.variants, "variant", nil, "a variant NAME:FLAGS, FLAGS being launch flags (and a FILE) added to the shared ones (repeatable)")
	bindAxes(c, &o.launchFlags.Grid, &o.vary)
	fs.StringVarP(&o.format, "format", "o", "table", "output format: table, json or csv")
	fs.StringArrayVar(&o.reports, "report", nil, "table sections: summary, barriers, phases (repeatable; default all)")
	fs.IntVar(&o.phases, "phases", 8, "phases shown per barrier in the phases table (0: all)")
	bindJobs(fs, &o.jobs, "j", runtime.NumCPU(), "variants run in parallel")
	fs.BoolVar(&o.arrays, "arrays", false, "pool each barrier array's elements (full[0], full[1], ... as full[*])")
	completeLaunchFlags(c)
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json", "csv"))
	_ = c.RegisterFlagCompletionFunc("report", completeValues("summary", "barriers", "phases"))
	return c
}

func runCompare(o *compareOptions, files []string, stdout, stderr io.Writer) error {
	if o.format != "table" && o.format != "json" && o.format != "csv" {
		return &usageError{Msg: fmt.Sprintf("--format %q: want table, json or csv", o.format)}
	}
	for _, s := range o.reports {
		if s != "summary" && s != "barriers" && s != "phases" {
			return &usageError{Msg: fmt.Sprintf("--report %q: want summary, barriers or phases", s)}
		}
	}
	if o.phases < 0 {
		return &usageError{Msg: "--phases: want 0 (all) or a positive count"}
	}
	vary, err := sweep.ParseAxes("--vary", o.vary)
	if err != nil {
		return err
	}
	vs, err := buildVariants(files, o.launchFlags, o.variants, vary)
	if err != nil {
		return err
	}
	results, err := sweep.Compare(vs, o.jobs, o.arrays)
	if err != nil {
		return err
	}
	for _, r := range results {
		for _, w := range r.Report.Warnings {
			fmt.Fprintf(stderr, "smsim: warning: %s: %s\n", r.Name, w)
		}
	}
	switch o.format {
	case "json":
		err = report.WriteJSON(stdout, sweep.Comparison{Baseline: results[0].Name, Variants: results})
	case "csv":
		err = compareCSV(stdout, results)
	default:
		err = compareTables(stdout, results, o.reports, o.phases)
	}
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != nil {
			return r.Err
		}
	}
	return nil
}
