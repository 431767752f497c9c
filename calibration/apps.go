package calibration

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// App is one case of the held-out application kernels (apps/h200/manifest.json):
// the launch as smsim spells it, the cycles the kernel measured itself on the
// H200 (its last parameter's first word) and its output buffers' hashes. No
// parameter of smsim is ever fitted to these cases.
type App struct {
	Bench    string   `json:"bench"`
	Config   string   `json:"config"`
	CU       string   `json:"cu"`
	PTX      string   `json:"ptx"`
	Kernel   string   `json:"kernel"`
	Block    [3]int   `json:"block"`
	Grid     [3]int   `json:"grid"`
	Smem     int      `json:"smem"`
	Launches int      `json:"launches"`
	Args     []string `json:"args"`
	Cycles   struct {
		Median float64 `json:"median"`
		Min    float64 `json:"min"`
		Max    float64 `json:"max"`
	} `json:"cycles"`
	Outputs []AppOutput `json:"outputs"`
}

// AppOutput is an output buffer the H200 wrote: its parameter index, size
// and FNV-1a 64 hash.
type AppOutput struct {
	Param int    `json:"param"`
	Bytes int    `json:"bytes"`
	FNV   string `json:"fnv1a64"`
}

// Name is the case's name in reports: bench/config.
func (a *App) Name() string { return a.Bench + "/" + a.Config }

// DefaultAppsDir is the folder of the application kernels: apps/h200 of the
// working directory, else beside the repository this package is in.
func DefaultAppsDir() string {
	rel := filepath.Join("apps", "h200")
	if hasFile(rel, "manifest.json") {
		return rel
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		if dir := filepath.Join(filepath.Dir(file), "..", "apps", "h200"); hasFile(dir, "manifest.json") {
			return dir
		}
	}
	return rel
}

// LoadApps reads dir's manifest.json.
func LoadApps(dir string) ([]App, error) {
	b, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		return nil, &run.InputError{Err: fmt.Errorf("application kernels: %w", err)}
	}
	var apps []App
	if err := json.Unmarshal(b, &apps); err != nil {
		return nil, &run.InputError{Err: fmt.Errorf("%s: %w", filepath.Join(dir, "manifest.json"), err)}
	}
	return apps, nil
}

// AppResult is one case run from one input form (the PTX, or the SASS the
// H200 ran).
type AppResult struct {
	App       string  `json:"app"`
	Input     string  `json:"input"` // "ptx" or "sass"
	Measured  float64 `json:"measured_cycles"`
	Predicted float64 `json:"predicted_cycles"`
	ErrorPct  float64 `json:"error_pct"`
	// Exact says every output buffer's hash equals the H200's; Mismatch
	// names the first that does not.
	Exact       bool    `json:"exact"`
	Mismatch    string  `json:"mismatch,omitempty"`
	Err         string  `json:"error,omitempty"`
	HostSeconds float64 `json:"host_seconds"`
}

// RunApp runs a from its input form (the file beside its PTX with the
// extension input names) on cfg.
func RunApp(dir string, a App, input string, cfg sm.Config) AppResult {
	r := AppResult{App: a.Name(), Input: input, Measured: a.Cycles.Median, Predicted: math.NaN(), ErrorPct: 100}
	file := filepath.Join(dir, strings.TrimSuffix(a.PTX, filepath.Ext(a.PTX))+"."+input)
	start := time.Now()
	defer func() { r.HostSeconds = time.Since(start).Seconds() }()
	src, err := run.Load(file)
	if err != nil {
		r.Err = firstLine(err.Error())
		return r
	}
	prog, err := src.Kernel(a.Kernel)
	if err != nil {
		r.Err = firstLine(err.Error())
		return r
	}
	j := &run.Job{Source: src, Prog: prog, Config: cfg, Block: a.Block, Grid: a.Grid, Smem: a.Smem, Args: a.Args,
		Launches: max(a.Launches, 1), MaxCycles: 2_000_000_000, Threads: 1} // the apps run side by side, a thread each
	out, err := run.Execute(j)
	if err == nil && out.Err != nil {
		err = out.Err
	}
	if err != nil {
		r.Err = firstLine(err.Error())
		return r
	}
	clk, ok := out.Params.Bufs[strconv.Itoa(len(a.Args)-1)]
	var word [8]byte
	if !ok || out.Global.Read(clk.Addr, word[:]) != nil {
		r.Err = "the kernel's last parameter is not a buffer of its cycles"
		return r
	}
	r.Predicted = float64(int64(binary.LittleEndian.Uint64(word[:])))
	r.ErrorPct = relErr(r.Predicted, r.Measured)
	r.Exact = true
	for _, o := range a.Outputs {
		b, ok := out.Params.Bufs[strconv.Itoa(o.Param)]
		data := make([]byte, o.Bytes)
		if !ok || out.Global.Read(b.Addr, data) != nil {
			r.Exact, r.Mismatch = false, fmt.Sprintf("parameter %d is not a %d-byte buffer", o.Param, o.Bytes)
			break
		}
		h := fnv.New64a()
		h.Write(data)
		if got := fmt.Sprintf("0x%016x", h.Sum64()); got != o.FNV {
			r.Exact, r.Mismatch = false, fmt.Sprintf("parameter %d: FNV-1a %s, the H200's %s", o.Param, got, o.FNV)
			break
		}
	}
	return r
}

// AppValidation is the application set run from each input form.
type AppValidation struct {
	Results []AppResult        `json:"results"`
	Summary map[string]AppStat `json:"summary"` // by input form
}

// AppStat summarises one input form: the mean absolute percentage error of
// the cycles, the worst case, and how many cases reproduce the H200's
// outputs bit for bit.
type AppStat struct {
	Cases    int     `json:"cases"`
	Failed   int     `json:"failed"`
	MAPE     float64 `json:"mape_pct"`
	Worst    float64 `json:"worst_abs_error_pct"`
	WorstApp string  `json:"worst_app"`
	Exact    int     `json:"exact"`
}

// ValidateApps runs every case of dir's manifest (those whose name matches
// only) from each input form, jobs at a time.
func ValidateApps(ctx context.Context, dir string, inputs []string, only func(string) bool, cfg sm.Config, jobs int) (*AppValidation, error) {
	apps, err := LoadApps(dir)
	if err != nil {
		return nil, err
	}
	type task struct {
		app   App
		input string
	}
	var tasks []task
	for _, a := range apps {
		if only != nil && !only(a.Name()) {
			continue
		}
		for _, in := range inputs {
			tasks = append(tasks, task{a, in})
		}
	}
	res := make([]AppResult, len(tasks))
	sem := make(chan struct{}, max(jobs, 1))
	var wg sync.WaitGroup
	for i := range tasks {
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		sem <- struct{}{}
		go func(i int) {
			defer wg.Done()
			defer func() { <-sem }()
			res[i] = RunApp(dir, tasks[i].app, tasks[i].input, cfg)
		}(i)
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	v := &AppValidation{Results: res, Summary: map[string]AppStat{}}
	for _, r := range res {
		s := v.Summary[r.Input]
		s.Cases++
		if r.Err != "" {
			s.Failed++
		} else {
			e := math.Abs(r.ErrorPct)
			s.MAPE += e
			if e > s.Worst {
				s.Worst, s.WorstApp = e, r.App
			}
			if r.Exact {
				s.Exact++
			}
		}
		v.Summary[r.Input] = s
	}
	for k, s := range v.Summary {
		if n := s.Cases - s.Failed; n > 0 {
			s.MAPE /= float64(n)
		}
		v.Summary[k] = s
	}
	return v, nil
}

// firstLine is a message's first line (diagnostics add indented details).
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
