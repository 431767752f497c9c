package main

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// measuredRow is one row of a calibration CSV.
type measuredRow struct {
	file                  string
	bench, config, metric string
	value, lo, hi         float64
}

func (m measuredRow) key() string { return m.bench + "," + m.config + "," + m.metric }

// readCalibrationCSV reads rows of either shape: bench,config,metric,median,min,max,runs
// or bench,config,metric,value. Rows whose value is not a number are skipped.
func readCalibrationCSV(path string) ([]measuredRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []measuredRow
	for i, rec := range recs {
		if i == 0 || len(rec) < 4 {
			continue
		}
		v, err := strconv.ParseFloat(rec[3], 64)
		if err != nil {
			continue
		}
		m := measuredRow{file: filepath.Base(path), bench: rec[0], config: rec[1], metric: rec[2], value: v, lo: v, hi: v}
		if len(rec) >= 6 {
			m.lo, _ = strconv.ParseFloat(rec[4], 64)
			m.hi, _ = strconv.ParseFloat(rec[5], 64)
		}
		out = append(out, m)
	}
	return out, nil
}

// rowResult is a measured row and what the simulator predicts for it.
type rowResult struct {
	File      string  `json:"file"`
	Bench     string  `json:"bench"`
	Config    string  `json:"config"`
	Metric    string  `json:"metric"`
	Measured  float64 `json:"measured"`
	Predicted float64 `json:"predicted"`
	ErrorPct  float64 `json:"error_pct"` // (predicted - measured) / measured, or the absolute difference ×100 for measured 0
	Semantic  bool    `json:"semantic"`  // a functional answer (0/1), which must match exactly
	Err       string  `json:"error,omitempty"`
}

// launchResult is one recipe's run.
type launchResult struct {
	Kernel      string  `json:"kernel"`
	Args        string  `json:"args"`
	Cycles      uint64  `json:"cycles"`
	HostSeconds float64 `json:"host_seconds"`
	Slowdown    float64 `json:"slowdown"` // host time over the hardware's time for the same cycles
}

type validation struct {
	Rows     []rowResult       `json:"rows"`
	Families []familyResult    `json:"families"`
	Overall  map[string]metric `json:"overall"`
	Launches []launchResult    `json:"launches"`
}

type familyResult struct {
	File  string  `json:"file"`
	Bench string  `json:"bench"`
	Rows  int     `json:"rows"`
	MAPE  float64 `json:"mape_pct"`
	Worst float64 `json:"worst_abs_error_pct"`
}

type metric struct {
	Rows     int     `json:"rows"`
	MAPE     float64 `json:"mape_pct"`
	Worst    float64 `json:"worst_abs_error_pct"`
	WorstRow string  `json:"worst_row"`
}

// calibrationCSVs are the measured files validate compares against, in the
// calibration folder or the repository's calibration/h200.
var calibrationCSVs = []string{"microbench.csv", "probe.csv", "pipeline.csv", "latency2.csv", "membw.csv", "issue.csv", "divcode.csv", "prodonly.csv", "steps.csv", "gmem.csv", "elect.csv", "elect_sweep.csv", "exitwait.csv", "align.csv", "tmadesc.csv", "branch.csv", "waitdelay.csv", "dsweep.csv", "throughput.csv", "convert.csv", "smem.csv", "ldg.csv", "syncwarp.csv", "trywait.csv", "stamps.csv", "window.csv", "pingpong.csv", "store.csv", "waterfall.csv", "smemshare.csv", "reqcost.csv", "bulkbw.csv", "sel.csv", "latency3.csv", "latency4.csv", "latency5.csv", "fence.csv", "libpipe.csv", "libcopy.csv", "wspipe.csv", "ptxpipe.csv", "cpipe.csv", "epilogue.csv"}

var semanticRow = regexp.MustCompile(`^(semantics|semantics2)$|phase_completed|returned_true|false_per_warp_phase`)

// validate runs every recipe whose rows appear in the measured CSVs.
// Cancelling ctx (Ctrl-C) stops it with an interruptError.
func validate(ctx context.Context, dir string, cfg sm.Config, opts suiteOpts, jobs int, progress io.Writer) (*validation, error) {
	only, err := regexp.Compile(opts.only)
	if err != nil {
		return nil, &usageError{Msg: fmt.Sprintf("--only %q: %v", opts.only, err)}
	}
	if err := checkCalibrationDir(dir); err != nil {
		return nil, err
	}
	var measured []measuredRow
	for _, name := range calibrationCSVs {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		rows, err := readCalibrationCSV(p)
		if err != nil {
			return nil, &inputError{Err: err}
		}
		measured = append(measured, rows...)
	}
	want := map[string]measuredRow{}
	for _, m := range measured {
		if only.MatchString(m.file + ":" + m.key()) {
			want[m.file+":"+m.key()] = m
		}
	}
	recipes := append(microbenchRecipes(opts), probeRecipes()...)
	recipes = append(recipes, extraRecipes(dir, opts)...)
	recipes = append(recipes, moreRecipes(dir)...)
	var todo []recipe
	for _, r := range recipes {
		for _, row := range r.rows {
			if _, ok := want[r.csvFile()+":"+row.key()]; ok {
				todo = append(todo, r)
				break
			}
		}
	}
	results := make([][]float64, len(todo))
	launches := make([]launchResult, len(todo))
	errs := make([]error, len(todo))
	sources := &sourceCache{dir: dir, m: map[string]*run.Source{}}
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, max(jobs, 1))
	var mu sync.Mutex // guards done, stopped and the progress line
	done, stopped := 0, false
	for i := range todo {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-sem }()
			if ctx.Err() != nil {
				return
			}
			results[i], launches[i], errs[i] = runRecipe(sources, todo[i], cfg)
			mu.Lock()
			done++
			if progress != nil && !stopped {
				fmt.Fprintf(progress, "\rvalidate: %d/%d launches", done, len(todo))
			}
			mu.Unlock()
		}(i)
	}
	finished := make(chan struct{})
	go func() {
		wg.Wait()
		close(finished)
	}()
	select {
	case <-finished:
	case <-ctx.Done():
	}
	mu.Lock()
	n := done
	stopped = n < len(todo)
	mu.Unlock()
	if stopped {
		// Interrupted: launches still running are abandoned (their
		// results are never read, and they print nothing more).
		if progress != nil {
			fmt.Fprintln(progress)
		}
		return nil, &interruptError{msg: fmt.Sprintf("validate stopped after %d of %d launches (%.1f s); it prints "+
			"nothing until every launch has run (--only REGEXP runs a part of the suite)", n, len(todo), time.Since(start).Seconds())}
	}
	if progress != nil {
		fmt.Fprintln(progress)
	}
	v := &validation{Launches: launches}
	for i, r := range todo {
		for k, row := range r.rows {
			m, ok := want[r.csvFile()+":"+row.key()]
			if !ok {
				continue
			}
			rr := rowResult{File: m.file, Bench: m.bench, Config: m.config, Metric: m.metric, Measured: m.value,
				Semantic: semanticRow.MatchString(m.bench) || semanticRow.MatchString(m.metric)}
			if errs[i] != nil {
				rr.Err = firstLine(errs[i].Error())
				rr.Predicted = math.NaN()
				rr.ErrorPct = 100
			} else {
				rr.Predicted = results[i][k]
				rr.ErrorPct = relErr(rr.Predicted, m.value)
			}
			v.Rows = append(v.Rows, rr)
		}
	}
	sort.SliceStable(v.Rows, func(a, b int) bool { return v.Rows[a].File < v.Rows[b].File })
	v.summarize()
	return v, nil
}

func csvFor(ptx string) string {
	switch ptx {
	case "microbench.ptx":
		return "microbench.csv"
	case "hwprobe.ptx":
		return "probe.csv"
	}
	return ptx[:len(ptx)-len(filepath.Ext(ptx))] + ".csv"
}

func relErr(pred, meas float64) float64 {
	if meas == 0 {
		return 100 * (pred - meas)
	}
	return 100 * (pred - meas) / math.Abs(meas)
}

// sourceCache loads each PTX file of the suite once (programs are read-only while they run).
type sourceCache struct {
	dir string
	mu  sync.Mutex
	m   map[string]*run.Source
}

func (c *sourceCache) get(name string) (*run.Source, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.m[name]; ok {
		return s, nil
	}
	s, err := run.Load(filepath.Join(c.dir, name))
	if err != nil {
		return nil, err
	}
	c.m[name] = s
	return s, nil
}

func runRecipe(sources *sourceCache, r recipe, cfg sm.Config) ([]float64, launchResult, error) {
	lr := launchResult{Kernel: r.kernel, Args: fmt.Sprint(r.args)}
	src, err := sources.get(r.file)
	if err != nil {
		return nil, lr, err
	}
	prog, err := src.Kernel(r.kernel)
	if err != nil {
		return nil, lr, err
	}
	outIdx := strconv.Itoa(len(r.args) - 1)
	j := &run.Job{Source: src, Prog: prog, Config: cfg, Block: [3]int{r.block, 1, 1}, Grid: [3]int{1, 1, 1}, Smem: r.smem,
		Args: r.args, Launches: max(r.launches, 1), MaxCycles: 2_000_000_000, Prep: r.prep, Warm: r.warm,
		Dumps: []run.DumpSpec{{Name: outIdx, Type: "i64", Count: r.outLen}}}
	start := time.Now()
	out, err := run.Execute(j)
	if err == nil && out.Err != nil {
		err = out.Err
	}
	lr.HostSeconds = time.Since(start).Seconds()
	if err != nil {
		return nil, lr, err
	}
	lr.Cycles = out.Result.Cycles
	if lr.Cycles > 0 {
		lr.Slowdown = lr.HostSeconds / (float64(lr.Cycles) / (cfg.ClockMHz * 1e6))
	}
	vals := out.Dumps[0].Values
	words := make([]int64, len(vals))
	for i, x := range vals {
		words[i] = x.(int64)
	}
	res := make([]float64, len(r.rows))
	for k, row := range r.rows {
		res[k] = row.value(words)
	}
	return res, lr, nil
}

// summarize computes per-family and overall errors (semantic rows excluded
// from percentages: they must match exactly and are checked separately).
func (v *validation) summarize() {
	fam := map[string]*familyResult{}
	var order []string
	over := map[string]*metric{}
	for _, r := range v.Rows {
		if r.Semantic {
			continue
		}
		k := r.File + "/" + r.Bench
		f, ok := fam[k]
		if !ok {
			f = &familyResult{File: r.File, Bench: r.Bench}
			fam[k] = f
			order = append(order, k)
		}
		a := math.Abs(r.ErrorPct)
		f.Rows++
		f.MAPE += a
		f.Worst = math.Max(f.Worst, a)
		for _, scope := range []string{r.File, "all"} {
			m, ok := over[scope]
			if !ok {
				m = &metric{}
				over[scope] = m
			}
			m.Rows++
			m.MAPE += a
			if a >= m.Worst {
				m.Worst, m.WorstRow = a, r.Bench+","+r.Config+","+r.Metric
			}
		}
	}
	for _, k := range order {
		f := fam[k]
		f.MAPE /= float64(f.Rows)
		v.Families = append(v.Families, *f)
	}
	v.Overall = map[string]metric{}
	for k, m := range over {
		m.MAPE /= float64(m.Rows)
		v.Overall[k] = *m
	}
}

type validateOptions struct {
	dir    string
	format string
	jobs   int
	quick  bool
	only   string
	check  bool
	config string
	sets   []string
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
percentage error and worst row), plus the simulator's slowdown against the hardware.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := interruptible(cmd)
			defer stop()
			return runValidate(ctx, o, stdout, stderr)
		},
	}
	fs := c.Flags()
	fs.StringVar(&o.dir, "dir", defaultCalibrationDir(), "calibration folder (CSV files and the PTX they come from)")
	fs.StringVarP(&o.format, "format", "o", "table", "output format: table or json")
	bindJobs(fs, &o.jobs, "", runtime.NumCPU(), "launches simulated in parallel")
	fs.BoolVar(&o.quick, "quick", false, "shorter loops (a tenth of the iterations) for a fast check")
	fs.StringVar(&o.only, "only", "", "run only rows matching this regular expression (matched against FILE:bench,config,metric)")
	fs.BoolVar(&o.check, "check", false, "exit with status 7 when the targets are missed (MAPE <= 5 %, worst row <= 15 % on microbench.csv; probe latency rows <= 10 %)")
	fs.StringVar(&o.config, "config", "h200", "machine configuration to validate")
	fs.StringArrayVar(&o.sets, "set", nil, "override a configuration key: KEY=VALUE")
	_ = c.RegisterFlagCompletionFunc("format", completeValues("table", "json"))
	completeSuiteFlags(c)
	return c
}

// defaultCalibrationDir is the repository's calibration folder, relative to
// the working directory (smsim is run from the repository's root).
func defaultCalibrationDir() string { return filepath.Join("calibration", "h200") }

// requiredCalibrationFiles are the files without which the calibration
// targets cannot be judged: the microbenchmark suite and the probe rows, with
// the PTX they come from.
var requiredCalibrationFiles = []string{"microbench.csv", "microbench.ptx", "probe.csv", "hwprobe.ptx"}

// checkCalibrationDir refuses a folder that does not exist or lacks the
// files the targets are judged on, naming the first one missing.
func checkCalibrationDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return &inputError{Err: fmt.Errorf("calibration folder %s: %w (give the folder of the calibration CSVs and PTX with --dir)", dir, errors.Unwrap(err))}
	}
	if !st.IsDir() {
		return &inputError{Err: fmt.Errorf("calibration folder %s: not a directory", dir)}
	}
	for _, name := range requiredCalibrationFiles {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return &inputError{Err: fmt.Errorf("calibration folder %s: %s is missing", dir, name)}
		}
	}
	return nil
}

func runValidate(ctx context.Context, o *validateOptions, stdout, stderr io.Writer) error {
	cfg, err := run.LoadConfig(o.config, o.sets)
	if err != nil {
		return err
	}
	var prog io.Writer
	if isTerminal(stderr) {
		prog = stderr
	}
	v, err := validate(ctx, o.dir, cfg, suiteOpts{quick: o.quick, only: o.only}, o.jobs, prog)
	if err != nil {
		return err
	}
	if o.format == "json" {
		if err := report.WriteJSON(stdout, v); err != nil {
			return err
		}
	} else if err := writeValidation(stdout, v); err != nil {
		return err
	}
	if o.check {
		if msg := v.missed(); msg != "" {
			return &targetError{msg: msg}
		}
	}
	return nil
}

// probeLatencyBench reports whether a probe.csv bench is one of its latency
// measurements, which the calibration target holds to 10 %: the arithmetic,
// global- and shared-load chains, the __syncthreads loop and the waits on an
// incomplete phase (28 rows). The arrive-throughput rows and the cold
// tensor copies' completion times are validated and shown, not targeted.
func probeLatencyBench(bench string) bool {
	switch bench {
	case "alu_chain", "global_load_chain", "smem_load_chain", "syncthreads_loop",
		"test_wait_incomplete_phase", "try_wait_incomplete_phase":
		return true
	}
	return false
}

// missed names the calibration targets the validation misses, or "".
func (v *validation) missed() string {
	var out []string
	if m, ok := v.Overall["microbench.csv"]; ok {
		if m.MAPE > 5 {
			out = append(out, fmt.Sprintf("microbench.csv MAPE %.1f %% > 5 %%", m.MAPE))
		}
		if m.Worst > 15 {
			out = append(out, fmt.Sprintf("microbench.csv worst row %s off by %.1f %% > 15 %%", m.WorstRow, m.Worst))
		}
	}
	for _, r := range v.Rows {
		if r.File == "probe.csv" && !r.Semantic && probeLatencyBench(r.Bench) && math.Abs(r.ErrorPct) > 10 {
			out = append(out, fmt.Sprintf("probe.csv %s,%s off by %.1f %% > 10 %%", r.Bench, r.Config, r.ErrorPct))
		}
		if r.Semantic && r.Predicted != r.Measured {
			out = append(out, fmt.Sprintf("%s %s,%s,%s: predicted %g, measured %g", r.File, r.Bench, r.Config, r.Metric, r.Predicted, r.Measured))
		}
	}
	if len(out) == 0 {
		return ""
	}
	s := out[0]
	if len(out) > 1 {
		s += fmt.Sprintf(" (and %d more)", len(out)-1)
	}
	return s
}

// targetError: validation targets missed.
type targetError struct{ msg string }

func (t *targetError) Error() string { return "calibration targets missed: " + t.msg }

func writeValidation(w io.Writer, v *validation) error {
	t := report.NewTable(w, "file", "bench", "config", "metric", "measured", "predicted", "error %")
	for _, r := range v.Rows {
		pred := strconv.FormatFloat(r.Predicted, 'f', 2, 64)
		if r.Err != "" {
			pred = "error"
		}
		_ = t.Append(r.File, r.Bench, r.Config, r.Metric, strconv.FormatFloat(r.Measured, 'f', 2, 64), pred,
			strconv.FormatFloat(r.ErrorPct, 'f', 1, 64))
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, r := range v.Rows {
		if r.Err != "" {
			fmt.Fprintf(w, "error in %s,%s: %s\n", r.Bench, r.Config, r.Err)
		}
	}
	fmt.Fprintln(w)
	ft := report.NewTable(w, "file", "family", "rows", "MAPE %", "worst %")
	for _, f := range v.Families {
		_ = ft.Append(f.File, f.Bench, f.Rows, f1(f.MAPE), f1(f.Worst))
	}
	if err := ft.Render(); err != nil {
		return err
	}
	var keys []string
	for k := range v.Overall {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		m := v.Overall[k]
		fmt.Fprintf(w, "%-16s %3d rows  MAPE %5.2f %%  worst %5.1f %% (%s)\n", k, m.Rows, m.MAPE, m.Worst, m.WorstRow)
	}
	var host, slow float64
	for _, l := range v.Launches {
		host += l.HostSeconds
		slow = math.Max(slow, l.Slowdown)
	}
	_, err := fmt.Fprintf(w, "%d launches simulated in %.1f s of host time; slowdown against the H200 up to %.0fx\n",
		len(v.Launches), host, slow)
	return err
}
