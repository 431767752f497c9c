package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// hostTime is the part of a report that is the host's, not the run's.
var hostTime = regexp.MustCompile(`simulated in [0-9.]+ s \([0-9.]+M warp-instr/s\)`)

// smsim run of a launch over many SMs prints the same report and dump, and
// writes the same timeline and profile, on one host thread as on several
// (--threads; docs/parallel.md): global atomics on one counter, a TMA
// pipeline, mbarrier waits, and a launch that fails (every atomic out of
// bounds), which is run again on one thread.
func TestRunOnSeveralThreadsPrintsOneThreadsReport(t *testing.T) {
	dir := t.TempDir()
	ptx := filepath.Join("..", "..", "testdata", "gpu", "tickets.ptx") // a ticket a thread from one counter
	ex := func(name string) string { return filepath.Join("..", "..", "examples", name) }
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"tickets", []string{ptx, "--sms", "32", "-g", "64", "-b", "64", "-a", "buf:4", "-a", "buf:32768", "--dump", "1:u32:8192"}, 0},
		{"tma_pipeline", []string{ex("tma_pipeline.sms"), "--sms", "4", "-g", "8"}, 0},
		{"arrive_wait", []string{ex("arrive_wait.sms"), "--sms", "3", "-g", "6"}, 0},
		{"failing", []string{ptx, "--sms", "8", "-g", "16", "-b", "64", "-a", "buf:1", "-a", "buf:8192"}, exitMisuse},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want [3]string
			for _, threads := range []string{"1", "3"} {
				tl, prof := filepath.Join(dir, c.name+threads+".json"), filepath.Join(dir, c.name+threads+".csv")
				args := append([]string{"run"}, c.args...)
				code, out, errs := cli(t, append(args, "--threads", threads, "--sm-threads", threads, "--timeline", tl, "--profile", prof)...)
				if code != c.code {
					t.Fatalf("--threads %s: exit %d, want %d: %s", threads, code, c.code, errs)
				}
				tb, _ := os.ReadFile(tl)
				pb, _ := os.ReadFile(prof)
				got := [3]string{hostTime.ReplaceAllString(out, "") + errs, string(tb), string(pb)}
				if threads == "1" {
					want = got
					continue
				}
				for k, what := range []string{"report", "timeline", "profile"} {
					if got[k] != want[k] {
						t.Errorf("--threads %s wrote another %s than --threads 1 (%d bytes against %d)", threads, what, len(got[k]), len(want[k]))
					}
				}
			}
		})
	}
}
