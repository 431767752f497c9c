package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docStep is one thing docs/guide.md tells the reader to run: a ```sh
// block, or the command of an "<!-- output: COMMAND -->" line. When a
// ```text block follows it (only blank lines between), that block shows
// what the step prints, and textStart/textEnd are its lines (0-based, the
// fences excluded).
type docStep struct {
	line               int    // 1-based line of the step, for messages
	script             string // what bash runs
	hasText            bool
	textStart, textEnd int
}

// outputMarker introduces a ```text block that shows a command's output
// where the guide does not show the command itself (an excerpt of a file
// or report the steps before made).
const outputMarker = "<!-- output: "

// guideSteps splits a guide into its steps, in order.
func guideSteps(lines []string) []docStep {
	var steps []docStep
	for i := 0; i < len(lines); i++ {
		var st docStep
		switch {
		case lines[i] == "```sh":
			j := i + 1
			for j < len(lines) && lines[j] != "```" {
				j++
			}
			st = docStep{line: i + 2, script: strings.Join(lines[i+1:j], "\n")}
			i = j
		case strings.HasPrefix(lines[i], outputMarker) && strings.HasSuffix(lines[i], " -->"):
			st = docStep{line: i + 1, script: strings.TrimSuffix(strings.TrimPrefix(lines[i], outputMarker), " -->")}
		default:
			continue
		}
		j := i + 1
		for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
			j++
		}
		if j < len(lines) && lines[j] == "```text" {
			k := j + 1
			for k < len(lines) && lines[k] != "```" {
				k++
			}
			st.hasText, st.textStart, st.textEnd = true, j+1, k
			i = k
		}
		steps = append(steps, st)
	}
	return steps
}

// volatile matches what differs between runs of the same command: host
// times and simulator speeds.
var volatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`simulated in [0-9.]+ s \([0-9.]+[kM]? warp-instr/s\)`), "simulated in T s (R warp-instr/s)"},
	{regexp.MustCompile(`; [0-9.]+ s$`), "; T s"},
	{regexp.MustCompile(`"host_seconds":[0-9.e+-]+`), `"host_seconds":T`},
}

// normalise blanks the volatile parts of an output, line by line.
func normalise(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		for _, v := range volatile {
			l = v.re.ReplaceAllString(l, v.with)
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
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

// TestGuideCommands runs every step of docs/guide.md (its ```sh blocks and
// "<!-- output: COMMAND -->" lines), in order, in one bash session in a
// scratch copy of examples/, scripts/, the PTX of calibration/h200/ptxpipe.cu
// and apps/h200/fa3_fwd.cu and the SASS of testdata/cuda/branch/brx_probe.cu,
// with bin/smsim standing for the binary the guide builds (this test binary,
// re-entered through TestGuideHelperProcess). Where the guide shows a step's
// output (the ```text block after it), the output must be what the step
// prints now, host times aside: go test ./cmd/smsim -run TestGuideCommands
// -update rewrites those blocks.
func TestGuideCommands(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	const guide = "../../docs/guide.md"
	data, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	steps := guideSteps(lines)
	if len(steps) < 8 {
		t.Fatalf("docs/guide.md has %d steps; the tour has more", len(steps))
	}
	dir := t.TempDir()
	copyTree(t, "../../examples", filepath.Join(dir, "examples"))
	copyTree(t, "../../scripts", filepath.Join(dir, "scripts"))
	for _, f := range []string{
		"calibration/h200/ptxpipe.ptx",                                                // section 5's PTX
		"apps/h200/fa3_fwd.ptx",                                                       // section 6's attention kernel
		"testdata/cuda/branch/brx_probe.sass", "testdata/cuda/branch/brx_probe.cubin", // section 5's --symbol
	} {
		src, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			t.Fatal(err)
		}
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
	outDir := t.TempDir()
	var script strings.Builder
	script.WriteString("set -euo pipefail\nunset SLURM_ARRAY_TASK_ID SLURM_ARRAY_TASK_COUNT SLURM_ARRAY_TASK_MIN\n")
	for i, st := range steps {
		fmt.Fprintf(&script, "echo '### docs/guide.md:%d' >&2\n{\n", st.line)
		for _, line := range strings.Split(st.script, "\n") {
			if strings.HasPrefix(line, "go build ") {
				line = ": stand-in for " + line // bin/smsim is already there
			}
			script.WriteString(line + "\n")
		}
		fmt.Fprintf(&script, "} > %q 2>&1\n", filepath.Join(outDir, fmt.Sprint(i)))
	}
	cmd := exec.Command(bash, "-c", script.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Join(dir, "bin")+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("a command of docs/guide.md failed (%v); the last ### line names its step:\n%s", err, out)
	}
	for _, f := range []string{"tour/tma_s1.svg", "tour/stages.svg", "tour/stages.jsonl", "tour/merged.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the tour did not make %s", f)
		}
	}
	// Compare (or rewrite) the shown outputs, last first so that line
	// numbers stay valid while rewriting.
	changed := false
	for i := len(steps) - 1; i >= 0; i-- {
		st := steps[i]
		if !st.hasText {
			continue
		}
		got, err := os.ReadFile(filepath.Join(outDir, fmt.Sprint(i)))
		if err != nil {
			t.Fatal(err)
		}
		shown := strings.Join(lines[st.textStart:st.textEnd], "\n")
		if normalise(string(got)) == normalise(shown) {
			continue
		}
		if *update {
			fresh := strings.Split(strings.TrimRight(string(got), "\n"), "\n")
			lines = append(lines[:st.textStart], append(fresh, lines[st.textEnd:]...)...)
			changed = true
			continue
		}
		t.Errorf("docs/guide.md:%d shows an output that is no longer what the step prints (go test ./cmd/smsim -run TestGuideCommands -update rewrites it):\n%s",
			st.line, lineDiff(normalise(string(got)), normalise(shown)))
	}
	if changed {
		if err := os.WriteFile(guide, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			t.Fatal(err)
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

// lineDiff shows the first line where two texts differ.
func lineDiff(got, shown string) string {
	g, w := strings.Split(got, "\n"), strings.Split(shown, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d of the block:\n  now:   %s\n  shown: %s", i+1, gl, wl)
		}
	}
	return "(only line endings differ)"
}
