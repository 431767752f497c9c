package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/sm"
	"github.com/spf13/cobra"
)

// launchFlags are the flags that describe one launch; run, compare, sweep
// and validate share them.
type launchFlags struct {
	kernel    string
	block     string
	grid      string
	smem      string
	args      []string
	launches  int
	config    string
	sets      []string
	maxCycles uint64
	lenient   bool
}

func (f *launchFlags) bind(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVarP(&f.kernel, "kernel", "k", "", "PTX entry: mangled or demangled name (k_ws<2>), or a substring of one matching one entry")
	fs.StringVarP(&f.block, "block", "b", "", "threads per block X[,Y[,Z]] (default: the source's, else 32)")
	fs.StringVarP(&f.grid, "grid", "g", "", "blocks X[,Y[,Z]] (default: the source's, else 1)")
	fs.StringVar(&f.smem, "smem", "", "dynamic shared memory per block in bytes (suffixes KiB, MiB)")
	fs.StringArrayVarP(&f.args, "arg", "a", nil, "kernel parameter: VALUE or NAME=VALUE; VALUE is a literal, buf:SIZE[:FILL] or tensormap:... (repeatable)")
	fs.IntVar(&f.launches, "launches", 1, "run the launch N times keeping memory and cache state; report the last")
	fs.StringVar(&f.config, "config", "h200", "machine configuration: a built-in name or a file written by 'smsim config show'")
	fs.StringArrayVar(&f.sets, "set", nil, "override one configuration key: KEY=VALUE (repeatable; see 'smsim config show')")
	fs.Uint64Var(&f.maxCycles, "max-cycles", 100_000_000, "stop with an error and a state dump past N cycles (0: no limit)")
	fs.BoolVar(&f.lenient, "lenient", false, "continue with the hardware-faithful behaviour where the spec gives one, warning instead of stopping")
}

// job builds a job for file from the flags.
func (f *launchFlags) job(file string) (*job, error) {
	src, err := loadSource(file)
	if err != nil {
		return nil, err
	}
	prog, err := src.kernel(f.kernel)
	if err != nil {
		return nil, err
	}
	cfg, err := loadConfig(f.config, f.sets)
	if err != nil {
		return nil, err
	}
	j := &job{src: src, prog: prog, cfg: cfg, args: f.args, launches: f.launches, maxCycles: f.maxCycles}
	if f.lenient {
		j.mode = mbarrier.Faithful
	}
	if f.launches < 1 || f.launches > 1000 {
		return nil, &usageError{msg: fmt.Sprintf("--launches %d: want 1..1000", f.launches)}
	}
	if j.block, err = dims("--block", f.block, prog.Block, 32); err != nil {
		return nil, err
	}
	if f.block != "" {
		if err := checkBlock(f.block, j.block); err != nil {
			return nil, err
		}
	}
	if j.grid, err = dims("--grid", f.grid, prog.Grid, 1); err != nil {
		return nil, err
	}
	if f.grid != "" {
		if err := checkGrid(f.grid, j.grid); err != nil {
			return nil, err
		}
	}
	j.smem = prog.DynSmem
	if f.smem != "" {
		if j.smem, err = smemFlag(f.smem, prog, cfg); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// dims parses X[,Y[,Z]]; an empty flag takes the source's shape, else def.
func dims(flag, s string, src [3]int, def int) ([3]int, error) {
	if s == "" {
		if src[0] > 0 {
			d := src
			for i := range d {
				if d[i] == 0 {
					d[i] = 1
				}
			}
			return d, nil
		}
		return [3]int{def, 1, 1}, nil
	}
	d := [3]int{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return d, &usageError{msg: fmt.Sprintf("%s %q: want X[,Y[,Z]]", flag, s)}
	}
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return d, &usageError{msg: fmt.Sprintf("%s %q: want X[,Y[,Z]], each a positive integer", flag, s)}
		case n < 1 && err == nil:
			return d, &usageError{msg: fmt.Sprintf("%s %q: dimensions are at least 1", flag, s)}
		case err != nil || n > 1<<31-1:
			return d, &usageError{msg: fmt.Sprintf("%s %q: dimension %s is more than %d", flag, s, strings.TrimSpace(p), 1<<31-1)}
		}
		d[i] = int(n)
	}
	return d, nil
}

type runOptions struct {
	launchFlags
	format   string
	dumps    []string
	timeline string
	profile  string
	reports  []string
	file     string
	plot     string
}

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &runOptions{}
	c := &cobra.Command{
		Use:   "run FILE",
		Short: "Run one kernel launch and report cycles, barrier phases and warp stalls",
		Long: `Run one kernel launch of FILE (.ptx from nvcc, or .sms) and report the kernel's cycles,
every mbarrier phase (arrivals, updates, tx bytes, what completed it, who waited and how long)
and every warp's stall cycles by reason.

` + exitHelp,
		Example: `  smsim run examples/entangle_half.sms
  smsim run microbench.ptx -k k_arrive_wait -b 128 -a 2000 -a buf:8 --dump 1:i64:1 -o json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles("ptx", "sass", "cubin", "sms"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runRun(o, stdout, stderr)
		},
	}
	o.bindAll(c)
	completeLaunchFlags(c)
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json", "csv"))
	_ = c.RegisterFlagCompletionFunc("report", completeValues(reportNames...))
	return c
}

// bindAll binds every flag of run to o.
func (o *runOptions) bindAll(c *cobra.Command) {
	o.bind(c)
	fs := c.Flags()
	fs.StringVarP(&o.format, "format", "o", "table", "output format: table, json or csv")
	fs.StringArrayVar(&o.dumps, "dump", nil, "print a buffer parameter after the run: NAME[:TYPE[:COUNT]], TYPE i32 i64 u32 u64 f32 f64 hex (repeatable)")
	fs.StringVar(&o.timeline, "timeline", "", "write a Chrome trace-event JSON timeline (opens in Perfetto)")
	fs.StringVar(&o.plot, "plot", "", "write a plot (.svg, .png or .pdf, as FILE's extension says): stall cycles per phase, phase durations over time, their histogram")
	fs.StringVar(&o.profile, "profile", "", "write every instruction's issues and warp cycles by stall reason (as Nsight Compute's source view): CSV, or JSON if FILE ends in .json")
	fs.StringArrayVar(&o.reports, "report", nil, "table/csv sections: summary, barriers, phases, warps, instructions, dumps (repeatable; default: all but instructions for table, phases for csv; --dump values last)")
}

func runRun(o *runOptions, stdout, stderr io.Writer) error {
	if o.format != "table" && o.format != "json" && o.format != "csv" {
		return &usageError{msg: fmt.Sprintf("--format %q: want table, json or csv", o.format)}
	}
	if err := checkReports(o.reports, len(o.dumps)); err != nil {
		return err
	}
	if o.plot != "" {
		if _, err := plotFormat("--plot", o.plot); err != nil {
			return err
		}
	}
	for _, out := range []struct{ flag, path string }{{"--timeline", o.timeline}, {"--profile", o.profile}, {"--plot", o.plot}} {
		if err := checkOutput(out.flag, out.path); err != nil {
			return err
		}
	}
	j, err := o.job(o.file)
	if err != nil {
		return err
	}
	for _, d := range o.dumps {
		ds, err := parseDump(d)
		if err != nil {
			return err
		}
		j.dumps = append(j.dumps, ds)
	}
	var obs observers
	var tl *timeline
	if o.timeline != "" {
		tl = newTimeline(j.prog)
		obs = append(obs, tl)
	}
	var prof *profile
	if o.profile != "" || slices.Contains(o.reports, "instructions") {
		prof = newProfile(j.prog)
		obs = append(obs, prof)
	}
	switch len(obs) {
	case 1:
		j.observer = obs[0]
	case 2:
		j.observer = obs
	}
	out, err := execute(j)
	if err != nil {
		return err
	}
	rep := buildReport(j, out)
	if prof != nil && out.res != nil {
		prof.finish()
		rep.Instructions = prof.instructions()
		if o.profile != "" {
			if err := writeProfileFile(o.profile, rep); err != nil {
				return err
			}
		}
	}
	if tl != nil {
		if err := tl.write(o.timeline, out.res); err != nil {
			return err
		}
	}
	if out.runErr != nil {
		if d, ok := out.runErr.(*sm.Diag); ok && o.format == "json" {
			rep.Error = &jsonError{Kind: d.Kind.String(), Code: d.Code, Message: d.Error(), Detail: d.Detail}
			if err := writeJSON(stdout, rep); err != nil {
				return err
			}
		}
		return out.runErr
	}
	if err := warnings(stderr, rep); err != nil {
		return err
	}
	if o.plot != "" {
		if err := writeRunPlot("--plot", o.plot, rep); err != nil {
			return err
		}
	}
	return writeReport(stdout, o.format, o.reports, rep)
}

func warnings(w io.Writer, rep *report) error {
	for _, m := range rep.Warnings {
		if _, err := fmt.Fprintf(w, "smsim: warning: %s\n", m); err != nil {
			return err
		}
	}
	return nil
}

// details returns the indented lines printed under an error.
func details(err error) []string {
	if d, ok := err.(*sm.Diag); ok {
		return d.Detail
	}
	return nil
}
