package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// example is one file of examples/ and the launch arguments it needs beyond
// the reports (a PTX kernel's --smem and --arg values; none for .sms).
type example struct {
	file string
	args []string
}

// gemmTensor is the wgmma GEMM's tensor maps: K x 128 f16 (K innermost), in
// 64 x 128 boxes with the 128B swizzle its descriptors read.
const gemmTensor = "tensormap:f16,512x128,box=64x128,swizzle=128B,fill=f16int:"

// exampleOrder is the order docs/examples.md presents the examples in: the
// Programming Guide's, then the pipelines.
var exampleOrder = []example{{file: "init.sms"}, {file: "arrive_wait.sms"}, {file: "entangle_converged.sms"},
	{file: "entangle_half.sms"}, {file: "entangle_lanes.sms"}, {file: "parity.sms"}, {file: "early_exit.sms"},
	{file: "completion.sms"}, {file: "tx_bulk.sms"}, {file: "double_buffer.sms"}, {file: "tma_pipeline.sms"},
	{file: "wgmma_gemm.ptx", args: []string{"--smem", "129KiB", "--arg", "tmA=" + gemmTensor + "1",
		"--arg", "tmB=" + gemmTensor + "2", "--arg", "C=buf:64KiB", "--arg", "stages=4", "--arg", "ktiles=8"}}}

var simulatedIn = regexp.MustCompile(`simulated in [0-9.]+ s \([0-9.]+[kM]? warp-instr/s\)`)

// headerComment is an example's opening comment (what it teaches), as a
// quotation: "#" lines of a .sms file, "//" lines of a PTX file.
func headerComment(t *testing.T, path string) string {
	t.Helper()
	mark := "#"
	if strings.HasSuffix(path, ".ptx") {
		mark = "//"
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), mark)
		if !ok {
			break
		}
		b.WriteString(strings.TrimRight("> "+strings.TrimPrefix(line, " "), " ") + "\n")
	}
	return b.String()
}

// examplesDoc makes docs/examples.md: each example's header comment (what it
// teaches) and the report smsim prints for it, host time left out.
func examplesDoc(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`# Examples

One ` + "`.sms`" + ` kernel for each pattern of the CUDA Programming Guide's asynchronous-barrier section, a
warp-specialised TMA pipeline, and a warp-specialised GEMM with ` + "`wgmma`" + ` written in PTX. Each section says what
the example teaches (its header comment) and shows what
` + "`smsim run examples/FILE --report summary --report barriers --report phases --report warps`" + ` prints, with the
launch arguments its section gives for the PTX kernel.
The numbers come from the built-in ` + "`h200`" + ` configuration. This page is generated and checked by
` + "`go test ./cmd/smsim -run TestExamplesDoc`" + ` (add ` + "`-update`" + ` to rewrite it after changing an example or the model).

`)
	reports := []string{"--report", "summary", "--report", "barriers", "--report", "phases", "--report", "warps"}
	for _, ex := range exampleOrder {
		path := filepath.Join("..", "..", "examples", ex.file)
		fmt.Fprintf(&b, "## %s\n\n%s", ex.file, headerComment(t, path))
		if len(ex.args) > 0 {
			fmt.Fprintf(&b, "\nRun with:\n\n```\nsmsim run examples/%s %s\n```\n", ex.file, strings.Join(ex.args, " "))
		}
		code, out, errs := cli(t, append(append([]string{"run", path}, ex.args...), reports...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", ex.file, code, errs)
		}
		out = strings.ReplaceAll(out, filepath.ToSlash(filepath.Join("..", ".."))+"/", "")
		out = simulatedIn.ReplaceAllString(out, "simulated")
		fmt.Fprintf(&b, "\n```\n%s```\n\n", out+errs)
	}
	return b.String()
}

// TestExamplesDocIsCurrent: docs/examples.md shows what each example prints
// now.
func TestExamplesDocIsCurrent(t *testing.T) {
	const doc = "../../docs/examples.md"
	want := examplesDoc(t)
	if *update {
		if err := os.WriteFile(doc, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	have, err := os.ReadFile(doc)
	if err != nil {
		t.Fatal(err)
	}
	if string(have) != want {
		t.Errorf("docs/examples.md is not what the examples print now (go test ./cmd/smsim -run TestExamplesDoc -update rewrites it):\n%s",
			lineDiff(want, string(have)))
	}
}
