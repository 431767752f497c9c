package calibration

import (
	"context"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
	"gonum.org/v1/gonum/optimize"
)

// FitResult is a fit's outcome: the best configuration found, its keys as
// a canonical "key=value ..." string, the cost of the start and of the best
// point, and how many suite runs it took.
type FitResult struct {
	Config      sm.Config
	Key         string
	Start, Best float64
	Evals       int
}

// Fit searches integer values of the configuration keys that minimise the
// suite's Objective, with a Nelder–Mead search from base's values, at most
// evals suite runs of dir (opts select the rows, jobs launches at a time).
// Each new candidate's cost is logged to log. The fit is reproducible: the
// same suite, start configuration and arguments give the same result.
func Fit(dir string, base sm.Config, keys []string, opts Options, evals, jobs int, log io.Writer) (*FitResult, error) {
	x0 := make([]float64, len(keys))
	for i, k := range keys {
		v, ok := base.Get(k)
		if !ok {
			return nil, &run.UsageError{Msg: fmt.Sprintf("--params: unknown key %q", k)}
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return nil, &run.UsageError{Msg: fmt.Sprintf("--params: %s is not numeric (%s)", k, v)}
		}
		x0[i] = f
	}
	cache := map[string]float64{}
	n := 0
	var evalErr error
	eval := func(x []float64) float64 {
		cfg, key, err := WithParams(base, keys, x)
		if err != nil {
			return math.Inf(1)
		}
		if c, ok := cache[key]; ok {
			return c
		}
		v, err := Validate(context.Background(), dir, cfg, opts, jobs, nil)
		if err != nil {
			evalErr = err
			return math.Inf(1)
		}
		n++
		c := Objective(v)
		cache[key] = c
		fmt.Fprintf(log, "calibrate: eval %d  %s  cost %.3f\n", n, key, c)
		return c
	}
	start := eval(x0)
	if evalErr != nil {
		return nil, evalErr
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
		&optimize.Settings{FuncEvaluations: evals, Converger: &optimize.FunctionConverge{Absolute: 1e-3, Iterations: 60}}, nm)
	if err != nil && res == nil {
		return nil, err
	}
	best, key, _ := WithParams(base, keys, res.X)
	return &FitResult{Config: best, Key: key, Start: start, Best: res.F, Evals: n}, nil
}

// Objective is the fit's cost: MAPE of the non-semantic rows plus the mean
// excess over 12 % (so no row is left far off), and a large cost for rows
// that fail to run or semantic rows that do not match.
func Objective(v *Validation) float64 {
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

// WithParams returns base with the keys set to x rounded to integers, and a
// canonical key=value string of them.
func WithParams(base sm.Config, keys []string, x []float64) (sm.Config, string, error) {
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
