package sweep

import (
	"fmt"
	"strings"
	"sync"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// Variant is one column of a comparison: a file run under a launch spec and
// grid settings.
type Variant struct {
	Name  string
	File  string
	Spec  run.Spec
	Point []Setting
}

// Job builds the variant's launch.
func (v Variant) Job() (*run.Job, error) { return PointJob(v.Spec, v.File, v.Point) }

// Result is one variant's line of a comparison (JSON: one element
// of "variants").
type Result struct {
	Name             string                `json:"name"`
	File             string                `json:"file"`
	Kernel           string                `json:"kernel"`         // as the source names it (demangled)
	KernelMangled    string                `json:"kernel_mangled"` // the linker name
	Settings         map[string]string     `json:"settings"`
	Sets             []string              `json:"sets"`
	Args             []string              `json:"args"`
	Cycles           uint64                `json:"cycles"`
	Speedup          float64               `json:"speedup"`
	StallCycles      uint64                `json:"stall_cycles"`
	WarpInstructions uint64                `json:"warp_instructions"`
	HostSeconds      float64               `json:"host_seconds"`
	Barriers         []Barrier             `json:"barriers"`
	Error            string                `json:"error,omitempty"`
	Err              error                 `json:"-"` // the run's error (deadlock, misuse, limit)
	Report           *report.Report        `json:"-"`
	Stats            []*report.BarrierStat `json:"-"`
}

// Barrier is a barrier's summary with its per-phase series (CTAs in
// order, each CTA's phases in order).
type Barrier struct {
	report.BarrierSummary
	PhaseDurations []float64 `json:"phase_durations"`
	PhaseStalls    []float64 `json:"phase_stalls"`
}

// Comparison is compare's JSON document.
type Comparison struct {
	Baseline string   `json:"baseline"`
	Variants []Result `json:"variants"`
}

// Compare builds every variant's job (stopping at the first command-line
// or input error), then runs them, jobs at a time. A variant whose
// simulation fails keeps its error in its result.
func Compare(vs []Variant, jobs int, arrays bool) ([]Result, error) {
	js := make([]*run.Job, len(vs))
	for i, v := range vs {
		j, err := v.Job()
		if err != nil {
			return nil, fmt.Errorf("variant %s: %w", v.Name, err)
		}
		if jobs > 1 && len(vs) > 1 && j.Threads == 0 {
			j.Threads = 1 // the variants share the cores: one each, as a sweep's points do
		}
		js[i] = j
	}
	results := make([]Result, len(vs))
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
			return nil, fmt.Errorf("variant %s: %w", vs[i].Name, err)
		}
	}
	base := results[0].Cycles
	for i := range results {
		if r := &results[i]; r.Err == nil && r.Cycles > 0 && results[0].Err == nil {
			r.Speedup = report.Round3(float64(base) / float64(r.Cycles))
		}
	}
	return results, nil
}

// compareOne runs one variant.
func compareOne(v Variant, j *run.Job, arrays bool) (Result, error) {
	r := Result{Name: v.Name, File: v.File, Kernel: j.Prog.Title(), KernelMangled: j.Prog.Name, Settings: map[string]string{},
		Sets: append([]string{}, v.Spec.Sets...), Args: append([]string{}, v.Spec.Args...), Barriers: []Barrier{}}
	for _, s := range v.Point {
		r.Settings[s.Kind+":"+s.Key] = s.Value
	}
	out, err := run.Execute(j)
	if err != nil {
		return r, err
	}
	r.Report = report.Build(j, out)
	if out.Err != nil {
		r.Err = out.Err
		r.Error, _, _ = strings.Cut(out.Err.Error(), "\n")
	}
	r.Cycles = r.Report.Cycles
	r.WarpInstructions = r.Report.Sim.WarpInstructions
	r.HostSeconds = report.Round3(r.Report.Sim.HostSeconds)
	r.Stats = report.BarrierStats(r.Report, arrays)
	for _, s := range r.Stats {
		r.StallCycles += s.StallCycles
		r.Barriers = append(r.Barriers, Barrier{BarrierSummary: s.Summary(),
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
