package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A sweep refuses an --out file another sweep of this process holds, with
// exit 3 and a line saying what to do, and writes nothing to it; once the
// other sweep has closed the file, the same command runs.
func TestSweepRefusesAnOutAnotherSweepIsWriting(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	out := filepath.Join(t.TempDir(), "s.jsonl")
	args := []string{"sweep", filepath.Join("..", "..", "examples", "entangle_half.sms"), "--vary", "arg:ITERS=1,2", "--out", out}
	other, err := openResults(out, "jsonl", []string{"arg:ITERS"}, "x", &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := cli(t, args...)
	want := "smsim: --out " + out + ": another smsim sweep is writing it; wait for that one to finish (then this command runs what is left), or give each sweep its own --out (--shard I/N, then smsim merge)"
	if code != exitInput || firstLine(errs) != want {
		t.Errorf("got exit %d, %q; want %d, %q", code, firstLine(errs), exitInput, want)
	}
	if st, err := os.Stat(out); err != nil || st.Size() != 0 {
		t.Errorf("the refused sweep wrote to %s (%v)", out, err)
	}
	other.close()
	if code, _, errs := cli(t, args...); code != 0 || len(readJSONLines(t, out)) != 2 {
		t.Errorf("after the other sweep closed: exit %d: %s", code, errs)
	}
}

// Two sweep processes on one --out: the second, started while the first
// writes, is refused (exit 3), and the file ends with every point's record
// once, each line whole.
func TestTwoSweepProcessesDoNotShareAnOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.jsonl")
	var vals []string
	for i := 0; i < 24; i++ {
		vals = append(vals, itoa(5000+i))
	}
	args := []string{"sweep", filepath.Join("..", "..", "examples", "entangle_half.sms"), "--vary", "arg:ITERS=" + strings.Join(vals, ","), "-j", "1", "--out", out}
	first := smsimProcess(t, args...)
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if data, _ := os.ReadFile(out); bytes.Count(data, []byte("\n")) >= 1 {
			break
		}
	}
	second := smsimProcess(t, args...)
	var secondErr bytes.Buffer
	second.Stderr = &secondErr
	err := second.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInput || !strings.Contains(secondErr.String(), "another smsim sweep is writing it") {
		t.Errorf("second sweep: %v, stderr %q; want exit %d naming the other sweep", err, secondErr.String(), exitInput)
	}
	if err := first.Wait(); err != nil {
		t.Fatalf("first sweep: %v: %s", err, firstErr.String())
	}
	seen := map[int]int{}
	for _, r := range readJSONLines(t, out) {
		seen[r.Index]++
	}
	for i := 0; i < len(vals); i++ {
		if seen[i] != 1 {
			t.Errorf("point %d has %d records, want 1", i, seen[i])
		}
	}
}
