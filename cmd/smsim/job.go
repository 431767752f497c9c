package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// job is one simulation: a kernel, its launch and a machine configuration.
type job struct {
	src       *source
	prog      *isa.Program
	block     [3]int
	grid      [3]int
	smem      int
	args      []string
	launches  int
	cfg       sm.Config
	maxCycles uint64
	mode      mbarrier.Mode
	dumps     []dumpSpec
	observer  sm.Observer
	prep      func(*memory.Global, *params) error // writes inputs before the first launch
	warm      []string                            // buffer parameters the host just wrote: resident in L2 at the start
}

// outcome is what a job produced.
type outcome struct {
	res    *sm.Result
	dumps  []dumpResult
	host   time.Duration
	params *params
	gm     *memory.Global
	runErr error // the simulation's error (deadlock, misuse, limit); res is still set
	// warpInstrs and cycles are summed over all the launches (res has the last one's).
	warpInstrs, cycles uint64
}

// execute runs the job's launches on a fresh machine and returns the last
// launch's report. Errors before the run (arguments) are returned as err.
func execute(j *job) (*outcome, error) {
	gm := memory.NewGlobal()
	for _, d := range j.prog.Data {
		if err := gm.MapData(d.Addr, d.Bytes, fmt.Sprintf("%s data at 0x%x", d.Space, d.Addr)); err != nil {
			return nil, &inputError{err: err}
		}
	}
	ps, err := buildParams(j.prog, j.args, gm)
	if err != nil {
		return nil, err
	}
	for _, d := range j.dumps {
		if _, ok := ps.bufs[d.name]; !ok {
			return nil, &usageError{msg: fmt.Sprintf("--dump %s: not a buffer parameter of kernel %s (%s)", d.name, j.prog.Name, paramList(j.prog))}
		}
	}
	if j.prep != nil {
		if err := j.prep(gm, ps); err != nil {
			return nil, &inputError{err: err}
		}
	}
	h, err := memory.NewHierarchy(j.cfg.Mem)
	if err != nil {
		return nil, &inputError{err: err}
	}
	for _, name := range j.warm {
		if b, ok := ps.bufs[name]; ok {
			h.Warm(b.addr, b.size)
		}
	}
	eng := sim.New()
	s, err := sm.New(j.cfg, eng, gm, h)
	if err != nil {
		return nil, &inputError{err: err}
	}
	if err := s.AttachTMA(gm, h); err != nil {
		return nil, &inputError{err: err}
	}
	if j.observer != nil {
		s.SetObserver(j.observer)
	}
	l := &sm.Launch{Prog: j.prog, Block: j.block, Grid: j.grid, DynSmem: j.smem, Params: ps.block,
		Mode: j.mode, MaxCycles: j.maxCycles}
	out := &outcome{params: ps, gm: gm}
	start := time.Now()
	for i := 0; i < max(j.launches, 1); i++ {
		out.res, out.runErr = s.Run(l)
		if out.res != nil {
			out.warpInstrs += out.res.Stats.WarpInstructions
			out.cycles += out.res.Cycles
		}
		if out.runErr != nil {
			break
		}
	}
	out.host = time.Since(start)
	if out.runErr == nil {
		out.dumps, err = readDumps(j.dumps, ps, gm)
		if err != nil {
			return out, err
		}
	}
	return out, nil
}

// dumpSpec is one --dump NAME[:TYPE[:COUNT]].
type dumpSpec struct {
	name  string
	typ   string
	count int
}

type dumpResult struct {
	name   string
	typ    string
	values []any
}

var dumpSizes = map[string]int{"i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8, "f64": 8, "hex": 4,
	"i8": 1, "u8": 1, "i16": 2, "u16": 2}

const maxDumpValues = 1 << 20

func parseDump(s string) (dumpSpec, error) {
	parts := strings.Split(s, ":")
	d := dumpSpec{name: parts[0], typ: "i32", count: -1}
	if d.name == "" || len(parts) > 3 {
		return d, &usageError{msg: fmt.Sprintf("--dump %q: want NAME[:TYPE[:COUNT]]", s)}
	}
	if len(parts) > 1 && parts[1] != "" {
		d.typ = parts[1]
	}
	if _, ok := dumpSizes[d.typ]; !ok {
		return d, &usageError{msg: fmt.Sprintf("--dump %q: type %q is not one of i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 hex", s, d.typ)}
	}
	if len(parts) > 2 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 || n > maxDumpValues {
			return d, &usageError{msg: fmt.Sprintf("--dump %q: count must be 0..%d", s, maxDumpValues)}
		}
		d.count = n
	}
	return d, nil
}

func readDumps(specs []dumpSpec, ps *params, gm *memory.Global) ([]dumpResult, error) {
	var out []dumpResult
	for _, d := range specs {
		b, ok := ps.bufs[d.name]
		if !ok {
			return out, &usageError{msg: fmt.Sprintf("--dump %s: not a buffer parameter of the kernel", d.name)}
		}
		es := dumpSizes[d.typ]
		n := int(b.size) / es
		if d.count >= 0 && d.count < n {
			n = d.count
		}
		n = min(n, maxDumpValues)
		raw := make([]byte, n*es)
		if err := gm.Read(b.addr, raw); err != nil {
			return out, err
		}
		r := dumpResult{name: d.name, typ: d.typ, values: make([]any, n)}
		for i := 0; i < n; i++ {
			r.values[i] = decodeValue(raw[i*es:], d.typ)
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeValue(b []byte, typ string) any {
	switch typ {
	case "i8":
		return int8(b[0])
	case "u8":
		return b[0]
	case "i16":
		return int16(binary.LittleEndian.Uint16(b))
	case "u16":
		return binary.LittleEndian.Uint16(b)
	case "i32":
		return int32(binary.LittleEndian.Uint32(b))
	case "u32":
		return binary.LittleEndian.Uint32(b)
	case "i64":
		return int64(binary.LittleEndian.Uint64(b))
	case "u64":
		return binary.LittleEndian.Uint64(b)
	case "f32":
		return jsonFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
	case "f64":
		return jsonFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b))
}

// jsonFloat keeps NaN and infinities representable in JSON (as strings).
func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}
