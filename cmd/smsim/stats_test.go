package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
)

func TestStatsCommandDescribesPhasesAndWaits(t *testing.T) {
	code, out, errs := cli(t, "stats", exPipeline, "--arrays", "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc report.StatsDoc
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
	var doc report.StatsDoc
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
