package main

import (
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/calibration"
	"github.com/smsim/smsim/run"
)

// calibrateOptions are the flags of `smsim calibrate`.
type calibrateOptions struct {
	dir    string
	params []string
	only   string
	evals  int
	jobs   int
	quick  bool
	config string
	sets   []string
	out    string
	input  string
}

func newCalibrateCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &calibrateOptions{}
	c := &cobra.Command{
		Use:   "calibrate",
		Short: "Fit timing parameters to the calibration suite with a Nelder–Mead search",
		Long: `calibrate searches values of the named configuration keys (all integers: latencies, intervals,
bandwidths) that minimise the calibration suite's error: the mean absolute percentage error of the
selected rows plus a penalty on rows worse than 12 %. Each candidate runs the suite as 'validate'
does. It prints the best values as a configuration file (load it with --config, or copy the values
into the built-in configuration) and the error before and after.

The fit is reproducible: the same suite, start configuration and flags give the same result.`,
		Example: `  smsim calibrate --params syncs.latency,syncs.result,syncs.try_wait_wake --only 'arrive_wait_loop|wake' --quick`,
		Args:    cobra.NoArgs,
		RunE:    func(*cobra.Command, []string) error { return runCalibrate(o, stdout, stderr) },
	}
	fs := c.Flags()
	fs.StringVar(&o.dir, "dir", calibration.DefaultDirFlag, "calibration folder")
	fs.StringSliceVar(&o.params, "params", nil, "configuration keys to fit (comma-separated)")
	fs.StringVar(&o.only, "only", "", "fit only rows matching this regular expression (FILE:bench,config,metric)")
	fs.IntVar(&o.evals, "evals", 200, "largest number of suite runs")
	bindJobs(fs, &o.jobs, "", runtime.NumCPU(), "launches simulated in parallel")
	fs.BoolVar(&o.quick, "quick", false, "shorter loops in the suite")
	fs.StringVar(&o.input, "input", "ptx", "the input form the suite runs from: ptx or sass")
	fs.StringVar(&o.config, "config", "h200", "start configuration")
	fs.StringArrayVar(&o.sets, "set", nil, "override a key of the start configuration: KEY=VALUE")
	fs.StringVar(&o.out, "out", "", "also write the fitted configuration to this file")
	completeSuiteFlags(c)
	return c
}

func runCalibrate(o *calibrateOptions, stdout, stderr io.Writer) error {
	if len(o.params) == 0 {
		return &usageError{Msg: "--params: name at least one configuration key to fit"}
	}
	if o.evals < 1 {
		return &usageError{Msg: fmt.Sprintf("--evals %d: want 1 or more suite runs", o.evals)}
	}
	if err := checkOutput("--out", o.out); err != nil {
		return err
	}
	base, err := run.LoadConfig(o.config, o.sets)
	if err != nil {
		return err
	}
	fit, err := calibration.Fit(calibration.ResolveDir(o.dir), base, o.params, calibration.Options{Quick: o.quick, Only: o.only, Input: o.input}, o.evals, o.jobs, stderr)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "# smsim calibrate: %d suite runs; cost %.3f -> %.3f\n# rows: %q\n", fit.Evals, fit.Start, fit.Best, o.only)
	fmt.Fprintf(stdout, "name = %s-fit\n", base.Name)
	for _, kv := range strings.Split(fit.Key, " ") {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(stdout, "%-28s = %s\n", k, v)
	}
	if o.out != "" {
		return writeOutput("--out", o.out, func(w io.Writer) error { return run.WriteConfig(w, fit.Config) })
	}
	return nil
}
