package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sweep"
)

// sweepOptions are sweep's flags: the shared launch flags, the grid, and
// how to run it and where its results go.
type sweepOptions struct {
	launchFlags
	vary      []string
	jobs      int
	out       string
	format    string
	shard     string
	maxPoints int
	arrays    bool
	plot      string
	plotX     string
	plotY     string
	getenv    func(string) string // os.Getenv; tests replace it
	progress  io.Writer           // where the progress bar goes (nil: none)
}

func newSweepCmd(stdout, stderr io.Writer) *cobra.Command {
	o := &sweepOptions{getenv: os.Getenv}
	c := &cobra.Command{
		Use:   "sweep FILE --vary KIND:KEY=V1,V2,... [--vary ...] [--out FILE]",
		Short: "Run a grid of --set/--arg/const values in parallel; results as JSON lines or CSV",
		Long: `Run FILE at every point of a grid — the cross product of the --vary axes — in parallel,
and write one record per point: its parameters, cycles, total barrier stall cycles,
per-barrier summaries and host seconds, as JSON lines or CSV.

An axis (--vary, or --grid with a KIND: prefix; without one --grid is the launch grid)
is KIND:KEY=V1,V2,... with KIND set (a configuration key, as --set), arg (a kernel
parameter, as --arg) or const (a .sms constant, rewritten in place). Point indices run
row-major: the first axis varies slowest.

With --out, each record is appended with one write and flushed to disk as soon as its
point finishes, so an interrupted sweep resumes: run the same command again and the points
already in FILE are skipped (Ctrl-C stops a sweep with exit 130, saying how many points
FILE holds). --shard I/N runs the points whose index mod N is I; inside a
Slurm job array the shard comes from SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT.
'smsim merge' joins the shards' files. A point that fails (deadlock, misuse, limit) is a
record too, with its exit status and error; sweep itself exits 0 once every point of its
shard has a record.

` + exitHelp,
		Example: `  smsim sweep examples/entangle_half.sms --grid set:syncs.interval=1,2,4 --grid arg:ITERS=8,16 --out sweep.jsonl
  smsim sweep examples/tma_pipeline.sms --vary const:S=1,2,3,4 --arrays --out stages.csv --plot stages.svg
  smsim sweep examples/entangle_half.sms --vary set:syncs.latency=10,18,30 --shard 0/2 --out part0.jsonl`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(run.Extensions()...),
		RunE: func(cmd *cobra.Command, args []string) error {
			if isTerminal(stderr) {
				o.progress = stderr
			}
			ctx, stop := interruptible(cmd)
			defer stop()
			return runSweep(ctx, o, args[0], stdout, stderr)
		},
	}
	o.bind(c)
	fs := c.Flags()
	bindAxes(c, &o.launchFlags.Grid, &o.vary)
	bindJobs(fs, &o.jobs, "j", runtime.NumCPU(), "points run in parallel")
	fs.StringVar(&o.out, "out", "", "append records to FILE and skip the points already there (default: stdout)")
	fs.StringVar(&o.format, "format", "", "jsonl or csv (default: csv for a .csv --out, else jsonl)")
	fs.StringVar(&o.shard, "shard", "", "run only the points whose index mod N is I: I/N, 0 <= I < N (default: from SLURM_ARRAY_TASK_ID/COUNT)")
	fs.IntVar(&o.maxPoints, "max-points", 0, "run at most N new points, then stop (0: all); a later run does the rest")
	fs.BoolVar(&o.arrays, "arrays", false, "pool each barrier array's elements (full[0], full[1], ... as full[*]) in the summaries")
	o.bindPlot(c)
	completeLaunchFlags(c)
	_ = c.RegisterFlagCompletionFunc("format", completeValues("jsonl", "csv"))
	return c
}

func (o *sweepOptions) bindPlot(c *cobra.Command) {
	fs := c.Flags()
	fs.StringVar(&o.plot, "plot", "", "after the sweep, plot a metric against a parameter into FILE (.svg, .png or .pdf)")
	fs.StringVar(&o.plotX, "plot-x", "", "the plot's parameter, KIND:KEY (default: the first axis)")
	fs.StringVar(&o.plotY, "plot-y", "cycles", "the plot's metric: "+metricHelp)
}

func runSweep(ctx context.Context, o *sweepOptions, file string, stdout, stderr io.Writer) error {
	axes, err := sweep.ParseAxes("--vary", o.vary)
	if err != nil {
		return err
	}
	n := 1
	for _, a := range axes {
		if n *= len(a.Values); n > sweep.MaxGridPoints {
			return &usageError{Msg: fmt.Sprintf("--vary/--grid: more than %d points", sweep.MaxGridPoints)}
		}
	}
	format, err := sweep.RecordFormat(o.format, o.out)
	if err != nil {
		return err
	}
	if o.maxPoints < 0 {
		return &usageError{Msg: "--max-points: want 0 (all) or a positive count"}
	}
	if o.plot != "" {
		if _, err := plotFormat("--plot", o.plot); err != nil {
			return err
		}
	}
	for _, out := range []struct{ flag, path string }{{"--out", o.out}, {"--plot", o.plot}} {
		if err := checkOutput(out.flag, out.path); err != nil {
			return err
		}
	}
	sh := sweep.Shard{Index: 0, Count: 1}
	if o.shard != "" {
		if sh, err = sweep.ParseShard(o.shard); err != nil {
			return err
		}
	} else if s, ok, err := sweep.SlurmShard(o.getenv); err != nil {
		return err
	} else if ok {
		sh = s
		fmt.Fprintf(stderr, "sweep: shard %d/%d from the Slurm job array\n", sh.Index, sh.Count)
	}
	if err := preflight(o, file, axes); err != nil {
		return err
	}
	id, err := sweep.ID(file, o.Spec, axes)
	if err != nil {
		return err
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.Name())
	}
	done := map[int]bool{}
	var sink recordSink
	if o.out != "" {
		fs, err := openResults(o.out, format, names, id, stderr)
		if err != nil {
			return err
		}
		defer fs.close()
		done, sink = fs.done, fs
	} else {
		sink = &streamSink{w: stdout, format: format, params: names}
	}
	var todo []int
	skipped := 0
	for i := 0; i < n; i++ {
		switch {
		case !sh.Has(i):
		case done[i]:
			skipped++
		case o.maxPoints == 0 || len(todo) < o.maxPoints:
			todo = append(todo, i)
		}
	}
	st, err := runPoints(ctx, o, &sweep.Grid{File: file, Spec: o.Spec, Axes: axes, ID: id, Arrays: o.arrays}, todo, sink)
	if err != nil {
		return err
	}
	if st.Interrupted {
		return sweepInterrupted(o, sh.Size(n), skipped, st)
	}
	where := "stdout"
	if o.out != "" {
		where = o.out
	}
	left := sh.Size(n) - skipped - len(todo)
	fmt.Fprintf(stderr, "sweep: %d points in shard %d/%d: %d run (%d failed), %d already in %s, %d left; %.1f s\n",
		sh.Size(n), sh.Index, sh.Count, len(todo), st.Failed, skipped, where, left, st.Seconds)
	if o.plot != "" {
		return sweepPlot(o, sink, names)
	}
	return nil
}

// sweepInterrupted says, for a sweep stopped by Ctrl-C, how many of the
// shard's points have records and how to go on: with --out, running the
// same command again runs only the points left; without, the records went
// to stdout and nothing can be resumed.
func sweepInterrupted(o *sweepOptions, size, skipped int, st sweep.Stats) error {
	if o.out == "" {
		return &interruptError{msg: fmt.Sprintf("sweep stopped after %d of %d points (%.1f s); their records went to stdout, "+
			"and only a sweep with --out FILE resumes where it stopped", st.Recorded, size, st.Seconds)}
	}
	have := skipped + st.Recorded
	return &interruptError{msg: fmt.Sprintf("sweep stopped with %d of %d points in %s (%d run now, %.1f s); "+
		"run the same command again to run the %d left", have, size, o.out, st.Recorded, st.Seconds, size-have)}
}

// preflight builds the first point's job and every configuration of the
// set: axes, so that a misspelt key or value stops the sweep before it
// starts rather than failing every point.
func preflight(o *sweepOptions, file string, axes []sweep.Axis) error {
	if _, err := sweep.PointJob(o.Spec, file, sweep.GridPoint(axes, 0)); err != nil {
		return err
	}
	for _, a := range axes {
		if a.Kind != "set" {
			continue
		}
		for _, v := range a.Values {
			f := sweep.WithSettings(o.Spec, []sweep.Setting{{Kind: "set", Key: a.Key, Value: v}})
			if _, err := run.LoadConfig(f.Config, f.Sets); err != nil {
				return err
			}
		}
	}
	return nil
}

// sweepPlot plots every record the sweep has: the whole --out file, or
// what this run streamed.
func sweepPlot(o *sweepOptions, sink recordSink, names []string) error {
	x := o.plotX
	if x == "" {
		if len(names) == 0 {
			return &usageError{Msg: "--plot: the sweep has no --vary axis to plot against"}
		}
		x = names[0]
	}
	if !strings.Contains(x, ":") {
		return &usageError{Msg: fmt.Sprintf("--plot-x %q: want KIND:KEY as in --vary, e.g. %s", x, strings.Join(names, ", "))}
	}
	return writeSweepPlot("--plot", o.plot, sink.all(), x, o.plotY)
}
