package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// guideBlocks returns the ```sh blocks of docs/guide.md with the line each
// starts on.
func guideBlocks(t *testing.T) ([]string, []int) {
	t.Helper()
	data, err := os.ReadFile("../../docs/guide.md")
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	var starts []int
	var cur []string
	in := false
	for i, line := range strings.Split(string(data), "\n") {
		switch {
		case !in && line == "```sh":
			in, cur = true, nil
			starts = append(starts, i+2)
		case in && line == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case in:
			cur = append(cur, line)
		}
	}
	return blocks, starts
}

// copyTree copies the directory src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if fi.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, fi.Mode())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestGuideCommands runs every ```sh block of docs/guide.md, in order, in
// one bash session in a scratch copy of examples/, scripts/ and the PTX of
// calibration/h200/ptxpipe.cu, with
// bin/smsim standing for the binary the guide builds (this test binary,
// re-entered through TestGuideHelperProcess).
func TestGuideCommands(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	blocks, starts := guideBlocks(t)
	if len(blocks) < 8 {
		t.Fatalf("docs/guide.md has %d sh blocks; the tour has more", len(blocks))
	}
	dir := t.TempDir()
	copyTree(t, "../../examples", filepath.Join(dir, "examples"))
	copyTree(t, "../../scripts", filepath.Join(dir, "scripts"))
	ptxpipe, err := os.ReadFile("../../calibration/h200/ptxpipe.ptx") // section 5's PTX
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "calibration", "h200"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "calibration", "h200", "ptxpipe.ptx"), ptxpipe, 0o644); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	wrapper := fmt.Sprintf("#!/bin/sh\nSMSIM_GUIDE_HELPER=1 exec %q -test.run='^TestGuideHelperProcess$' -- \"$@\"\n", self)
	if err := os.WriteFile(filepath.Join(dir, "bin", "smsim"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("set -euo pipefail\nunset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN\n")
	for i, b := range blocks {
		fmt.Fprintf(&script, "echo '### docs/guide.md:%d' >&2\n", starts[i])
		for _, line := range strings.Split(b, "\n") {
			if strings.HasPrefix(line, "go build ") {
				line = ": stand-in for " + line // bin/smsim is already there
			}
			script.WriteString(line + "\n")
		}
	}
	cmd := exec.Command(bash, "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("a command of docs/guide.md failed (%v); the last ### line names its block:\n%s", err, out)
	}
	for _, f := range []string{"tour/tma_s1.svg", "tour/stages.svg", "tour/stages.jsonl", "tour/merged.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the tour did not make %s", f)
		}
	}
}

// TestGuideHelperProcess is smsim itself when TestGuideCommands runs this
// test binary as bin/smsim; otherwise it does nothing.
func TestGuideHelperProcess(t *testing.T) {
	if os.Getenv("SMSIM_GUIDE_HELPER") != "1" {
		return
	}
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Exit(runCLI(args, os.Stdout, os.Stderr))
}
