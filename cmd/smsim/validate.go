package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"runtime"

	"github.com/smsim/smsim/calibration"
	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
	"github.com/spf13/cobra"
)

type validateOptions struct {
	dir        string
	format     string
	jobs       int
	quick      bool
	only       string
	check      bool
	config     string
	sets       []string
	apps       bool
	inputs     []string
	departures bool
	threshold  float64
}

func newValidateCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate",
		Short: "Run the H200 calibration suite and compare predicted with measured cycles",
		Long: `validate runs every kernel of the calibration suite (microbench.ptx, hwprobe.ptx and any
further PTX/CSV pairs of the folder) with the launch the suite's host code uses, computes each
CSV row's value from the kernel's out buffer exactly as the host code does, and prints predicted
against measured with the error: per row, per benchmark family and overall (mean absolute
percentage error and worst row), plus the simulator's slowdown against the hardware.

--input sass runs each kernel from the SASS ptxas made of its PTX (the .sass beside the .ptx, with
its .cubin), timed by its control bits; --input ptx,sass runs both and prints them side by side.
--departures runs both and lists the rows whose predictions differ by more than --threshold
percent of the measurement, grouped by kernel: where the compiler model departs from the SASS.

With --apps it runs the held-out application kernels instead (apps/h200: kernels written as CUDA
programmers write them, measured on the H200, never fitted to) from each --input form, and prints
each case's measured and predicted cycles and whether its outputs are the H200's bit for bit.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := interruptible(cmd)
			defer stop()
			return runValidate(ctx, o, stdout, stderr)
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.dir, "dir", calibration.DefaultDirFlag, "calibration folder (CSV files and the PTX they come from)")
	fs.StringVarP(&o.format, "format", "o", "table", "output format: table or json")
	bindJobs(fs, &o.jobs, "", runtime.NumCPU(), "launches simulated in parallel")
	fs.BoolVar(&o.quick, "quick", false, "shorter loops (a tenth of the iterations) for a fast check")
	fs.StringVar(&o.only, "only", "", "run only rows matching this regular expression (matched against FILE:bench,config,metric)")
	fs.BoolVar(&o.check, "check", false, "exit with status 7 when the targets of the input forms are missed (PTX: "+
		calibration.TargetsFor("ptx").String()+"; SASS: "+calibration.TargetsFor("sass").String()+")")
	fs.StringVar(&o.config, "config", "h200", "machine configuration to validate")
	fs.StringArrayVar(&o.sets, "set", nil, "override a configuration key: KEY=VALUE")
	fs.BoolVar(&o.apps, "apps", false, "run the held-out application kernels (apps/h200, or --dir) instead of the calibration suite")
	fs.StringSliceVar(&o.inputs, "input", []string{"ptx"}, "the input forms to run each kernel from (ptx, sass, or both)")
	fs.BoolVar(&o.departures, "departures", false, "run the suite from PTX and from SASS and list the rows whose predictions differ")
	fs.Float64Var(&o.threshold, "threshold", calibration.DefaultDepartureThreshold, "with --departures: the least difference listed, in percent of the measurement")
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json"))
	_ = c.RegisterFlagCompletionFunc("input", completeValues("ptx", "sass"))
	completeSuiteFlags(c)
	return c
}

func runValidate(ctx context.Context, o *validateOptions, stdout, stderr io.Writer) error {
	cfg, err := run.LoadConfig(o.config, o.sets)
	if err != nil {
		return err
	}
	if o.apps {
		return runValidateApps(ctx, o, cfg, stdout)
	}
	var prog io.Writer
	if isTerminal(stderr) {
		prog = stderr
	}
	inputs := o.inputs
	if o.departures {
		if o.threshold < 0 {
			return &usageError{Msg: fmt.Sprintf("--threshold %g: want a percentage >= 0", o.threshold)}
		}
		inputs = calibration.Inputs
	}
	opts := calibration.Options{Quick: o.quick, Only: o.only}
	f, err := calibration.ValidateForms(ctx, calibration.ResolveDir(o.dir), cfg, opts, inputs, o.jobs, prog)
	var stopped *calibration.Stopped
	if errors.As(err, &stopped) {
		return &interruptError{msg: stopped.Msg}
	}
	if err != nil {
		return err
	}
	switch {
	case o.departures:
		d := calibration.FindDepartures(f.Validations["ptx"], f.Validations["sass"], o.threshold)
		if o.format == "json" {
			err = report.WriteJSON(stdout, d)
		} else {
			err = calibration.WriteDepartures(stdout, d)
		}
	case o.format == "json" && len(inputs) == 1:
		err = report.WriteJSON(stdout, f.Validations[inputs[0]])
	case o.format == "json":
		err = report.WriteJSON(stdout, f)
	default:
		err = calibration.WriteFormsTable(stdout, f)
	}
	if err != nil {
		return err
	}
	if o.check {
		if msg := f.Missed(); msg != "" {
			return &targetError{msg: msg}
		}
	}
	return nil
}

// targetError: validation targets missed.
type targetError struct{ msg string }

func (t *targetError) Error() string { return "calibration targets missed: " + t.msg }

// runValidateApps runs the application set (validate --apps).
func runValidateApps(ctx context.Context, o *validateOptions, cfg sm.Config, stdout io.Writer) error {
	dir := calibration.DefaultAppsDir()
	if o.dir != calibration.DefaultDirFlag {
		dir = o.dir
	}
	only, err := regexp.Compile(o.only)
	if err != nil {
		return &usageError{Msg: fmt.Sprintf("--only %q: %v", o.only, err)}
	}
	if err := calibration.CheckInputs(o.inputs); err != nil {
		return err
	}
	if o.check {
		return &usageError{Msg: "--check judges the calibration suite's targets, not --apps"}
	}
	if o.departures {
		return &usageError{Msg: "--departures compares the calibration suite's two forms, not --apps"}
	}
	v, err := calibration.ValidateApps(ctx, dir, o.inputs, only.MatchString, cfg, o.jobs)
	if ctx.Err() != nil {
		return &interruptError{msg: "validate --apps: nothing was written"}
	}
	if err != nil {
		return err
	}
	if o.format == "json" {
		return report.WriteJSON(stdout, v)
	}
	return calibration.WriteAppTable(stdout, v)
}
