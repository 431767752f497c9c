package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/sweep"
)

// shardFiles runs halfGrid as n shards into dir and returns their files.
func shardFiles(t *testing.T, dir, ext string, n int) []string {
	t.Helper()
	var files []string
	for s := 0; s < n; s++ {
		out := filepath.Join(dir, "part"+itoa(s)+ext)
		code, _, errs := sweepCLI(t, append(halfGrid, "--out", out, "--shard", itoa(s)+"/"+itoa(n))...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", s, code, errs)
		}
		files = append(files, out)
	}
	return files
}

func TestMergeJoinsShardsSortedAndComplete(t *testing.T) {
	for _, ext := range []string{".jsonl", ".csv"} {
		t.Run(ext, func(t *testing.T) {
			dir := t.TempDir()
			files := shardFiles(t, dir, ext, 3)
			out := filepath.Join(dir, "all"+ext)
			// Files given twice: duplicates are dropped.
			args := append(append([]string{"merge", "--out", out}, files...), files[0])
			code, _, errs := cli(t, args...)
			if code != 0 || !strings.Contains(errs, "complete, all 6 points") || !strings.Contains(errs, "2 duplicates dropped") {
				t.Fatalf("exit %d, stderr %q", code, errs)
			}
			format, _ := sweep.RecordFormat("", out)
			rf, err := sweep.ReadResults(out, format)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range rf.Records {
				if r.Index != i {
					t.Fatalf("record %d has index %d: not sorted, or duplicated", i, r.Index)
				}
			}
			if len(rf.Records) != 6 {
				t.Fatalf("%d records, want 6", len(rf.Records))
			}
		})
	}
}

func TestMergeNamesTheMissingPoints(t *testing.T) {
	dir := t.TempDir()
	files := shardFiles(t, dir, ".jsonl", 3)
	out := filepath.Join(dir, "all.jsonl")
	// Shard 1 of 3 holds points 1 and 4.
	code, _, errs := cli(t, "merge", "--out", out, files[0], files[2])
	if code != exitInput || !strings.Contains(errs, "2 of 6 points missing: 1, 4") {
		t.Fatalf("exit %d, stderr %q; want %d and the missing points", code, errs, exitInput)
	}
	if rs := readJSONLines(t, out); len(rs) != 4 {
		t.Errorf("the merged file holds %d records, want the 4 present", len(rs))
	}
	code, _, _ = cli(t, "merge", "--allow-missing", "--out", out, files[0], files[2])
	if code != 0 {
		t.Errorf("--allow-missing: exit %d", code)
	}
	// The merged file as --out of the same sweep runs only what is missing.
	code, _, errs = sweepCLI(t, append(halfGrid, "--out", out)...)
	if code != 0 || !strings.Contains(errs, "2 run (0 failed), 4 already in") {
		t.Fatalf("filling in: exit %d, stderr %q", code, errs)
	}
	code, _, errs = cli(t, "merge", out)
	if code != 0 || !strings.Contains(errs, "complete") {
		t.Fatalf("after filling in: exit %d, stderr %q", code, errs)
	}
}

func TestMergeRanges(t *testing.T) {
	tests := []struct {
		in    []int
		limit int
		want  string
	}{
		{[]int{1}, 2, "1"},
		{[]int{1, 2, 3, 7, 9, 10}, 3, "1-3, 7, 9-10"},
		{[]int{0, 2, 4, 6}, 2, "0, 2, ..."},
	}
	for _, tc := range tests {
		if got := ranges(tc.in, tc.limit); got != tc.want {
			t.Errorf("ranges(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestMergeRefusesMixedSweepsAndNonRecords(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.jsonl")
	b := filepath.Join(dir, "b.jsonl")
	if code, _, errs := sweepCLI(t, exHalf, "--vary", "arg:ITERS=1,2", "--out", a); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := sweepCLI(t, exHalf, "--vary", "arg:ITERS=1,3", "--out", b); code != 0 {
		t.Fatal(errs)
	}
	if code, _, errs := cli(t, "merge", a, b); code != exitInput || !strings.Contains(errs, "2 different sweeps") {
		t.Errorf("mixed sweeps: exit %d, stderr %q", code, errs)
	}
	junk := filepath.Join(dir, "junk.jsonl")
	os.WriteFile(junk, []byte("{\"x\":1}\n"), 0o644)
	if code, _, errs := cli(t, "merge", junk); code != exitInput || !strings.Contains(errs, "not a sweep record") {
		t.Errorf("junk: exit %d, stderr %q", code, errs)
	}
	if code, _, _ := cli(t, "merge", filepath.Join(dir, "none.jsonl")); code != exitInput {
		t.Errorf("missing file: exit %d", code)
	}
}
