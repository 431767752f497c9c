package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// cancelOnWrite cancels a context at its first write: a Ctrl-C right after
// the first sweep record reached stdout.
type cancelOnWrite struct {
	bytes.Buffer
	cancel context.CancelFunc
}

func (c *cancelOnWrite) Write(p []byte) (int, error) {
	defer c.cancel()
	return c.Buffer.Write(p)
}

// Ctrl-C stops a sweep or a validation with exit 130 and one line saying
// what was written and how to go on.
func TestInterruptSaysWhatWasWrittenAndHowToGoOn(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	half := filepath.Join("..", "..", "examples", "entangle_half.sms")
	grid := []string{"sweep", half, "--vary", "arg:ITERS=1,2,3,4", "-j", "1"}
	out := filepath.Join(t.TempDir(), "s.jsonl")
	if code, _, errs := cli(t, append(grid, "--out", out, "--max-points", "2")...); code != 0 {
		t.Fatal(errs)
	}

	t.Run("sweep to stdout, after the first record", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		stdout := &cancelOnWrite{cancel: cancel}
		var stderr strings.Builder
		code := runContext(ctx, grid, stdout, &stderr)
		want := regexp.MustCompile(`^smsim: interrupted: sweep stopped after 1 of 4 points \([0-9.]+ s\); their records went to stdout, and only a sweep with --out FILE resumes where it stopped\n$`)
		if code != exitInterrupted || !want.MatchString(stderr.String()) {
			t.Errorf("exit %d, stderr %q; want %d and %s", code, stderr.String(), exitInterrupted, want)
		}
		if n := strings.Count(stdout.String(), "\n"); n != 1 {
			t.Errorf("%d records on stdout, want 1", n)
		}
	})
	t.Run("sweep to a file, then resumed", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stderr strings.Builder
		code := runContext(ctx, append(grid, "--out", out), &bytes.Buffer{}, &stderr)
		want := regexp.MustCompile(`^smsim: interrupted: sweep stopped with 2 of 4 points in ` + regexp.QuoteMeta(out) +
			` \(0 run now, [0-9.]+ s\); run the same command again to run the 2 left\n$`)
		if code != exitInterrupted || !want.MatchString(stderr.String()) {
			t.Errorf("exit %d, stderr %q; want %d and %s", code, stderr.String(), exitInterrupted, want)
		}
		code, _, errs := cli(t, append(grid, "--out", out)...)
		if code != 0 || !strings.Contains(errs, ": 2 run (0 failed), 2 already in") {
			t.Errorf("resumed: exit %d, stderr %q", code, errs)
		}
	})
	t.Run("validate", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		var stdout, stderr strings.Builder
		code := runContext(ctx, []string{"validate", "--dir", filepath.Join("..", "..", "calibration", "h200"), "--only", "probe.csv"}, &stdout, &stderr)
		want := regexp.MustCompile(`^smsim: interrupted: validate stopped after 0 of [1-9][0-9]* launches \([0-9.]+ s\); it prints nothing until every launch has run \(--only REGEXP runs a part of the suite\)\n$`)
		if code != exitInterrupted || !want.MatchString(stderr.String()) || stdout.Len() != 0 {
			t.Errorf("exit %d, stdout %q, stderr %q; want %d, nothing and %s", code, stdout.String(), stderr.String(), exitInterrupted, want)
		}
	})
}

// A real Ctrl-C (SIGINT) to a sweep process: exit 130, the resume line, and
// every record in --out whole, so that running the command again finishes
// the grid.
func TestSweepProcessStopsOnSIGINT(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	out := filepath.Join(t.TempDir(), "s.jsonl")
	half := filepath.Join("..", "..", "examples", "entangle_half.sms")
	args := []string{"sweep", half, "--vary", "arg:ITERS=5000,5001,5002,5003,5004,5005,5006,5007,5008,5009,5010,5011", "-j", "1", "--out", out}
	cmd := smsimProcess(t, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if data, _ := os.ReadFile(out); bytes.Count(data, []byte("\n")) >= 1 {
			once.Do(func() { _ = cmd.Process.Signal(os.Interrupt) })
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("got %v, want exit %d; stderr:\n%s", err, exitInterrupted, stderr.String())
	}
	recs := readJSONLines(t, out)
	want := regexp.MustCompile(`smsim: interrupted: sweep stopped with (\d+) of 12 points in ` + regexp.QuoteMeta(out) + ` .*run the same command again to run the (\d+) left\n$`)
	m := want.FindStringSubmatch(stderr.String())
	if m == nil || m[1] != itoa(len(recs)) || len(recs) >= 12 {
		t.Fatalf("stderr %q; want the resume line counting the %d records in %s", stderr.String(), len(recs), out)
	}
	code, _, errs := cli(t, args...)
	if code != 0 || len(readJSONLines(t, out)) != 12 {
		t.Errorf("resumed: exit %d, %d records; stderr %s", code, len(readJSONLines(t, out)), errs)
	}
}

// smsimProcess is a command running smsim args in a process of its own:
// this test binary, as TestGuideHelperProcess.
func smsimProcess(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, append([]string{"-test.run=^TestGuideHelperProcess$", "--"}, args...)...)
	cmd.Env = append(os.Environ(), "SMSIM_GUIDE_HELPER=1", "SLURM_ARRAY_TASK_ID=", "SLURM_ARRAY_TASK_COUNT=")
	return cmd
}
