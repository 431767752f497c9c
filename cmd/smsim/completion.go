package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// Shell completion (smsim completion SHELL): file arguments by extension,
// kernel names from the FILE argument, configuration keys for --set and the
// fixed values of --report, --format and --config.

// completeFiles completes file arguments with the extensions given (for
// kernel files, run.Extensions: those the frontends read).
func completeFiles(exts ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return exts, cobra.ShellCompDirectiveFilterFileExt
	}
}

// completeLaunchFlags registers completions for the launch flags of c
// (launchFlags.bind): --kernel, --set and --config.
func completeLaunchFlags(c *cobra.Command) {
	_ = c.RegisterFlagCompletionFunc("kernel", completeKernel)
	_ = c.RegisterFlagCompletionFunc("set", completeSet)
	_ = c.RegisterFlagCompletionFunc("config", configCompletion)
}

// completeKernel offers the kernels of the command's FILE arguments whose
// names start with what was typed, each described by its parameters.
func completeKernel(_ *cobra.Command, args []string, typed string) ([]string, cobra.ShellCompDirective) {
	var out []string
	seen := map[string]bool{}
	for _, file := range args {
		src, err := run.Load(file)
		if err != nil {
			continue
		}
		for _, k := range src.Kernels {
			if seen[k.Name] || !strings.HasPrefix(k.Name, typed) {
				continue
			}
			seen[k.Name] = true
			out = append(out, k.Name+"\t"+fmt.Sprintf("%d parameter%s", len(k.Params), plural(len(k.Params))))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeSet offers the configuration's keys as "KEY=" (described by unit
// and meaning); once the key is typed, its current value.
func completeSet(c *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	cfg := sm.DefaultConfig()
	if f := c.Flags().Lookup("config"); f != nil {
		if loaded, err := run.LoadConfig(f.Value.String(), nil); err == nil {
			cfg = loaded
		}
	}
	if key, _, ok := strings.Cut(typed, "="); ok {
		if v, known := cfg.Get(key); known {
			return []string{key + "=" + v}, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var out []string
	for _, p := range cfg.Params() {
		if strings.HasPrefix(p.Key, typed) {
			out = append(out, fmt.Sprintf("%s=\t%s: %s (%s)", p.Key, p.Unit, p.Doc, p.Value()))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}

// completeSuiteFlags registers completions for validate's and calibrate's
// --config, --set, --dir and (calibrate) --params.
func completeSuiteFlags(c *cobra.Command) {
	_ = c.RegisterFlagCompletionFunc("config", configCompletion)
	_ = c.RegisterFlagCompletionFunc("set", completeSet)
	_ = c.RegisterFlagCompletionFunc("dir", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return nil, cobra.ShellCompDirectiveFilterDirs
	})
	if c.Flags().Lookup("params") != nil {
		_ = c.RegisterFlagCompletionFunc("params", completeKeys)
	}
}

// completeKeys offers the configuration keys starting with what was typed
// after the last comma of a comma-separated list.
func completeKeys(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
	done, last := "", typed
	if i := strings.LastIndexByte(typed, ','); i >= 0 {
		done, last = typed[:i+1], typed[i+1:]
	}
	cfg := sm.DefaultConfig()
	var out []string
	for _, p := range cfg.Params() {
		if strings.HasPrefix(p.Key, last) {
			out = append(out, done+p.Key)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeValues completes a flag with a fixed list of values.
func completeValues(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}
