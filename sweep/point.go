package sweep

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/smsim/smsim/run"
)

// WithSettings returns a copy of f with the point's set: and arg: settings
// appended after its own --set and --arg values (later ones win).
func WithSettings(f run.Spec, pt []Setting) run.Spec {
	f.Sets = append([]string(nil), f.Sets...)
	f.Args = append([]string(nil), f.Args...)
	for _, s := range pt {
		switch s.Kind {
		case "set":
			f.Sets = append(f.Sets, s.Key+"="+s.Value)
		case "arg":
			f.Args = append(f.Args, s.Key+"="+s.Value)
		}
	}
	return f
}

// PointJob builds the job of file under flags f and the point's settings.
func PointJob(f run.Spec, file string, pt []Setting) (*run.Job, error) {
	f = WithSettings(f, pt)
	j, err := f.Job(file)
	if err != nil {
		return nil, err
	}
	var consts []Setting
	for _, s := range pt {
		if s.Kind == "const" {
			consts = append(consts, s)
		}
	}
	if len(consts) == 0 {
		return j, nil
	}
	src, err := loadWithConsts(file, consts)
	if err != nil {
		return nil, err
	}
	p, err := src.Kernel("")
	if err != nil {
		return nil, err
	}
	j.Source, j.Prog = src, p
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

// loadWithConsts loads a .sms file with the given constants' defining
// expressions replaced; error positions still name the file's lines.
func loadWithConsts(file string, consts []Setting) (*run.Source, error) {
	if strings.ToLower(filepath.Ext(file)) != ".sms" {
		return nil, &run.UsageError{Msg: fmt.Sprintf("const:%s: %s is not a .sms file (only the kernel language has constants)", consts[0].Key, file)}
	}
	src, err := run.ReadInput(file, "kernel file", run.MaxSourceBytes)
	if err != nil {
		return nil, &run.InputError{Err: err}
	}
	for _, c := range consts {
		if src, err = ReplaceConst(file, src, c.Key, c.Value); err != nil {
			return nil, err
		}
	}
	return run.LoadBytes(file, src)
}

// ReplaceConst rewrites the line `const NAME = EXPR  # comment` with value
// in place of EXPR.
func ReplaceConst(file string, src []byte, name, value string) ([]byte, error) {
	if strings.ContainsAny(value, "#\n\r") {
		return nil, &run.UsageError{Msg: fmt.Sprintf("const:%s=%q: a value is one expression on one line", name, value)}
	}
	re := regexp.MustCompile(`(?m)^([ \t]*const[ \t]+` + regexp.QuoteMeta(name) + `[ \t]*=[ \t]*)([^#\n\r]*?)([ \t]*(#[^\n\r]*)?)\r?$`)
	loc := re.FindSubmatchIndex(src)
	if loc == nil {
		return nil, &run.UsageError{Msg: fmt.Sprintf("const:%s: %s has no line `const %s = ...`", name, file, name)}
	}
	out := append([]byte(nil), src[:loc[4]]...)
	out = append(out, value...)
	return append(out, src[loc[5]:]...), nil
}
