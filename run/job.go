package run

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/smsim/smsim/gpu"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// Spec is one launch as the command line spells it (smsim run's launch
// flags); Job reads it against a kernel file.
type Spec struct {
	Kernel    string   // -k: an entry's mangled or demangled name, or a substring of one
	Block     string   // X[,Y[,Z]]; "": the source's block, else 32
	Grid      string   // X[,Y[,Z]]; "": the source's grid, else 1
	Smem      string   // dynamic shared memory per block, with an optional KiB/MiB suffix
	Args      []string // --arg values: VALUE or NAME=VALUE
	Launches  int      // runs of the launch, memory and caches kept; the last is reported
	Config    string   // a built-in configuration's name or a configuration file
	Sets      []string // KEY=VALUE overrides of the configuration
	MaxCycles uint64   // stop past this many cycles (0: no limit)
	Lenient   bool     // follow the hardware where the specification gives its behaviour
	SMs       int      // --sms: SMs to simulate (0: one, or the configuration's gpu.sms for a cluster launch)
	Cluster   string   // --cluster X[,Y[,Z]]: the launch's cluster shape; "": the source's, else none
	Symbols   []string // --symbol NAME=FILL: a module-scope variable's contents before the first launch
	Threads   int      // --threads: host threads the simulation may use (0: every core)
	SMThreads int      // --sm-threads: host threads a GPU's SMs run on, within Threads (≤ 1: one)
}

// Job is one simulation: a kernel, its launch and a machine configuration.
type Job struct {
	Source    *Source
	Prog      *isa.Program
	Block     [3]int
	Grid      [3]int
	Smem      int
	Args      []string
	Launches  int
	SMs       int    // SMs of the simulated GPU (1: the SM alone runs the grid)
	Cluster   [3]int // CTAs per cluster (zero: no cluster size)
	Config    sm.Config
	MaxCycles uint64
	Mode      mbarrier.Mode
	Dumps     []DumpSpec
	Symbols   []SymbolFill                        // module-scope variables' contents before the first launch
	Observer  sm.Observer                         // nil: none
	Prep      func(*memory.Global, *Params) error // writes inputs before the first launch
	Warm      []string                            // buffer parameters the host just wrote: resident in L2 at the start
	Threads   int                                 // host threads the simulation may use (0: every core; sm.MMAWorkers)
	SMThreads int                                 // host threads a GPU's SMs run on, within Threads (≤ 1: one; docs/parallel.md)
}

// Outcome is what a job produced.
type Outcome struct {
	Result *sm.Result
	Dumps  []Dump
	Host   time.Duration
	Params *Params
	Global *memory.Global
	Err    error // the simulation's error (deadlock, misuse, limit); Result is still set
	// WarpInstrs and Cycles are summed over all the launches (Result has
	// the last one's).
	WarpInstrs, Cycles uint64
}

// Job loads file and builds the launch the spec describes.
func (f Spec) Job(file string) (*Job, error) {
	src, err := Load(file)
	if err != nil {
		return nil, err
	}
	prog, err := src.Kernel(f.Kernel)
	if err != nil {
		return nil, err
	}
	cfg, err := LoadConfig(f.Config, f.Sets)
	if err != nil {
		return nil, err
	}
	j := &Job{Source: src, Prog: prog, Config: cfg, Args: f.Args, Launches: f.Launches, MaxCycles: f.MaxCycles, Threads: f.Threads, SMThreads: f.SMThreads}
	if f.Threads < 0 || f.Threads > maxThreads {
		return nil, &UsageError{Msg: fmt.Sprintf("--threads %d: want 0 (every core) or 1..%d", f.Threads, maxThreads)}
	}
	if f.SMThreads < 0 || f.SMThreads > maxThreads {
		return nil, &UsageError{Msg: fmt.Sprintf("--sm-threads %d: want 1..%d (0 is 1)", f.SMThreads, maxThreads)}
	}
	if f.Lenient {
		j.Mode = mbarrier.Faithful
	}
	if f.Launches < 1 || f.Launches > 1000 {
		return nil, &UsageError{Msg: fmt.Sprintf("--launches %d: want 1..1000", f.Launches)}
	}
	if j.Block, err = Dims("--block", f.Block, prog.Block, 32); err != nil {
		return nil, err
	}
	if f.Block != "" {
		if err := checkBlock(f.Block, j.Block); err != nil {
			return nil, err
		}
	}
	if err := checkRegisters(f.Block, j.Block, prog, cfg); err != nil {
		return nil, err
	}
	if j.Grid, err = Dims("--grid", f.Grid, prog.Grid, 1); err != nil {
		return nil, err
	}
	if f.Grid != "" {
		if err := checkGrid(f.Grid, j.Grid); err != nil {
			return nil, err
		}
	} else if prog.Grid[0] == 0 && prog.Cluster != [3]int{} {
		j.Grid = prog.Cluster // one cluster of a kernel that fixes its cluster
	}
	j.Smem = prog.DynSmem
	if f.Smem != "" {
		if j.Smem, err = smemFlag(f.Smem, prog, cfg); err != nil {
			return nil, err
		}
	}
	if j.Cluster, err = clusterFlag(f.Cluster, prog, j.Grid, cfg); err != nil {
		return nil, err
	}
	if j.SMs, err = smsFlag(f.SMs, j.Cluster, cfg); err != nil {
		return nil, err
	}
	for _, s := range f.Symbols {
		sf, err := ParseSymbolFill(s)
		if err != nil {
			return nil, err
		}
		if _, err := moduleSymbol(prog, sf.Name); err != nil {
			return nil, err
		}
		j.Symbols = append(j.Symbols, sf)
	}
	return j, nil
}

// Dims parses X[,Y[,Z]]; an empty flag takes the source's shape, else def.
func Dims(flag, s string, src [3]int, def int) ([3]int, error) {
	if s == "" {
		if src[0] > 0 {
			d := src
			for i := range d {
				if d[i] == 0 {
					d[i] = 1
				}
			}
			return d, nil
		}
		return [3]int{def, 1, 1}, nil
	}
	d := [3]int{1, 1, 1}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return d, &UsageError{Msg: fmt.Sprintf("%s %q: want X[,Y[,Z]]", flag, s)}
	}
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		switch {
		case err != nil && !errors.Is(err, strconv.ErrRange):
			return d, &UsageError{Msg: fmt.Sprintf("%s %q: want X[,Y[,Z]], each a positive integer", flag, s)}
		case n < 1 && err == nil:
			return d, &UsageError{Msg: fmt.Sprintf("%s %q: dimensions are at least 1", flag, s)}
		case err != nil || n > 1<<31-1:
			return d, &UsageError{Msg: fmt.Sprintf("%s %q: dimension %s is more than %d", flag, s, strings.TrimSpace(p), 1<<31-1)}
		}
		d[i] = int(n)
	}
	return d, nil
}

// Execute runs the job's launches on a fresh machine and returns the last
// launch's outcome. Errors before the run (arguments, the machine's
// configuration) are returned as err; the run's own in Outcome.Err.
//
// A GPU's SMs run on several host threads (Job.SMThreads) with the results of
// one; a launch that fails there may have left SMs a cycle past the
// failure, so such a job is run again on one thread for its exact report.
func Execute(j *Job) (*Outcome, error) {
	out, err := execute(j)
	if err == nil && errors.Is(out.Err, gpu.ErrRedoOnOneThread) {
		one := *j
		one.SMThreads = 1
		return execute(&one)
	}
	return out, err
}

func execute(j *Job) (*Outcome, error) {
	gm := memory.NewGlobal()
	for _, d := range j.Prog.Data {
		if err := gm.MapData(d.Addr, d.Bytes, fmt.Sprintf("%s data at 0x%x", d.Space, d.Addr)); err != nil {
			return nil, &InputError{Err: err}
		}
	}
	banks, err := fillSymbols(j, gm)
	if err != nil {
		return nil, err
	}
	ps, err := BuildParams(j.Prog, j.Args, gm)
	if err != nil {
		return nil, err
	}
	for _, d := range j.Dumps {
		if _, ok := ps.Bufs[d.Name]; !ok {
			return nil, &UsageError{Msg: fmt.Sprintf("--dump %s: not a buffer parameter of kernel %s (%s)", d.Name, j.Prog.Name, ParamList(j.Prog))}
		}
	}
	if j.Prep != nil {
		if err := j.Prep(gm, ps); err != nil {
			return nil, &InputError{Err: err}
		}
	}
	s, err := launcher(j, gm, ps)
	if err != nil {
		return nil, err
	}
	l := &sm.Launch{Prog: j.Prog, Block: j.Block, Grid: j.Grid, DynSmem: j.Smem, Params: ps.Block,
		Mode: j.Mode, MaxCycles: j.MaxCycles, Cluster: j.Cluster, Banks: banks}
	out := &Outcome{Params: ps, Global: gm}
	start := time.Now()
	for i := 0; i < max(j.Launches, 1); i++ {
		out.Result, out.Err = s.Run(l)
		if out.Result != nil {
			out.WarpInstrs += out.Result.Stats.WarpInstructions
			out.Cycles += out.Result.Cycles
		}
		if out.Err != nil {
			break
		}
	}
	out.Host = time.Since(start)
	if out.Err == nil {
		out.Dumps, err = ReadDumps(j.Dumps, ps, gm)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// machine wires an SM of the job's configuration: the memory hierarchy
// (with the buffers the host just wrote resident in L2), the SM over global
// memory, its TMA unit, and the observer.
func machine(j *Job, gm *memory.Global, ps *Params) (*sm.SM, error) {
	h, err := hierarchy(j, ps)
	if err != nil {
		return nil, err
	}
	s, err := sm.New(j.Config, sim.New(), gm, h)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if err := s.AttachTMA(gm, h); err != nil {
		return nil, &InputError{Err: err}
	}
	if j.Observer != nil {
		s.SetObserver(j.Observer)
	}
	s.SetThreads(j.Threads)
	return s, nil
}

// maxThreads bounds --threads.
const maxThreads = 1024

// hierarchy is the memory path of a job's first SM, with the buffers the
// host just wrote resident in L2.
func hierarchy(j *Job, ps *Params) (*memory.Hierarchy, error) {
	h, err := memory.NewHierarchy(j.Config.Mem.AtClock(j.Config.ClockMHz))
	if err != nil {
		return nil, &InputError{Err: err}
	}
	for _, name := range j.Warm {
		if b, ok := ps.Bufs[name]; ok {
			h.Warm(b.Addr, b.Size)
		}
	}
	return h, nil
}
