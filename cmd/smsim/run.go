package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// launchFlags are the flags that describe one launch; run, compare, sweep
// and validate share them. They bind to the run API's Spec.
type launchFlags struct{ run.Spec }

func (f *launchFlags) bind(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVarP(&f.Kernel, "kernel", "k", "", "PTX entry: mangled or demangled name (k_ws<2>), or a substring of one matching one entry")
	fs.StringVarP(&f.Block, "block", "b", "", "threads per block X[,Y[,Z]] (default: the source's, else 32)")
	fs.StringVarP(&f.Grid, "grid", "g", "", "blocks X[,Y[,Z]] (default: the source's, else 1)")
	fs.StringVar(&f.Smem, "smem", "", "dynamic shared memory per block in bytes (suffixes KiB, MiB)")
	fs.StringArrayVarP(&f.Args, "arg", "a", nil, "kernel parameter: VALUE or NAME=VALUE; VALUE is a literal, buf:SIZE[:FILL] or tensormap:... (repeatable)")
	fs.IntVar(&f.Launches, "launches", 1, "run the launch N times keeping memory and cache state; report the last")
	fs.StringVar(&f.Config, "config", "h200", "machine configuration: a built-in name or a file written by 'smsim config show'")
	fs.StringArrayVar(&f.Sets, "set", nil, "override one configuration key: KEY=VALUE (repeatable; see 'smsim config show')")
	fs.Uint64Var(&f.MaxCycles, "max-cycles", 100_000_000, "stop with an error and a state dump past N cycles (0: no limit)")
	fs.BoolVar(&f.Lenient, "lenient", false, "continue with the hardware-faithful behaviour where the spec gives one, warning instead of stopping")
	fs.IntVar(&f.SMs, "sms", 0, "SMs to simulate, sharing the L2's contents (default: 1, or gpu.sms for a cluster launch)")
	fs.StringVar(&f.Cluster, "cluster", "", "CTAs per thread-block cluster X[,Y[,Z]] (default: the source's .reqnctapercluster, else none)")
	fs.IntVar(&f.Threads, "threads", 0, "host threads one simulation may use: the tensor cores' arithmetic, and --sm-threads (0: every core)")
	fs.IntVar(&f.SMThreads, "sm-threads", 1, "run the SMs of a launch on several (--sms) on up to N host threads, within --threads; same results, faster only on some hosts (docs/parallel.md)")
	fs.StringArrayVar(&f.Symbols, "symbol", nil, "a __constant__ or __device__ variable's contents before the first launch, as cudaMemcpyToSymbol writes them: NAME=FILL, FILL a buffer fill or file:PATH (repeatable)")
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
		ValidArgsFunction: completeFiles(run.Extensions()...),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.file = args[0]
			return runRun(o, stdout, stderr)
		},
	}
	o.bindAll(c)
	completeLaunchFlags(c)
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json", "csv"))
	_ = c.RegisterFlagCompletionFunc("report", completeValues(report.SectionNames()...))
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
	fs.StringArrayVar(&o.reports, "report", nil, "table/csv sections: summary, sms, clusters, barriers, phases, warps, instructions, dumps (repeatable; default: all but instructions for table, sms and clusters only on several SMs, phases for csv; --dump values last)")
}

func runRun(o *runOptions, stdout, stderr io.Writer) error {
	if o.format != "table" && o.format != "json" && o.format != "csv" {
		return &usageError{Msg: fmt.Sprintf("--format %q: want table, json or csv", o.format)}
	}
	if err := report.CheckSections(o.reports, len(o.dumps)); err != nil {
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
	j, err := o.Job(o.file)
	if err != nil {
		return err
	}
	for _, d := range o.dumps {
		ds, err := run.ParseDump(d)
		if err != nil {
			return err
		}
		j.Dumps = append(j.Dumps, ds)
	}
	var obs run.Observers
	var tl *report.Timeline
	if o.timeline != "" {
		tl = report.NewTimeline(j.Prog)
		obs = append(obs, tl)
	}
	var prof *report.Profile
	if o.profile != "" || slices.Contains(o.reports, "instructions") {
		prof = report.NewProfile(j.Prog)
		obs = append(obs, prof)
	}
	switch len(obs) {
	case 1:
		j.Observer = obs[0]
	case 2:
		j.Observer = obs
	}
	out, err := run.Execute(j)
	if err != nil {
		return err
	}
	rep := report.Build(j, out)
	if prof != nil && out.Result != nil {
		prof.Finish()
		rep.Instructions = prof.Instructions()
		if o.profile != "" {
			asJSON := strings.HasSuffix(strings.ToLower(o.profile), ".json")
			if err := writeOutput("--profile", o.profile, func(w io.Writer) error { return report.WriteProfile(w, asJSON, rep) }); err != nil {
				return err
			}
		}
	}
	if tl != nil {
		if err := writeOutput("--timeline", o.timeline, func(w io.Writer) error { return tl.Write(w, out.Result) }); err != nil {
			return err
		}
	}
	if out.Err != nil {
		if rep.Error = report.ErrorOf(out.Err); rep.Error != nil && o.format == "json" {
			if err := report.WriteJSON(stdout, rep); err != nil {
				return err
			}
		}
		return out.Err
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

func warnings(w io.Writer, rep *report.Report) error {
	for _, m := range rep.Warnings {
		if _, err := fmt.Fprintf(w, "smsim: warning: %s\n", m); err != nil {
			return err
		}
	}
	return nil
}

// writeReport prints the report in the chosen format and sections.
func writeReport(w io.Writer, format string, sections []string, r *report.Report) error {
	switch format {
	case "json":
		return report.WriteJSON(w, r)
	case "csv":
		return report.WriteCSV(w, sections, r)
	}
	return report.WriteTable(w, sections, r)
}
