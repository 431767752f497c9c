package main

import (
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/spf13/cobra"
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

// compareResult is one variant's line of a comparison (JSON: one element
// of "variants").
type compareResult struct {
	Name             string            `json:"name"`
	File             string            `json:"file"`
	Kernel           string            `json:"kernel"`         // as the source names it (demangled)
	KernelMangled    string            `json:"kernel_mangled"` // the linker name
	Settings         map[string]string `json:"settings"`
	Sets             []string          `json:"sets"`
	Args             []string          `json:"args"`
	Cycles           uint64            `json:"cycles"`
	Speedup          float64           `json:"speedup"`
	StallCycles      uint64            `json:"stall_cycles"`
	WarpInstructions uint64            `json:"warp_instructions"`
	HostSeconds      float64           `json:"host_seconds"`
	Barriers         []compareBarrier  `json:"barriers"`
	Error            string            `json:"error,omitempty"`
	err              error
	rep              *report
	stats            []*barrierStat
}

// compareBarrier is a barrier's summary with its per-phase series (CTAs in
// order, each CTA's phases in order).
type compareBarrier struct {
	barrierSummary
	PhaseDurations []float64 `json:"phase_durations"`
	PhaseStalls    []float64 `json:"phase_stalls"`
}

// comparison is compare's JSON document.
type comparison struct {
	Baseline string          `json:"baseline"`
	Variants []compareResult `json:"variants"`
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
		ValidArgsFunction: completeFiles("ptx", "sass", "cubin", "sms"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompare(o, args, stdout, stderr)
		},
	}
	o.bind(c)
	fs := c.Flags()
	fs.StringArrayVar(&o.variants, "variant", nil, "a variant NAME:FLAGS, FLAGS being launch flags (and a FILE) added to the shared ones (repeatable)")
	bindAxes(c, &o.launchFlags.grid, &o.vary)
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
		return &usageError{msg: fmt.Sprintf("--format %q: want table, json or csv", o.format)}
	}
	for _, s := range o.reports {
		if s != "summary" && s != "barriers" && s != "phases" {
			return &usageError{msg: fmt.Sprintf("--report %q: want summary, barriers or phases", s)}
		}
	}
	if o.phases < 0 {
		return &usageError{msg: "--phases: want 0 (all) or a positive count"}
	}
	vary, err := parseAxes("--vary", o.vary)
	if err != nil {
		return err
	}
	vs, err := buildVariants(files, o.launchFlags, o.variants, vary)
	if err != nil {
		return err
	}
	results, err := compareRun(vs, o.jobs, o.arrays)
	if err != nil {
		return err
	}
	for _, r := range results {
		for _, w := range r.rep.Warnings {
			fmt.Fprintf(stderr, "smsim: warning: %s: %s\n", r.Name, w)
		}
	}
	switch o.format {
	case "json":
		err = writeJSON(stdout, comparison{Baseline: results[0].Name, Variants: results})
	case "csv":
		err = compareCSV(stdout, results)
	default:
		err = compareTables(stdout, results, o.reports, o.phases)
	}
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.err != nil {
			return r.err
		}
	}
	return nil
}

// compareRun builds every variant's job (stopping at the first command-line
// or input error), then runs them, jobs at a time. A variant whose
// simulation fails keeps its error in its result.
func compareRun(vs []variant, jobs int, arrays bool) ([]compareResult, error) {
	js := make([]*job, len(vs))
	for i, v := range vs {
		j, err := v.job()
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.name, err)
		}
		js[i] = j
	}
	results := make([]compareResult, len(vs))
	errs := make([]error, len(vs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(jobs, 1))
	for i := range vs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i], errs[i] = compareOne(vs[i], js[i], arrays)
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", vs[i].name, err)
		}
	}
	base := results[0].Cycles
	for i := range results {
		if r := &results[i]; r.err == nil && r.Cycles > 0 && results[0].err == nil {
			r.Speedup = round3(float64(base) / float64(r.Cycles))
		}
	}
	return results, nil
}

// compareOne runs one variant.
func compareOne(v variant, j *job, arrays bool) (compareResult, error) {
	r := compareResult{Name: v.name, File: v.file, Kernel: j.prog.Title(), KernelMangled: j.prog.Name, Settings: map[string]string{},
		Sets: append([]string{}, v.flags.sets...), Args: append([]string{}, v.flags.args...), Barriers: []compareBarrier{}}
	for _, s := range v.point {
		r.Settings[s.kind+":"+s.key] = s.value
	}
	out, err := execute(j)
	if err != nil {
		return r, err
	}
	r.rep = buildReport(j, out)
	if out.runErr != nil {
		r.err = out.runErr
		r.Error = firstLine(out.runErr.Error())
	}
	r.Cycles = r.rep.Cycles
	r.WarpInstructions = r.rep.Sim.WarpInstructions
	r.HostSeconds = round3(r.rep.Sim.HostSeconds)
	r.stats = barrierStats(r.rep, arrays)
	for _, s := range r.stats {
		r.StallCycles += s.StallCycles
		r.Barriers = append(r.Barriers, compareBarrier{barrierSummary: s.summary(),
			PhaseDurations: nonNil(s.Durations), PhaseStalls: nonNil(s.PhaseStalls)})
	}
	return r, nil
}

func nonNil(x []float64) []float64 {
	if x == nil {
		return []float64{}
	}
	return x
}
