package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// simulate runs .sms source through the whole pipeline (frontend, SM,
// report) as `smsim run` does, with extra command-line flags.
func simulate(t *testing.T, src string, flags ...string) (*report.Report, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "k.sms")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	o := &runOptions{}
	c := &cobra.Command{}
	o.bindAll(c)
	if err := c.Flags().Parse(flags); err != nil {
		t.Fatal(err)
	}
	j, err := o.Job(path)
	if err != nil {
		t.Fatalf("job: %v", err)
	}
	for _, d := range o.dumps {
		ds, err := run.ParseDump(d)
		if err != nil {
			t.Fatal(err)
		}
		j.Dumps = append(j.Dumps, ds)
	}
	out, err := run.Execute(j)
	if err != nil {
		return nil, err
	}
	return report.Build(j, out), out.Err
}

// wantDiag checks that err is a diagnostic of the kind and code whose one-line
// message contains every fragment.
func wantDiag(t *testing.T, err error, kind sm.DiagKind, code string, frags ...string) *sm.Diag {
	t.Helper()
	var d *sm.Diag
	if !errors.As(err, &d) {
		t.Fatalf("got error %v, want a %s diagnostic", err, kind)
	}
	if d.Kind != kind || (code != "" && d.Code != code) {
		t.Fatalf("got %s/%s: %v, want %s/%s", d.Kind, d.Code, d, kind, code)
	}
	msg := d.Error()
	if strings.Contains(msg, "\n") {
		t.Errorf("diagnostic spans lines: %q", msg)
	}
	for _, f := range frags {
		if !strings.Contains(msg, f) {
			t.Errorf("diagnostic %q lacks %q", msg, f)
		}
	}
	return d
}

func mustSim(t *testing.T, src string, flags ...string) *report.Report {
	t.Helper()
	r, err := simulate(t, src, flags...)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r
}

func barrierNamed(t *testing.T, r *report.Report, name string) report.Barrier {
	t.Helper()
	for _, b := range r.Barriers {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no barrier %q in the report", name)
	return report.Barrier{}
}

// branch.taken charges a taken branch (each loop trip's back edge) and
// nothing else: raising it by d adds d per trip; a branch no lane takes
// (the loop's last test) costs latency.branch as before.
func TestBranchTakenChargesTakenBranchesOnly(t *testing.T) {
	src := "kernel loop\nblock 32\nlet x = tid\nfor i in 0..100 {\n    x = x + 1\n}\n"
	cycles := func(taken int) uint64 {
		r, err := simulate(t, src, "--set", fmt.Sprintf("branch.taken=%d", taken))
		if err != nil {
			t.Fatal(err)
		}
		return r.Cycles
	}
	base, slow := cycles(3), cycles(13)
	// 99 back edges are taken, the 100th test falls through.
	if slow-base != 99*10 {
		t.Errorf("branch.taken 3 -> 13: %d -> %d cycles, want %d more (99 taken back edges)", base, slow, 99*10)
	}
}
