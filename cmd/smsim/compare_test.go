package main

import (
	"encoding/csv"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/smsim/smsim/sweep"
)

const (
	exConverged = "../../examples/entangle_converged.sms"
	exHalf      = "../../examples/entangle_half.sms"
	exLanes     = "../../examples/entangle_lanes.sms"
	exPipeline  = "../../examples/tma_pipeline.sms"
)

// compareJSON runs smsim compare -o json and decodes its document.
func compareJSON(t *testing.T, args ...string) sweep.Comparison {
	t.Helper()
	code, out, errs := cli(t, append([]string{"compare", "-o", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("compare %v: exit %d: %s", args, code, errs)
	}
	var c sweep.Comparison
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("compare -o json is not JSON: %v", err)
	}
	return c
}

func TestCompareEntanglementExamplesShowUpdatesPerWarpAndDivergentSlower(t *testing.T) {
	c := compareJSON(t, exConverged, exHalf, exLanes)
	want := []struct {
		name           string
		updatesPerWarp float64
	}{{"entangle_converged", 1}, {"entangle_half", 2}, {"entangle_lanes", 32}}
	if c.Baseline != "entangle_converged" || len(c.Variants) != len(want) {
		t.Fatalf("baseline %q, %d variants; want entangle_converged and 3", c.Baseline, len(c.Variants))
	}
	for i, w := range want {
		v := c.Variants[i]
		if v.Name != w.name || len(v.Barriers) != 1 {
			t.Fatalf("variant %d: %s with %d barriers, want %s with 1", i, v.Name, len(v.Barriers), w.name)
		}
		if got := v.Barriers[0].UpdatesPerWarp; got != w.updatesPerWarp {
			t.Errorf("%s: updates per warp per phase %v, want %v", w.name, got, w.updatesPerWarp)
		}
		if got := v.Barriers[0].UpdatesPerPhase; got != 4*w.updatesPerWarp {
			t.Errorf("%s: updates per phase %v, want %v (4 warps)", w.name, got, 4*w.updatesPerWarp)
		}
		if n := len(v.Barriers[0].PhaseDurations); n != 16 {
			t.Errorf("%s: %d phase durations, want 16", w.name, n)
		}
		if i > 0 {
			prev := c.Variants[i-1]
			if v.Cycles <= prev.Cycles || v.Speedup >= prev.Speedup {
				t.Errorf("%s (%d cycles, speed-up %v) is not slower than %s (%d cycles, %v)",
					v.Name, v.Cycles, v.Speedup, prev.Name, prev.Cycles, prev.Speedup)
			}
		}
	}
	if c.Variants[0].Speedup != 1 {
		t.Errorf("baseline speed-up %v, want 1", c.Variants[0].Speedup)
	}
}

func TestCompareTablesFitIn100Columns(t *testing.T) {
	for _, args := range [][]string{
		{exConverged, exHalf, exLanes},
		{exPipeline, "--vary", "const:S=1,2,4", "--arrays"},
	} {
		code, out, errs := cli(t, append([]string{"compare"}, args...)...)
		if code != 0 {
			t.Fatalf("compare %v: exit %d: %s", args, code, errs)
		}
		for _, frag := range []string{"baseline:", "speed-up", "upd/warp", "cycles of each completed phase, by opening"} {
			if !strings.Contains(out, frag) {
				t.Errorf("compare %v: output lacks %q", args, frag)
			}
		}
		for _, line := range strings.Split(out, "\n") {
			if len(line) > 100 {
				t.Errorf("compare %v: line of %d columns: %s", args, len(line), line)
			}
		}
	}
}

func TestCompareCSVHasOneParseableRowPerVariantAndBarrier(t *testing.T) {
	code, out, errs := cli(t, "compare", "-o", "csv", exConverged, exHalf)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rows, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatalf("compare -o csv: %v", err)
	}
	if len(rows) != 3 || rows[0][0] != "variant" || rows[1][6] != "bar" || rows[2][0] != "entangle_half" {
		t.Fatalf("rows %v", rows)
	}
}

func TestCompareVariantsAndVary(t *testing.T) {
	tests := []struct {
		name  string
		args  []string
		names []string
	}{
		{"variants with set and arg", []string{exHalf, "--variant", "base:", "--variant", "fast:--set syncs.interval=1 --arg ITERS=8"},
			[]string{"base", "fast"}},
		{"variant naming its own file", []string{"--variant", "conv:" + exConverged, "--variant", "half:" + exHalf + " -b 64"},
			[]string{"conv", "half"}},
		{"vary arg", []string{exConverged, "--vary", "arg:ITERS=2,4,8"}, []string{"ITERS=2", "ITERS=4", "ITERS=8"}},
		{"grid takes an axis too", []string{exConverged, "--grid", "set:syncs.interval=1,2"}, []string{"syncs.interval=1", "syncs.interval=2"}},
		{"vary const", []string{exPipeline, "--vary", "const:S=1,2"}, []string{"S=1", "S=2"}},
		{"files times vary", []string{exConverged, exHalf, "--vary", "arg:ITERS=2,4"},
			[]string{"entangle_converged ITERS=2", "entangle_converged ITERS=4", "entangle_half ITERS=2", "entangle_half ITERS=4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := compareJSON(t, tc.args...)
			var names []string
			for _, v := range c.Variants {
				names = append(names, v.Name)
			}
			if !reflect.DeepEqual(names, tc.names) {
				t.Fatalf("variants %v, want %v", names, tc.names)
			}
		})
	}
}

func TestCompareVaryChangesWhatRuns(t *testing.T) {
	c := compareJSON(t, exConverged, "--vary", "arg:ITERS=2,8")
	if p := c.Variants[0].Barriers[0].Phases; p != 2 {
		t.Errorf("ITERS=2: %d phases, want 2", p)
	}
	if p := c.Variants[1].Barriers[0].Phases; p != 8 {
		t.Errorf("ITERS=8: %d phases, want 8", p)
	}
	c = compareJSON(t, exPipeline, "--vary", "const:S=1,3")
	if n := len(c.Variants[0].Barriers); n != 2 {
		t.Errorf("S=1: %d barriers, want 2 (full[0], empty[0])", n)
	}
	if n := len(c.Variants[1].Barriers); n != 6 {
		t.Errorf("S=3: %d barriers, want 6", n)
	}
	if c.Variants[1].Cycles >= c.Variants[0].Cycles {
		t.Errorf("3 stages (%d cycles) are not faster than 1 (%d)", c.Variants[1].Cycles, c.Variants[0].Cycles)
	}
}

func TestCompareUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		frag string
	}{
		{"one variant", []string{exHalf}, "at least two variants"},
		{"variant without name", []string{exHalf, "--variant", "--set x=1", "--variant", "b:"}, "want NAME:FLAGS"},
		{"unknown flag in variant", []string{exHalf, "--variant", "a:--bogus", "--variant", "b:"}, "unknown flag"},
		{"unterminated quote", []string{exHalf, "--variant", "a:--arg 'ITERS=2", "--variant", "b:"}, "unterminated"},
		{"duplicate names", []string{exHalf, "--variant", "a:", "--variant", "a:"}, "two variants are named"},
		{"axis without kind", []string{exHalf, "--vary", "ITERS=1,2"}, "set:, arg: or const:"},
		{"const of a missing name", []string{exHalf, "--vary", "const:NOPE=1,2"}, "has no line `const NOPE"},
		{"bad config key", []string{exHalf, "--vary", "set:no.such=1,2"}, "no.such"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := cli(t, append([]string{"compare"}, tc.args...)...)
			if code != exitUsage || !strings.Contains(errs, tc.frag) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errs, exitUsage, tc.frag)
			}
		})
	}
}

func TestCompareSplitWordsLikeAShell(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"  --set a=1   --arg B=2 ", []string{"--set", "a=1", "--arg", "B=2"}},
		{`--arg 'A=buf:64:byte:0x01' "x y"`, []string{"--arg", "A=buf:64:byte:0x01", "x y"}},
		{`a\ b c`, []string{"a b", "c"}},
		{`''`, []string{""}},
	}
	for _, tc := range tests {
		got, err := splitWords(tc.in)
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
