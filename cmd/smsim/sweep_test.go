package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
)

func TestSweepGridExpandsRowMajorFirstAxisSlowest(t *testing.T) {
	axes, err := parseAxes("--vary", []string{"set:syncs.interval=1,2,4", "arg:ITERS=8,16"})
	if err != nil {
		t.Fatal(err)
	}
	if n := gridSize(axes); n != 6 {
		t.Fatalf("grid size %d, want 6", n)
	}
	want := []string{"syncs.interval=1 ITERS=8", "syncs.interval=1 ITERS=16", "syncs.interval=2 ITERS=8",
		"syncs.interval=2 ITERS=16", "syncs.interval=4 ITERS=8", "syncs.interval=4 ITERS=16"}
	for i, w := range want {
		if got := label(gridPoint(axes, i)); got != w {
			t.Errorf("point %d = %q, want %q", i, got, w)
		}
	}
	if n := gridSize(nil); n != 1 || len(gridPoint(nil, 0)) != 0 {
		t.Errorf("no axes: %d points, want one empty point", n)
	}
}

func TestSweepAxisParsing(t *testing.T) {
	tests := []struct {
		in   string
		want axis
		bad  string
	}{
		{in: "set:syncs.interval=1,2", want: axis{"set", "syncs.interval", []string{"1", "2"}}},
		{in: "arg:ITERS= 8 , 16", want: axis{"arg", "ITERS", []string{"8", "16"}}},
		{in: "const:S=1", want: axis{"const", "S", []string{"1"}}},
		{in: "ITERS=1,2", bad: "prefix"},
		{in: "foo:X=1", bad: "prefix"},
		{in: "set:=1", bad: "no KEY"},
		{in: "set:a=1,,2", bad: "empty value"},
		{in: "set:a=1,1", bad: "appears twice"},
	}
	for _, tc := range tests {
		got, err := parseAxis("--vary", tc.in)
		if tc.bad != "" {
			if err == nil || !strings.Contains(err.Error(), tc.bad) {
				t.Errorf("%q: error %v, want one saying %q", tc.in, err, tc.bad)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}
}

func TestSweepShardsAreDeterministicDisjointAndCovering(t *testing.T) {
	for _, n := range []int{1, 2, 5, 17, 100} {
		for _, count := range []int{1, 2, 3, 4, 8, 200} {
			owner := make([]int, n)
			for i := range owner {
				owner[i] = -1
			}
			for s := 0; s < count; s++ {
				sh := shard{s, count}
				size := 0
				for i := 0; i < n; i++ {
					if sh.has(i) != (shard{s, count}).has(i) {
						t.Fatalf("shard %d/%d is not deterministic", s, count)
					}
					if !sh.has(i) {
						continue
					}
					size++
					if owner[i] >= 0 {
						t.Fatalf("n=%d: point %d in shards %d and %d of %d", n, i, owner[i], s, count)
					}
					owner[i] = s
				}
				if size != sh.size(n) {
					t.Errorf("n=%d shard %d/%d: %d points, size() says %d", n, s, count, size, sh.size(n))
				}
			}
			for i, o := range owner {
				if o < 0 {
					t.Fatalf("n=%d count=%d: point %d in no shard", n, count, i)
				}
			}
		}
	}
}

func TestSweepShardFromFlagAndSlurmEnvironment(t *testing.T) {
	if s, err := parseShard("2/4"); err != nil || s != (shard{2, 4}) {
		t.Errorf("2/4 = %v, %v", s, err)
	}
	for _, bad := range []string{"4/4", "-1/2", "1", "a/b", "0/0"} {
		if _, err := parseShard(bad); err == nil {
			t.Errorf("--shard %s accepted", bad)
		}
	}
	tests := []struct {
		env  map[string]string
		want shard
		ok   bool
		err  bool
	}{
		{env: map[string]string{}, ok: false},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, want: shard{3, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "2"}, want: shard{3, 4}, ok: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, err: true},
		{env: map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, err: true},
	}
	for _, tc := range tests {
		s, ok, err := slurmShard(func(k string) string { return tc.env[k] })
		if (err != nil) != tc.err || ok != tc.ok || s != tc.want {
			t.Errorf("env %v: %v %v %v; want %v %v err=%v", tc.env, s, ok, err, tc.want, tc.ok, tc.err)
		}
	}
}

// sweep runs smsim sweep with the Slurm environment ignored.
func sweep(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	return cli(t, append([]string{"sweep"}, args...)...)
}

// readJSONLines decodes every line of path as a record.
func readJSONLines(t *testing.T, path string) []sweepRecord {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []sweepRecord
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var r sweepRecord
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s:%d is not JSON: %v", path, i+1, err)
		}
		out = append(out, r)
	}
	return out
}

func indices(rs []sweepRecord) map[int]int {
	m := map[int]int{}
	for _, r := range rs {
		m[r.Index]++
	}
	return m
}

var halfGrid = []string{exHalf, "--vary", "set:syncs.interval=1,2,4", "--vary", "arg:ITERS=2,4", "-j", "2"}

func TestSweepWritesOneParseableJSONRecordPerPoint(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	code, _, errs := sweep(t, append(halfGrid, "--out", out)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	rs := readJSONLines(t, out)
	if len(rs) != 6 || len(indices(rs)) != 6 {
		t.Fatalf("%d records (%d distinct points), want 6", len(rs), len(indices(rs)))
	}
	for _, r := range rs {
		want := gridPoint([]axis{{"set", "syncs.interval", []string{"1", "2", "4"}}, {"arg", "ITERS", []string{"2", "4"}}}, r.Index)
		if r.Params["set:syncs.interval"] != want[0].value || r.Params["arg:ITERS"] != want[1].value {
			t.Errorf("record %d has params %v, want %s", r.Index, r.Params, label(want))
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
	if code, _, errs := sweep(t, append(halfGrid, "--out", out)...); code != 0 {
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
	rf, err := readResults(out, "csv")
	if err != nil || len(rf.records) != 6 {
		t.Fatalf("read back: %v, %d records", err, len(rf.records))
	}
}

func TestSweepToStdoutStreamsJSONLines(t *testing.T) {
	code, out, errs := sweep(t, exConverged, "--vary", "arg:ITERS=1,2,3")
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
		if code, _, errs := sweep(t, append(halfGrid, "--out", out, "--max-points", itoa(k))...); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		if n := len(readJSONLines(t, out)); n != k {
			t.Fatalf("after the first run: %d records, want %d", n, k)
		}
		code, _, errs := sweep(t, append(halfGrid, "--out", out)...)
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
	if code, _, errs := sweep(t, append(halfGrid, "--out", out, "--max-points", "2")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	f, _ := os.OpenFile(out, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"sweep":"abc","index":5,"poi`)
	f.Close()
	code, _, errs := sweep(t, append(halfGrid, "--out", out)...)
	if code != 0 || !strings.Contains(errs, "dropping an incomplete last record") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if idx := indices(readJSONLines(t, out)); len(idx) != 6 {
		t.Fatalf("points %v, want 0..5", idx)
	}
}

func TestSweepRefusesAResultsFileOfAnotherSweep(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	if code, _, errs := sweep(t, append(halfGrid, "--out", out, "--max-points", "1")...); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, _, errs := sweep(t, exHalf, "--vary", "set:syncs.interval=1,8", "--out", out)
	if code != exitUsage || !strings.Contains(errs, "another sweep") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestSweepShardsTogetherMakeTheWholeGrid(t *testing.T) {
	dir := t.TempDir()
	var all []sweepRecord
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
	code, _, errs := sweep(t, exConverged, "--vary", "arg:ITERS=1,500", "--max-cycles", "3000", "--out", out)
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
		code, out, errs := sweep(t, tc.args...)
		if code != exitUsage || out != "" || !strings.Contains(errs, tc.frag) {
			t.Errorf("sweep %v: exit %d, stdout %q, stderr %q; want usage error with %q", tc.args, code, out, errs, tc.frag)
		}
	}
}
