package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
)

// Shell completion (cobra's __complete, what the scripts of smsim completion
// SHELL call) knows kernel names, configuration keys and the fixed values of
// --report, --format and --config.
func TestCompletionOffersKernelsKeysAndValues(t *testing.T) {
	reduce := filepath.Join("..", "..", "testdata", "cuda", "reduce.ptx")
	half := filepath.Join("..", "..", "examples", "entangle_half.sms")
	tests := []struct {
		name string
		args []string
		want []string // every completion offered, in order
		dir  cobra.ShellCompDirective
	}{
		{"run -k: the file's kernels", []string{"run", reduce, "-k", "reduce_sum"},
			[]string{"reduce_sum_i32\t3 parameters", "reduce_sum_f32\t4 parameters", "reduce_sum_f64\t4 parameters"}, cobra.ShellCompDirectiveNoFileComp},
		{"list -k", []string{"list", reduce, "-k", "reduce_r"}, []string{"reduce_redux_u32\t2 parameters"}, cobra.ShellCompDirectiveNoFileComp},
		{"sweep -k of an .sms file", []string{"sweep", half, "-k", ""}, []string{"entangle_half\t1 parameter"}, cobra.ShellCompDirectiveNoFileComp},
		{"compare -k over both files", []string{"compare", half, reduce, "-k", "e"}, []string{"entangle_half\t1 parameter"}, cobra.ShellCompDirectiveNoFileComp},
		{"-k before a file", []string{"run", "-k", ""}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"--set: keys", []string{"run", half, "--set", "syncs.interval"},
			[]string{"syncs.interval=\t" + keyHelp(t, "syncs.interval")}, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"--set KEY=: its value", []string{"stats", half, "--set", "syncs.interval="}, []string{"syncs.interval=" + keyValue(t, "syncs.interval")}, cobra.ShellCompDirectiveNoFileComp},
		{"--set unknown key", []string{"run", half, "--set", "nosuch="}, nil, cobra.ShellCompDirectiveNoFileComp},
		{"validate --set", []string{"validate", "--set", "syncs.interval"}, []string{"syncs.interval=\t" + keyHelp(t, "syncs.interval")}, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace},
		{"calibrate --params after a comma", []string{"calibrate", "--params", "syncs.latency,syncs.interv"}, []string{"syncs.latency,syncs.interval"}, cobra.ShellCompDirectiveNoFileComp},
		{"--report", []string{"run", half, "--report", ""}, []string{"summary", "sms", "clusters", "barriers", "phases", "warps", "instructions", "dumps"}, cobra.ShellCompDirectiveNoFileComp},
		{"compare --report", []string{"compare", half, "--report", ""}, []string{"summary", "barriers", "phases"}, cobra.ShellCompDirectiveNoFileComp},
		{"run -o", []string{"run", half, "-o", ""}, []string{"table", "json", "csv"}, cobra.ShellCompDirectiveNoFileComp},
		{"stats -o", []string{"stats", half, "-o", ""}, []string{"table", "json", "csv"}, cobra.ShellCompDirectiveNoFileComp},
		{"validate -o", []string{"validate", "-o", ""}, []string{"table", "json"}, cobra.ShellCompDirectiveNoFileComp},
		{"sweep --format", []string{"sweep", half, "--format", ""}, []string{"jsonl", "csv"}, cobra.ShellCompDirectiveNoFileComp},
		{"--config", []string{"stats", half, "--config", ""}, []string{"h200"}, cobra.ShellCompDirectiveDefault},
		{"calibrate --config", []string{"calibrate", "--config", ""}, []string{"h200"}, cobra.ShellCompDirectiveDefault},
		{"run FILE", []string{"run", ""}, []string{"cubin", "ptx", "sass", "sms"}, cobra.ShellCompDirectiveFilterFileExt},
		{"merge FILE", []string{"merge", ""}, []string{"jsonl", "csv"}, cobra.ShellCompDirectiveFilterFileExt},
		{"validate --dir", []string{"validate", "--dir", ""}, nil, cobra.ShellCompDirectiveFilterDirs},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := cli(t, append([]string{cobra.ShellCompRequestCmd}, tc.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
			got, dir := lines[:len(lines)-1], lines[len(lines)-1]
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("completions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if want := ":" + itoa(int(tc.dir)); dir != want {
				t.Errorf("directive %s, want %s", dir, want)
			}
		})
	}
}

// keyHelp is how --set completion describes a key of the h200 configuration.
func keyHelp(t *testing.T, key string) string {
	t.Helper()
	cfg, err := run.LoadConfig("h200", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range cfg.Params() {
		if p.Key == key {
			return p.Unit + ": " + p.Doc + " (" + p.Value() + ")"
		}
	}
	t.Fatalf("no key %s", key)
	return ""
}

func keyValue(t *testing.T, key string) string {
	t.Helper()
	cfg, err := run.LoadConfig("h200", nil)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := cfg.Get(key)
	return v
}
