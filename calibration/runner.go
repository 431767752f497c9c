package calibration

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// sourceCache loads each kernel file of the suite once (programs are
// read-only while they run): the recipe's PTX, or the file of the same name
// with the input form's extension beside it (input "sass": the listing, with
// its cubin).
type sourceCache struct {
	dir   string
	input string // "" or "ptx": the PTX itself
	mu    sync.Mutex
	m     map[string]*run.Source
}

func (c *sourceCache) get(name string) (*run.Source, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.input != "" && c.input != "ptx" {
		name = strings.TrimSuffix(name, filepath.Ext(name)) + "." + c.input
	}
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

// runRecipe launches r through the run API as the suite's host code does
// (block, shared memory, arguments, launches, inputs written and warmed)
// and computes its rows from the 64-bit words of its out buffer.
func runRecipe(sources *sourceCache, r recipe, cfg sm.Config) ([]float64, Launch, error) {
	lr := Launch{Kernel: r.kernel, Name: r.kernel, Args: fmt.Sprint(r.args)}
	src, err := sources.get(r.file)
	if err != nil {
		return nil, lr, err
	}
	k, err := src.Find(r.kernel)
	if err != nil {
		return nil, lr, err
	}
	lr.Name = k.CXX.Short
	prog, err := src.Program(k)
	if err != nil {
		return nil, lr, err
	}
	outIdx := strconv.Itoa(len(r.args) - 1)
	if r.outArg != "" {
		outIdx = r.outArg
	}
	j := &run.Job{Source: src, Prog: prog, Config: cfg, Block: [3]int{r.block, 1, 1}, Grid: [3]int{1, 1, 1}, Smem: r.smem,
		Args: r.args, Launches: max(r.launches, 1), MaxCycles: 2_000_000_000, Prep: r.prep, Warm: r.warm,
		Dumps:   []run.DumpSpec{{Name: outIdx, Type: "i64", Count: r.outLen}},
		Threads: 1} // the suite runs its launches side by side (--jobs), a thread each, as smsim sweep does
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
