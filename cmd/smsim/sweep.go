package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"
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
		ValidArgsFunction: completeFiles("ptx", "sass", "cubin", "sms"),
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
	bindAxes(c, &o.launchFlags.grid, &o.vary)
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

// sweepID identifies a sweep by what decides its results: the file's name
// and contents, the launch flags and the grid.
func sweepID(file string, f launchFlags, axes []axis) (string, error) {
	data, err := readInput(file, "kernel file", maxSourceBytes)
	if err != nil {
		return "", &inputError{err: err}
	}
	h := sha256.New()
	fmt.Fprintf(h, "smsim sweep 1\x00%s\x00%d\x00", filepath.Base(file), len(data))
	h.Write(data)
	fmt.Fprintf(h, "\x00%q %q %q %q %q %d %q %q %d %v\x00", f.kernel, f.block, f.grid, f.smem, f.args,
		f.launches, f.config, f.sets, f.maxCycles, f.lenient)
	for _, a := range axes {
		fmt.Fprintf(h, "%s=%q\x00", a.name(), a.values)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

func runSweep(ctx context.Context, o *sweepOptions, file string, stdout, stderr io.Writer) error {
	axes, err := parseAxes("--vary", o.vary)
	if err != nil {
		return err
	}
	n := 1
	for _, a := range axes {
		if n *= len(a.values); n > maxGridPoints {
			return &usageError{msg: fmt.Sprintf("--vary/--grid: more than %d points", maxGridPoints)}
		}
	}
	format, err := recordFormat(o.format, o.out)
	if err != nil {
		return err
	}
	if o.maxPoints < 0 {
		return &usageError{msg: "--max-points: want 0 (all) or a positive count"}
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
	sh := shard{0, 1}
	if o.shard != "" {
		if sh, err = parseShard(o.shard); err != nil {
			return err
		}
	} else if s, ok, err := slurmShard(o.getenv); err != nil {
		return err
	} else if ok {
		sh = s
		fmt.Fprintf(stderr, "sweep: shard %d/%d from the Slurm job array\n", sh.index, sh.count)
	}
	if err := preflight(o, file, axes); err != nil {
		return err
	}
	id, err := sweepID(file, o.launchFlags, axes)
	if err != nil {
		return err
	}
	var names []string
	for _, a := range axes {
		names = append(names, a.name())
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
		case !sh.has(i):
		case done[i]:
			skipped++
		case o.maxPoints == 0 || len(todo) < o.maxPoints:
			todo = append(todo, i)
		}
	}
	st, err := runPoints(ctx, o, file, axes, id, todo, sink)
	if err != nil {
		return err
	}
	if st.interrupted {
		return sweepInterrupted(o, sh.size(n), skipped, st)
	}
	where := "stdout"
	if o.out != "" {
		where = o.out
	}
	left := sh.size(n) - skipped - len(todo)
	fmt.Fprintf(stderr, "sweep: %d points in shard %d/%d: %d run (%d failed), %d already in %s, %d left; %.1f s\n",
		sh.size(n), sh.index, sh.count, len(todo), st.failed, skipped, where, left, st.seconds)
	if o.plot != "" {
		return sweepPlot(o, sink, names)
	}
	return nil
}

// sweepInterrupted says, for a sweep stopped by Ctrl-C, how many of the
// shard's points have records and how to go on: with --out, running the
// same command again runs only the points left; without, the records went
// to stdout and nothing can be resumed.
func sweepInterrupted(o *sweepOptions, size, skipped int, st sweepStats) error {
	if o.out == "" {
		return &interruptError{msg: fmt.Sprintf("sweep stopped after %d of %d points (%.1f s); their records went to stdout, "+
			"and only a sweep with --out FILE resumes where it stopped", st.recorded, size, st.seconds)}
	}
	have := skipped + st.recorded
	return &interruptError{msg: fmt.Sprintf("sweep stopped with %d of %d points in %s (%d run now, %.1f s); "+
		"run the same command again to run the %d left", have, size, o.out, st.recorded, st.seconds, size-have)}
}

// size is the number of the n grid points that belong to the shard.
func (s shard) size(n int) int {
	if s.index >= n {
		return 0
	}
	return (n-1-s.index)/s.count + 1
}

// preflight builds the first point's job and every configuration of the
// set: axes, so that a misspelt key or value stops the sweep before it
// starts rather than failing every point.
func preflight(o *sweepOptions, file string, axes []axis) error {
	if _, err := pointJob(o.launchFlags, file, gridPoint(axes, 0)); err != nil {
		return err
	}
	for _, a := range axes {
		if a.kind != "set" {
			continue
		}
		for _, v := range a.values {
			f := withSettings(o.launchFlags, []setting{{kind: "set", key: a.key, value: v}})
			if _, err := loadConfig(f.config, f.sets); err != nil {
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
			return &usageError{msg: "--plot: the sweep has no --vary axis to plot against"}
		}
		x = names[0]
	}
	if !strings.Contains(x, ":") {
		return &usageError{msg: fmt.Sprintf("--plot-x %q: want KIND:KEY as in --vary, e.g. %s", x, strings.Join(names, ", "))}
	}
	return writeSweepPlot("--plot", o.plot, sink.all(), x, o.plotY)
}
