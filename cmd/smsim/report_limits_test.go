package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/sm"
)

// A barrier of many phases lists its first sm.ReportPhases in the JSON
// report and counts the rest: phase_count and the stall cycles cover all.
func TestJSONReportListsTheFirstPhasesAndCountsTheRest(t *testing.T) {
	const extra = 300
	src := fmt.Sprintf(`kernel k
block 32
barrier bar
if tid == 0 {
    init bar, 1
}
syncthreads
for i in 0..%d {
    if lane == 0 {
        arrive bar
    }
    wait bar parity i & 1
}
`, sm.ReportPhases+extra)
	r := runReport(t, "run", writeFile(t, "k.sms", src), "-o", "json")
	b := barrierNamed(t, &r, "bar")
	if len(b.Phases) != sm.ReportPhases {
		t.Errorf("%d phases listed, want %d", len(b.Phases), sm.ReportPhases)
	}
	if b.Unlisted == nil || b.Unlisted.Completed != extra || b.Unlisted.Arrivals != extra {
		t.Fatalf("unlisted %+v, want %d completed phases of one arrival", b.Unlisted, extra)
	}
	if b.PhaseCount != sm.ReportPhases+extra {
		t.Errorf("phase_count %d, want %d", b.PhaseCount, sm.ReportPhases+extra)
	}
	var listed uint64
	for _, p := range b.Phases {
		listed += p.StallCycles
	}
	if b.StallCycles != listed+b.Unlisted.StallCycles {
		t.Errorf("stall_cycles %d, want the listed %d plus the unlisted %d", b.StallCycles, listed, b.Unlisted.StallCycles)
	}
}

// A grid past sm.ReportCTAs lists the first CTAs' barriers and warps and
// folds the others into one record per barrier and per warp of the block,
// in JSON and in the table.
func TestGridPastReportCTAsIsFolded(t *testing.T) {
	const more = 6
	ex := filepath.Join("..", "..", "examples", "arrive_wait.sms")
	grid := fmt.Sprint(sm.ReportCTAs + more)
	code, out, errs := cli(t, "run", ex, "--grid", grid, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Barriers) != sm.ReportCTAs+1 {
		t.Fatalf("%d barrier records, want %d listed and one folded", len(r.Barriers), sm.ReportCTAs)
	}
	f := r.Barriers[len(r.Barriers)-1]
	if f.CTA != -1 || f.CTAs != more || f.Unlisted == nil || f.PhaseCount != 4*more || len(f.Phases) != 0 {
		t.Errorf("folded barrier %+v, want cta -1 standing for %d CTAs of 4 phases", f, more)
	}
	folded := 0
	for _, w := range r.Warps {
		if w.CTA < 0 {
			folded++
			if w.Warps != more || w.Warp != -1 {
				t.Errorf("folded warp %+v, want warp -1 standing for %d warps", w, more)
			}
		}
	}
	if folded != 4 || len(r.Warps) != 4*sm.ReportCTAs+4 {
		t.Errorf("%d warp records, %d folded; want %d listed and 4 folded", len(r.Warps), folded, 4*sm.ReportCTAs)
	}
	code, out, errs = cli(t, "run", ex, "--grid", grid, "--report", "barriers")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if want := fmt.Sprintf("%d more", more); !containsLine(out, "bar", want) {
		t.Errorf("barrier table has no row for bar over %q:\n%s", want, out[len(out)-400:])
	}
}

// containsLine reports whether some line of s contains every fragment.
func containsLine(s string, frags ...string) bool {
	for _, line := range strings.Split(s, "\n") {
		ok := true
		for _, f := range frags {
			if !strings.Contains(line, f) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
