package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/sweep"
)

// sweepCLI runs smsim sweep with the Slurm environment ignored.
func sweepCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	return cli(t, append([]string{"sweep"}, args...)...)
}

// readJSONLines decodes every line of path as a record.
func readJSONLines(t *testing.T, path string) []sweep.Record {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []sweep.Record
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r sweep.Record
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d is not JSON: %v", path, i+1, err)
		}
		out = append(out, r)
	}
	return out
}

func indices(rs []sweep.Record) map[int]int {
	m := map[int]int{}
	for _, r := range rs {
		m[r.Index]++
	}
	return m
}

var halfGrid = []string{exHalf, "--vary", "set:syncs.interval=1,2,4", "--vary", "arg:ITERS=2,4", "-j", "2"}

func TestSweepWritesOneParseableJSONRecordPerPoint(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	code, _, errs := sweepCLI(t, append(halfGrid, "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rs := readJSONLines(t, out)
	if len(rs) != 6 || len(indices(rs)) != 6 {
		t.Fatalf("%d records (%d distinct points), want 6", len(rs), len(indices(rs)))
	}
	for _, r := range rs {
		want := sweep.GridPoint([]sweep.Axis{{Kind: "set", Key: "syncs.interval", Values: []string{"1", "2", "4"}}, {Kind: "arg", Key: "ITERS", Values: []string{"2", "4"}}}, r.Index)
		if r.Params["set:syncs.interval"] != want[0].Value || r.Params["arg:ITERS"] != want[1].Value {
			t.Errorf("record %d has params %v, want %s", r.Index, r.Params, sweep.Label(want))
		}
		if r.Exit != 0 || r.Cycles == 0 || r.Points != 6 || len(r.Barriers) != 1 || r.Kernel != "entangle_half" {
			t.Errorf("record %+v", r)
		}
		if iters := r.Params["arg:ITERS"]; (iters == "2") != (r.Phases == 2) {
			t.Errorf("record %d: ITERS=%s but %d phases", r.Index, iters, r.Phases)
		}
	}
}

func TestSweepCSVParsesWithParameterColumns(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.csv")
	if code, _, errs := sweepCLI(t, append(halfGrid, "--out", out)...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, _ := os.ReadFile(out)
	rows, err := csv.NewReader(bytes.NewReader(f)).ReadAll()
	if err != nil {
		t.Fatalf("not CSV: %v", err)
	}
	if len(rows) != 7 || rows[0][3] != "set:syncs.interval" || rows[0][4] != "arg:ITERS" || rows[0][len(rows[0])-1] != "barriers" {
		t.Fatalf("header %v and %d rows", rows[0], len(rows))
	}
	var bars []report.BarrierSummary
	if err := json.Unmarshal([]byte(rows[1][len(rows[1])-1]), &bars); err != nil || len(bars) != 1 {
		t.Errorf("barriers column %q: %v", rows[1][len(rows[1])-1], err)
	}
	rf, err := sweep.ReadResults(out, "csv")
	if err != nil || len(rf.Records) != 6 {
		t.Fatalf("read back: %v, %d records", err, len(rf.Records))
	}
}

func TestSweepToStdoutStreamsJSONLines(t *testing.T) {
	code, out, errs := sweepCLI(t, exConverged, "--vary", "arg:ITERS=1,2,3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if n := strings.Count(out, "\n"); n != 3 {
		t.Fatalf("%d lines on stdout, want 3:\n%s", n, out)
	}
}

func TestSweepResumeRunsOnlyTheMissingPoints(t *testing.T) {
	for _, k := range []int{1, 4} {
		out := filepath.Join(t.TempDir(), "s.jsonl")
		// An interruption after k points: --max-points stops there.
		if code, _, errs := sweepCLI(t, append(halfGrid, "--out", out, "--max-points", itoa(k))...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if n := len(readJSONLines(t, out)); n != k {
			t.Fatalf("after the first run: %d records, want %d", n, k)
		}
		code, _, errs := sweepCLI(t, append(halfGrid, "--out", out)...)
		if code != 0 || !strings.Contains(errs, itoa(6-k)+" run (0 failed), "+itoa(k)+" already in") {
			t.Fatalf("rerun: exit %d, stderr %q; want %d run and %d already there", code, errs, 6-k, k)
		}
		idx := indices(readJSONLines(t, out))
		if len(idx) != 6 {
			t.Fatalf("after resuming: points %v, want 0..5", idx)
		}
		for i, n := range idx {
			if n != 1 {
				t.Errorf("point %d written %d times", i, n)
			}
		}
	}
}

func TestSweepResumeDropsARecordCutShort(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	if code, _, errs := sweepCLI(t, append(halfGrid, "--out", out, "--max-points", "2")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"sweep":"abc","index":5,"poi`)
	f.Close()
	code, _, errs := sweepCLI(t, append(halfGrid, "--out", out)...)
	if code != 0 || !strings.Contains(errs, "dropping an incomplete last record") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if idx := indices(readJSONLines(t, out)); len(idx) != 6 {
		t.Fatalf("points %v, want 0..5", idx)
	}
}

func TestSweepRefusesAResultsFileOfAnotherSweep(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	if code, _, errs := sweepCLI(t, append(halfGrid, "--out", out, "--max-points", "1")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs := sweepCLI(t, exHalf, "--vary", "set:syncs.interval=1,8", "--out", out)
	if code != exitUsage || !strings.Contains(errs, "another sweep") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestSweepShardsTogetherMakeTheWholeGrid(t *testing.T) {
	dir := t.TempDir()
	var all []sweep.Record
	for s := 0; s < 4; s++ {
		out := filepath.Join(dir, "part"+itoa(s)+".jsonl")
		t.Setenv("SLURM_ARRAY_TASK_ID", itoa(s))
		t.Setenv("SLURM_ARRAY_TASK_COUNT", "4")
		code, _, errs := cli(t, append([]string{"sweep", "--out", out}, halfGrid...)...)
		if code != 0 || !strings.Contains(errs, "shard "+itoa(s)+"/4 from the Slurm job array") {
			t.Fatalf("shard %d: exit %d: %s", s, code, errs)
		}
		rs := readJSONLines(t, out)
		for _, r := range rs {
			if r.Index%4 != s {
				t.Errorf("shard %d ran point %d", s, r.Index)
			}
		}
		all = append(all, rs...)
	}
	if idx := indices(all); len(idx) != 6 || len(all) != 6 {
		t.Fatalf("shards hold %d records, points %v; want each of 0..5 once", len(all), idx)
	}
}

func TestSweepFailedPointIsARecordWithItsExitStatus(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	code, _, errs := sweepCLI(t, exConverged, "--vary", "arg:ITERS=1,500", "--max-cycles", "3000", "--out", out)
	if code != 0 || !strings.Contains(errs, "(1 failed)") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, r := range readJSONLines(t, out) {
		failed := r.Params["arg:ITERS"] == "500"
		if failed != (r.Exit == exitLimit) || failed != (r.Error != "") {
			t.Errorf("ITERS=%s: exit %d error %q", r.Params["arg:ITERS"], r.Exit, r.Error)
		}
	}
}

func TestSweepUsageErrorsStopBeforeRunning(t *testing.T) {
	tests := []struct {
		args []string
		frag string
	}{
		{[]string{exHalf, "--vary", "set:no.such.key=1,2"}, "no.such.key"},
		{[]string{exHalf, "--vary", "set:syncs.interval=1,x"}, "syncs.interval"},
		{[]string{exHalf, "--vary", "arg:ITERS=1", "--vary", "arg:ITERS=2"}, "appears twice"},
		{[]string{exHalf, "--shard", "3/3"}, "--shard"},
		{[]string{exHalf, "--format", "xml"}, "--format"},
	}
	for _, tc := range tests {
		code, out, errs := sweepCLI(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.frag) {
			t.Errorf("sweep %v: exit %d, stdout %q, stderr %q; want usage error with %q", tc.args, code, out, errs, tc.frag)
		}
	}
}
