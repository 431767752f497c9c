package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestStatsDistributionOfAKnownSample(t *testing.T) {
	d := distribution([]float64{5, 1, 4, 2, 3})
	want := dist{N: 5, Mean: 3, Std: math.Sqrt(2.5), Min: 1, P25: 2, P50: 3, P75: 4, P95: 5, P99: 5, Max: 5}
	if d != want {
		t.Fatalf("got %+v, want %+v", d, want)
	}
	if (distribution(nil) != dist{}) {
		t.Error("an empty sample is not the zero dist")
	}
}

func TestStatsHistogramCountsEveryValueOnce(t *testing.T) {
	tests := []struct {
		name  string
		x     []float64
		bins  int
		wantN int
	}{
		{"integers", []float64{49, 60, 64, 66, 66, 69, 72, 72, 72, 74}, 5, 5},
		{"one value", []float64{33, 33, 33}, 10, 1},
		{"narrow integers get unit bins", []float64{1, 2, 3}, 10, 3},
		{"integers at most n bins", []float64{0, 100}, 3, 3},
		{"fractions", []float64{0.1, 0.25, 0.7}, 4, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bs := histogram(tc.x, tc.bins)
			if len(bs) != tc.wantN {
				t.Fatalf("%d bins, want %d: %+v", len(bs), tc.wantN, bs)
			}
			total := 0
			for i, b := range bs {
				total += b.Count
				if i > 0 && b.Lo != bs[i-1].Hi {
					t.Errorf("bins %d and %d do not touch", i-1, i)
				}
			}
			if total != len(tc.x) {
				t.Errorf("bins hold %d values, want %d", total, len(tc.x))
			}
		})
	}
}

func TestStatsCommandDescribesPhasesAndWaits(t *testing.T) {
	code, out, errs := cli(t, "stats", exPipeline, "--arrays", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc statsDoc
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Barriers) != 2 || doc.Barriers[0].Name != "full[*]" || doc.Barriers[0].CTAs != 1 {
		t.Fatalf("barriers %+v", doc.Barriers)
	}
	if d := doc.Barriers[0].PhaseCycles; d.N != 16 || d.P50 > d.P95 || d.Min > d.Mean || d.Mean > d.Max {
		t.Errorf("full[*] phase cycles %+v", d)
	}
	code, out, _ = cli(t, "stats", exHalf, "--bins", "4")
	for _, frag := range []string{"barrier bar (1 CTA)", "| phase ", "| wait ", "phase durations (cycles", "wait times (cycles"} {
		if code != 0 || !strings.Contains(out, frag) {
			t.Errorf("stats table lacks %q:\n%s", frag, out)
		}
	}
	if code, _, errs := cli(t, "stats", exHalf, "--barrier", "nope"); code != exitUsage || !strings.Contains(errs, "no such barrier") {
		t.Errorf("--barrier nope: exit %d, %q", code, errs)
	}
}

// stats -o csv writes the distributions and then, after a blank line, the
// histogram bins, each a tidy table (golden file; -update rewrites it); its
// numbers are the JSON document's.
func TestStatsCSVHasDistributionsThenBins(t *testing.T) {
	code, out, errs := cli(t, "stats", exHalf, "--bins", "4", "-o", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	checkGolden(t, "stats_entangle_half.golden.csv", out)
	dists, bins, ok := strings.Cut(out, "\n\n")
	if !ok {
		t.Fatalf("no blank line between the two tables:\n%s", out)
	}
	_, js, _ := cli(t, "stats", exHalf, "--bins", "4", "-o", "json")
	var doc statsDoc
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	b := doc.Barriers[0]
	for _, want := range []string{
		fmt.Sprintf("entangle_half,bar,1,phase,%d,%s,", b.PhaseCycles.N, g(b.PhaseCycles.Mean)),
		fmt.Sprintf("entangle_half,bar,1,wait,%d,%s,", b.WaitCycles.N, g(b.WaitCycles.Mean)),
	} {
		if !strings.Contains(dists, "\n"+want) {
			t.Errorf("distributions lack a row starting %q:\n%s", want, dists)
		}
	}
	if rows := strings.Count(bins, "\n") - 1; rows != len(b.PhaseHistogram)+len(b.WaitHistogram) {
		t.Errorf("%d bin rows, want %d", rows, len(b.PhaseHistogram)+len(b.WaitHistogram))
	}
}
