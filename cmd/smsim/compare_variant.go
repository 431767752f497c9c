package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/smsim/smsim/sweep"
	"github.com/spf13/cobra"
)

// buildVariants expands compare's command line into variants, baseline
// first: each FILE is a variant; each --variant 'NAME:FLAGS' applies to
// every FILE (or names its own file among FLAGS); each --vary axis
// multiplies the variants by its values.
func buildVariants(files []string, shared launchFlags, specs []string, vary []sweep.Axis) ([]sweep.Variant, error) {
	var vs []sweep.Variant
	for _, f := range files {
		vs = append(vs, sweep.Variant{Name: stem(f), File: f, Spec: shared.Spec})
	}
	if len(specs) > 0 {
		bases := vs
		if len(bases) == 0 {
			bases = []sweep.Variant{{Spec: shared.Spec}}
		}
		vs = nil
		for _, b := range bases {
			for _, s := range specs {
				v, err := parseVariant(b, s)
				if err != nil {
					return nil, err
				}
				if len(bases) > 1 {
					v.Name = b.Name + "/" + v.Name
				}
				vs = append(vs, v)
			}
		}
	}
	if len(vary) > 0 {
		if len(vs) == 0 {
			return nil, &usageError{Msg: "compare: --vary needs a FILE"}
		}
		bases := vs
		vs = nil
		for _, b := range bases {
			for i := 0; i < sweep.GridSize(vary); i++ {
				v := b
				v.Point = append(append([]sweep.Setting(nil), b.Point...), sweep.GridPoint(vary, i)...)
				v.Name = sweep.Label(sweep.GridPoint(vary, i))
				if len(bases) > 1 {
					v.Name = b.Name + " " + v.Name
				}
				vs = append(vs, v)
			}
		}
	}
	if len(vs) < 2 {
		return nil, &usageError{Msg: "compare needs at least two variants: several FILEs, or one FILE with --variant or --vary (see smsim compare --help)"}
	}
	seen := map[string]bool{}
	for _, v := range vs {
		if v.File == "" {
			return nil, &usageError{Msg: fmt.Sprintf("compare: variant %q has no FILE: give one before the variants or inside --variant", v.Name)}
		}
		if seen[v.Name] {
			return nil, &usageError{Msg: fmt.Sprintf("compare: two variants are named %q", v.Name)}
		}
		seen[v.Name] = true
	}
	return vs, nil
}

// parseVariant reads NAME:FLAGS, FLAGS being run's launch flags and at most
// one FILE, applied on top of base.
func parseVariant(base sweep.Variant, spec string) (sweep.Variant, error) {
	name, rest, ok := strings.Cut(spec, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t") {
		return base, &usageError{Msg: fmt.Sprintf("--variant %q: want NAME:FLAGS, e.g. 'fast:--set syncs.interval=1 --arg ITERS=8'", spec)}
	}
	words, err := splitWords(rest)
	if err != nil {
		return base, &usageError{Msg: fmt.Sprintf("--variant %q: %v", spec, err)}
	}
	var own launchFlags
	c := &cobra.Command{}
	own.bind(c)
	fs := c.Flags()
	if err := fs.Parse(words); err != nil {
		return base, &usageError{Msg: fmt.Sprintf("--variant %q: %v", spec, err)}
	}
	v := base
	v.Name = name
	switch fs.NArg() {
	case 0:
	case 1:
		v.File = fs.Arg(0)
	default:
		return base, &usageError{Msg: fmt.Sprintf("--variant %q: more than one FILE (%s)", spec, strings.Join(fs.Args(), " "))}
	}
	f := base.Spec
	f.Sets = append(append([]string(nil), f.Sets...), own.Sets...)
	f.Args = append(append([]string(nil), f.Args...), own.Args...)
	for flag, apply := range map[string]func(){
		"kernel": func() { f.Kernel = own.Kernel }, "block": func() { f.Block = own.Block },
		"grid": func() { f.Grid = own.Grid }, "smem": func() { f.Smem = own.Smem },
		"launches": func() { f.Launches = own.Launches }, "config": func() { f.Config = own.Config },
		"max-cycles": func() { f.MaxCycles = own.MaxCycles }, "lenient": func() { f.Lenient = own.Lenient },
		"sms": func() { f.SMs = own.SMs }, "cluster": func() { f.Cluster = own.Cluster },
		"threads": func() { f.Threads = own.Threads }, "sm-threads": func() { f.SMThreads = own.SMThreads },
	} {
		if fs.Changed(flag) {
			apply()
		}
	}
	v.Spec = f
	return v, nil
}

// splitWords splits s at blanks as a shell would, honouring single and
// double quotes and backslash escapes (no expansions).
func splitWords(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	esc := false
	for _, r := range s {
		switch {
		case esc:
			cur.WriteRune(r)
			esc = false
		case r == '\\' && quote != '\'':
			esc, inWord = true, true
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || esc {
		return nil, fmt.Errorf("unterminated quote or escape")
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// stem is a file's name without its directory and extension.
func stem(file string) string {
	b := filepath.Base(file)
	return strings.TrimSuffix(b, filepath.Ext(b))
}
