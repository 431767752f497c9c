package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/optimize"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
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
	fs.StringVar(&o.dir, "dir", defaultCalibrationDir(), "calibration folder")
	fs.StringSliceVar(&o.params, "params", nil, "configuration keys to fit (comma-separated)")
	fs.StringVar(&o.only, "only", "", "fit only rows matching this regular expression (FILE:bench,config,metric)")
	fs.IntVar(&o.evals, "evals", 200, "largest number of suite runs")
	bindJobs(fs, &o.jobs, "", runtime.NumCPU(), "launches simulated in parallel")
	fs.BoolVar(&o.quick, "quick", false, "shorter loops in the suite")
	fs.StringVar(&o.config, "config", "h200", "start configuration")
	fs.StringArrayVar(&o.sets, "set", nil, "override a key of the start configuration: KEY=VALUE")
	fs.StringVar(&o.out, "out", "", "also write the fitted configuration to this file")
	completeSuiteFlags(c)
	return c
}

// objective is the fit's cost: MAPE of the non-semantic rows plus the mean
// excess over 12 % (so no row is left far off), and a large cost for rows
// that fail to run or semantic rows that do not match.
func objective(v *validation) float64 {
	var sum, excess float64
	n := 0
	for _, r := range v.Rows {
		if r.Err != "" || math.IsNaN(r.Predicted) {
			sum += 1000
			n++
			continue
		}
		if r.Semantic {
			if r.Predicted != r.Measured {
				sum += 1000
			}
			continue
		}
		a := math.Abs(r.ErrorPct)
		sum += a
		excess += math.Max(0, a-12)
		n++
	}
	if n == 0 {
		return math.Inf(1)
	}
	return (sum + excess) / float64(n)
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
	x0 := make([]float64, len(o.params))
	for i, k := range o.params {
		v, ok := base.Get(k)
		if !ok {
			return &usageError{Msg: fmt.Sprintf("--params: unknown key %q", k)}
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return &usageError{Msg: fmt.Sprintf("--params: %s is not numeric (%s)", k, v)}
		}
		x0[i] = f
	}
	opts := suiteOpts{quick: o.quick, only: o.only}
	cache := map[string]float64{}
	evals := 0
	var evalErr error
	eval := func(x []float64) float64 {
		cfg, key, err := withParams(base, o.params, x)
		if err != nil {
			return math.Inf(1)
		}
		if c, ok := cache[key]; ok {
			return c
		}
		v, err := validate(context.Background(), o.dir, cfg, opts, o.jobs, nil)
		if err != nil {
			evalErr = err
			return math.Inf(1)
		}
		evals++
		c := objective(v)
		cache[key] = c
		fmt.Fprintf(stderr, "calibrate: eval %d  %s  cost %.3f\n", evals, key, c)
		return c
	}
	start := eval(x0)
	if evalErr != nil {
		return evalErr
	}
	init := make([]float64, len(x0))
	copy(init, x0)
	nm := &optimize.NelderMead{SimplexSize: 0}
	// A simplex of 25 % of each value (at least 2) explores integer parameters.
	simplex := make([][]float64, len(x0)+1)
	for i := range simplex {
		simplex[i] = append([]float64(nil), x0...)
		if i > 0 {
			simplex[i][i-1] += math.Max(2, 0.25*math.Abs(x0[i-1]))
		}
	}
	nm.InitialVertices = simplex
	nm.InitialValues = make([]float64, len(simplex))
	for i, v := range simplex {
		nm.InitialValues[i] = eval(v)
	}
	res, err := optimize.Minimize(optimize.Problem{Func: eval}, init,
		&optimize.Settings{FuncEvaluations: o.evals, Converger: &optimize.FunctionConverge{Absolute: 1e-3, Iterations: 60}}, nm)
	if err != nil && res == nil {
		return err
	}
	best, key, _ := withParams(base, o.params, res.X)
	fmt.Fprintf(stdout, "# smsim calibrate: %d suite runs; cost %.3f -> %.3f\n# rows: %q\n", evals, start, res.F, o.only)
	fmt.Fprintf(stdout, "name = %s-fit\n", base.Name)
	for _, kv := range strings.Split(key, " ") {
		k, v, _ := strings.Cut(kv, "=")
		fmt.Fprintf(stdout, "%-28s = %s\n", k, v)
	}
	if o.out != "" {
		return writeOutput("--out", o.out, func(w io.Writer) error { return run.WriteConfig(w, best) })
	}
	return nil
}

// withParams returns base with the keys set to x rounded to integers, and a
// canonical key=value string of them.
func withParams(base sm.Config, keys []string, x []float64) (sm.Config, string, error) {
	cfg := base
	var parts []string
	for i, k := range keys {
		v := int64(math.Round(x[i]))
		if v < 0 {
			v = 0
		}
		if err := cfg.Set(k, strconv.FormatInt(v, 10)); err != nil {
			return cfg, "", err
		}
		parts = append(parts, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(parts)
	if err := cfg.Validate(); err != nil {
		return cfg, "", err
	}
	return cfg, strings.Join(parts, " "), nil
}
