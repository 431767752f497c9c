package run_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
	"github.com/spf13/pflag"
)

// The tests of this package's run_test files run kernels end to end
// through the run API (frontend, compiler model, SM, report), with smsim
// run's launch flags, and check what the model does; the command line's own
// surface (exit statuses, messages, output formats) is tested in cmd/smsim.

// writeFile writes body to a file name in a fresh folder and returns its path.
func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// launch reads smsim run's launch flags (and --dump; --format and
// --report are accepted and ignored) into a job for file.
func launch(t *testing.T, file string, flags ...string) (*run.Job, error) {
	t.Helper()
	var s run.Spec
	fs := pflag.NewFlagSet("run", pflag.ContinueOnError)
	fs.StringVarP(&s.Kernel, "kernel", "k", "", "")
	fs.StringVarP(&s.Block, "block", "b", "", "")
	fs.StringVarP(&s.Grid, "grid", "g", "", "")
	fs.StringVar(&s.Smem, "smem", "", "")
	fs.StringArrayVarP(&s.Args, "arg", "a", nil, "")
	fs.IntVar(&s.Launches, "launches", 1, "")
	fs.StringVar(&s.Config, "config", "h200", "")
	fs.StringArrayVar(&s.Sets, "set", nil, "")
	fs.Uint64Var(&s.MaxCycles, "max-cycles", 100_000_000, "")
	fs.IntVar(&s.SMs, "sms", 0, "")
	fs.BoolVar(&s.Lenient, "lenient", false, "")
	dumps := fs.StringArray("dump", nil, "")
	fs.StringP("format", "o", "table", "")
	fs.StringArray("report", nil, "")
	if err := fs.Parse(flags); err != nil {
		t.Fatal(err)
	}
	j, err := s.Job(file)
	if err != nil {
		return nil, err
	}
	for _, d := range *dumps {
		ds, err := run.ParseDump(d)
		if err != nil {
			t.Fatal(err)
		}
		j.Dumps = append(j.Dumps, ds)
	}
	return j, nil
}

// simulate runs .sms source through the run API with launch flags and
// returns the report and the run's error.
func simulate(t *testing.T, src string, flags ...string) (*report.Report, error) {
	t.Helper()
	j, err := launch(t, writeFile(t, "k.sms", src), flags...)
	if err != nil {
		t.Fatalf("job: %v", err)
	}
	out, err := run.Execute(j)
	if err != nil {
		return nil, err
	}
	return report.Build(j, out), out.Err
}

func mustSim(t *testing.T, src string, flags ...string) *report.Report {
	t.Helper()
	r, err := simulate(t, src, flags...)
	if err != nil {
		t.Fatalf("run failed: %v", err)
	}
	return r
}

// runReport runs `run FILE FLAGS...` (args as smsim run takes them) through
// the run API, fails the test unless it succeeds, and returns the report as
// its JSON reads back (dumped values as JSON numbers).
func runReport(t *testing.T, args ...string) report.Report {
	t.Helper()
	if len(args) < 2 || args[0] != "run" {
		t.Fatalf("runReport(%q): want run FILE FLAGS...", args)
	}
	j, err := launch(t, args[1], args[2:]...)
	if err != nil {
		t.Fatalf("exit %d: %v", run.ExitStatus(err), err)
	}
	out, err := run.Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		t.Fatalf("exit %d: %v", run.ExitStatus(err), err)
	}
	b, err := json.Marshal(report.Build(j, out))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r
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

// runExample simulates one of the repository's examples.
func runExample(t *testing.T, name string) *report.Report {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "examples", name))
	if err != nil {
		t.Fatal(err)
	}
	return mustSim(t, string(src))
}
