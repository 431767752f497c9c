package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/calibration"
)

// The repository stands alone: no Go file reads anything beside the clone
// (the project's shared/ folder, say), and every file the calibration suite
// needs is in calibration/h200.
func TestRepositoryStandsAlone(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// Spelt in pieces, so that this file does not match itself.
		shared := `"shared"`
		for _, bad := range []string{`"..` + `/shared`, `"..", "..", "..", ` + shared, `"..", ` + shared} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s reads outside the repository (%s)", p, bad)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"microbench.csv", "microbench.ptx", "microbench.cu", "probe.csv", "hwprobe.ptx", "hwprobe.cu"} {
		if _, err := os.Stat(filepath.Join(root, "calibration", "h200", f)); err != nil {
			t.Errorf("calibration/h200/%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "mbarrier-semantics.md")); err != nil {
		t.Errorf("the specification the docs cite: %v", err)
	}
}

// validate and calibrate read one folder, by default the repository's; a
// folder that is missing, or lacks a file the targets are judged on, is an
// input error, with --check too.
func TestValidateNeedsItsFolder(t *testing.T) {
	partial := t.TempDir()
	if err := os.WriteFile(filepath.Join(partial, "microbench.csv"), []byte("bench,config,metric,median,min,max,runs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"missing folder", []string{"validate", "--dir", "/nonexistent"}, "calibration folder /nonexistent: no such file or directory"},
		{"missing folder, check", []string{"validate", "--check", "--dir", "/nonexistent"}, "calibration folder /nonexistent"},
		{"missing files, check", []string{"validate", "--check", "--dir", partial}, "microbench.ptx is missing"},
		{"calibrate, missing folder", []string{"calibrate", "--dir", "/nonexistent", "--params", "syncs.latency"}, "calibration folder /nonexistent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errs := cli(t, tc.args...)
			if code != exitInput || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, errs, exitInput, tc.want)
			}
		})
	}
	if d := filepath.ToSlash(calibration.DefaultDir()); !strings.HasSuffix(d, "calibration/h200") || strings.Contains(d, "shared") {
		t.Errorf("default calibration folder %q, want the repository's calibration/h200", d)
	}
	code, out, _ := cli(t, "calibrate", "--help")
	if code != 0 || !strings.Contains(out, `(default "calibration/h200")`) || strings.Contains(out, "shared") {
		t.Errorf("calibrate --help names a folder outside the repository:\n%s", out)
	}
}
