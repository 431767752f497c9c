package calibration

import (
	"context"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// Stopped is the error of a suite whose context was cancelled (Ctrl-C)
// before every launch ran; Msg says how far it got.
type Stopped struct{ Msg string }

// Error implements error.
func (s *Stopped) Error() string { return s.Msg }

// Validate runs, on a machine of configuration cfg, every recipe of the
// suite in dir whose rows the measured CSVs there hold (and opts.Only
// selects), jobs launches at a time, and compares each row's prediction
// with its measurement. progress, when not nil, gets a progress line.
// Cancelling ctx stops it with a *Stopped error.
func Validate(ctx context.Context, dir string, cfg sm.Config, opts Options, jobs int, progress io.Writer) (*Validation, error) {
	only, err := regexp.Compile(opts.Only)
	if err != nil {
		return nil, &run.UsageError{Msg: fmt.Sprintf("--only %q: %v", opts.Only, err)}
	}
	if opts.Input != "" {
		if err := CheckInputs([]string{opts.Input}); err != nil {
			return nil, err
		}
	}
	if err := CheckDir(dir); err != nil {
		return nil, err
	}
	want, err := measured(dir, only.MatchString)
	if err != nil {
		return nil, &run.InputError{Err: err}
	}
	var todo []recipe
	for _, r := range recipes(dir, opts) {
		for _, row := range r.rows {
			if _, ok := want[r.csvFile()+":"+row.key()]; ok {
				todo = append(todo, r)
				break
			}
		}
	}
	results, launches, errs, err := launchAll(ctx, dir, opts.Input, cfg, todo, jobs, progress)
	if err != nil {
		return nil, err
	}
	v := &Validation{Input: opts.inputForm(), Only: opts.Only, Launches: launches}
	for i, r := range todo {
		for k, row := range r.rows {
			m, ok := want[r.csvFile()+":"+row.key()]
			if !ok {
				continue
			}
			rr := Row{File: m.file, Bench: m.bench, Config: m.config, Metric: m.metric, Measured: m.value,
				Semantic: semanticRow.MatchString(m.bench) || semanticRow.MatchString(m.metric),
				Source:   strings.TrimSuffix(r.file, filepath.Ext(r.file)), Kernel: launches[i].Name}
			if errs[i] != nil {
				rr.Err, _, _ = strings.Cut(errs[i].Error(), "\n")
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

// launchAll runs the recipes, jobs at a time, and returns each one's row
// values, launch record and error. Cancelling ctx abandons the launches
// still running and returns a *Stopped error.
func launchAll(ctx context.Context, dir, input string, cfg sm.Config, todo []recipe, jobs int, progress io.Writer) ([][]float64, []Launch, []error, error) {
	results := make([][]float64, len(todo))
	launches := make([]Launch, len(todo))
	errs := make([]error, len(todo))
	sources := &sourceCache{dir: dir, input: input, m: map[string]*run.Source{}}
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
	if progress != nil {
		fmt.Fprintln(progress)
	}
	if stopped {
		// Interrupted: launches still running are abandoned (their
		// results are never read, and they print nothing more).
		return nil, nil, nil, &Stopped{Msg: fmt.Sprintf("validate stopped after %d of %d launches (%.1f s); it prints "+
			"nothing until every launch has run (--only REGEXP runs a part of the suite)", n, len(todo), time.Since(start).Seconds())}
	}
	return results, launches, errs, nil
}
