package main

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/frontend/sms"
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/run"
)

// setting is one parameter of a grid point or variant: a configuration key
// (set:KEY, as --set), a kernel parameter (arg:NAME, as --arg) or a .sms
// constant (const:NAME, which rewrites the file's `const NAME = ...`).
type setting struct {
	kind  string // "set", "arg" or "const"
	key   string
	value string
}

// axis is one dimension of a grid: a setting's kind and key and its values.
type axis struct {
	kind   string
	key    string
	values []string
}

// name is the axis's column name in results: "set:syncs.interval".
func (a axis) name() string { return a.kind + ":" + a.key }

var settingKinds = map[string]bool{"set": true, "arg": true, "const": true}

// parseAxis reads KIND:KEY=V1,V2,... (KIND set, arg or const). flag names
// the flag in error messages.
func parseAxis(flag, s string) (axis, error) {
	bad := func(why string) (axis, error) {
		return axis{}, &usageError{Msg: fmt.Sprintf("%s %q: %s (want set:KEY=V1,V2,..., arg:NAME=V1,... or const:NAME=V1,...)", flag, s, why)}
	}
	kind, rest, ok := strings.Cut(s, ":")
	if !ok || !settingKinds[kind] {
		return bad("the key needs a set:, arg: or const: prefix")
	}
	key, vals, ok := strings.Cut(rest, "=")
	key = strings.TrimSpace(key)
	if !ok || key == "" {
		return bad("no KEY=VALUES")
	}
	a := axis{kind: kind, key: key}
	seen := map[string]bool{}
	for _, v := range strings.Split(vals, ",") {
		v = strings.TrimSpace(v)
		if v == "" {
			return bad("an empty value")
		}
		if seen[v] {
			return bad("value " + v + " appears twice")
		}
		seen[v] = true
		a.values = append(a.values, v)
	}
	return a, nil
}

// parseAxes parses every --grid or --vary flag and refuses repeated keys.
func parseAxes(flag string, specs []string) ([]axis, error) {
	var out []axis
	seen := map[string]bool{}
	for _, s := range specs {
		a, err := parseAxis(flag, s)
		if err != nil {
			return nil, err
		}
		if seen[a.name()] {
			return nil, &usageError{Msg: fmt.Sprintf("%s: %s appears twice", flag, a.name())}
		}
		seen[a.name()] = true
		out = append(out, a)
	}
	return out, nil
}

// axisList collects --vary values (and axes given to --grid) in command-
// line order, which decides the grid's point order.
type axisList struct{ specs *[]string }

func (a axisList) Set(s string) error { *a.specs = append(*a.specs, s); return nil }
func (a axisList) String() string     { return strings.Join(*a.specs, " ") }
func (a axisList) Type() string       { return "KIND:KEY=V1,V2" }

// gridOrAxis is --grid in sweep and compare: an axis KIND:KEY=V1,V2,...
// (as --vary), or else the launch grid X[,Y[,Z]] as in run.
type gridOrAxis struct {
	dims *string
	axes axisList
}

func (g gridOrAxis) Set(s string) error {
	if kind, _, ok := strings.Cut(s, ":"); ok && settingKinds[kind] {
		return g.axes.Set(s)
	}
	*g.dims = s
	return nil
}
func (g gridOrAxis) String() string { return *g.dims }
func (g gridOrAxis) Type() string   { return "string" }

// bindAxes adds --vary to c and lets its --grid (bound to dims by
// launchFlags.bind) take axes too.
func bindAxes(c *cobra.Command, dims *string, specs *[]string) {
	fs := c.Flags()
	fs.Var(axisList{specs}, "vary", "an axis: set:KEY=V1,V2 (a --set key), arg:NAME=V1,V2 (an --arg) or const:NAME=V1,V2 (a .sms const); repeatable: cross product, first slowest")
	if fl := fs.Lookup("grid"); fl != nil {
		fl.Value = gridOrAxis{dims: dims, axes: axisList{specs}}
		fl.Usage = "blocks X[,Y[,Z]] as in run; or an axis KIND:KEY=V1,V2,... as --vary"
	}
}

// gridSize is the number of points of the axes' cross product (1 for none).
func gridSize(axes []axis) int {
	n := 1
	for _, a := range axes {
		n *= len(a.values)
	}
	return n
}

// maxGridPoints bounds a grid, so that a typo cannot ask for billions of runs.
const maxGridPoints = 10_000_000

// gridPoint returns point i of the cross product in row-major order: the
// first axis varies slowest, as nested loops written in flag order.
func gridPoint(axes []axis, i int) []setting {
	out := make([]setting, len(axes))
	for k := len(axes) - 1; k >= 0; k-- {
		a := axes[k]
		out[k] = setting{kind: a.kind, key: a.key, value: a.values[i%len(a.values)]}
		i /= len(a.values)
	}
	return out
}

// label names a point for people: "syncs.interval=2 ITERS=8".
func label(pt []setting) string {
	var parts []string
	for _, s := range pt {
		parts = append(parts, s.key+"="+s.value)
	}
	return strings.Join(parts, " ")
}

// shard is a deterministic share of a grid: point i belongs to shard
// i mod count. Shards are disjoint and together cover the grid.
type shard struct{ index, count int }

func (s shard) has(i int) bool { return i%s.count == s.index }

// parseShard reads I/N with 0 <= I < N.
func parseShard(s string) (shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(strings.TrimSpace(a))
	n, err2 := strconv.Atoi(strings.TrimSpace(b))
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shard{}, &usageError{Msg: fmt.Sprintf("--shard %q: want I/N with 0 <= I < N, e.g. 0/4", s)}
	}
	return shard{index: i, count: n}, nil
}

// slurmShard derives the shard from a Slurm job array's environment:
// SLURM_ARRAY_TASK_ID minus SLURM_ARRAY_TASK_MIN (when set) of
// SLURM_ARRAY_TASK_COUNT. ok is false outside a job array.
func slurmShard(getenv func(string) string) (shard, bool, error) {
	id, count := getenv("SLURM_ARRAY_TASK_ID"), getenv("SLURM_ARRAY_TASK_COUNT")
	if id == "" || count == "" {
		return shard{}, false, nil
	}
	i, err1 := strconv.Atoi(id)
	n, err2 := strconv.Atoi(count)
	lo := 0
	if m := getenv("SLURM_ARRAY_TASK_MIN"); m != "" {
		var err error
		if lo, err = strconv.Atoi(m); err != nil {
			err1 = err
		}
	}
	i -= lo
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return shard{}, false, &usageError{Msg: fmt.Sprintf("SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_COUNT=%s: want consecutive task ids (--array=0-%d); or give --shard I/N", id, count, max(n, 1)-1)}
	}
	return shard{index: i, count: n}, true, nil
}

// withSettings returns a copy of f with the point's set: and arg: settings
// appended after its own --set and --arg values (later ones win).
func withSettings(f launchFlags, pt []setting) launchFlags {
	f.Sets = append([]string(nil), f.Sets...)
	f.Args = append([]string(nil), f.Args...)
	for _, s := range pt {
		switch s.kind {
		case "set":
			f.Sets = append(f.Sets, s.key+"="+s.value)
		case "arg":
			f.Args = append(f.Args, s.key+"="+s.value)
		}
	}
	return f
}

// pointJob builds the job of file under flags f and the point's settings.
func pointJob(f launchFlags, file string, pt []setting) (*run.Job, error) {
	f = withSettings(f, pt)
	j, err := f.Job(file)
	if err != nil {
		return nil, err
	}
	var consts []setting
	for _, s := range pt {
		if s.kind == "const" {
			consts = append(consts, s)
		}
	}
	if len(consts) == 0 {
		return j, nil
	}
	p, err := compileWithConsts(file, consts)
	if err != nil {
		return nil, err
	}
	j.Source = run.ProgramSource(file, p)
	j.Prog = p
	// The block, grid and shared memory may be computed from the constants.
	if f.Block == "" {
		j.Block, _ = run.Dims("--block", "", p.Block, 32)
	}
	if f.Grid == "" {
		j.Grid, _ = run.Dims("--grid", "", p.Grid, 1)
	}
	if f.Smem == "" {
		j.Smem = p.DynSmem
	}
	return j, nil
}

// compileWithConsts compiles a .sms file with the given constants' defining
// expressions replaced; error positions still name the file's lines.
func compileWithConsts(file string, consts []setting) (*isa.Program, error) {
	if strings.ToLower(filepath.Ext(file)) != ".sms" {
		return nil, &usageError{Msg: fmt.Sprintf("const:%s: %s is not a .sms file (only the kernel language has constants)", consts[0].key, file)}
	}
	src, err := run.ReadInput(file, "kernel file", run.MaxSourceBytes)
	if err != nil {
		return nil, &inputError{Err: err}
	}
	for _, c := range consts {
		if src, err = replaceConst(file, src, c.key, c.value); err != nil {
			return nil, err
		}
	}
	p, err := sms.Compile(file, src)
	if err != nil {
		return nil, &inputError{Err: err}
	}
	return p, nil
}

// replaceConst rewrites the line `const NAME = EXPR  # comment` with value
// in place of EXPR.
func replaceConst(file string, src []byte, name, value string) ([]byte, error) {
	if strings.ContainsAny(value, "#\n\r") {
		return nil, &usageError{Msg: fmt.Sprintf("const:%s=%q: a value is one expression on one line", name, value)}
	}
	re := regexp.MustCompile(`(?m)^([ \t]*const[ \t]+` + regexp.QuoteMeta(name) + `[ \t]*=[ \t]*)([^#\n\r]*?)([ \t]*(#[^\n\r]*)?)\r?$`)
	loc := re.FindSubmatchIndex(src)
	if loc == nil {
		return nil, &usageError{Msg: fmt.Sprintf("const:%s: %s has no line `const %s = ...`", name, file, name)}
	}
	out := append([]byte(nil), src[:loc[4]]...)
	out = append(out, value...)
	return append(out, src[loc[5]:]...), nil
}
