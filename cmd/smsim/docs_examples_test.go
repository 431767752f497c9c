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

// exampleOrder is the order docs/examples.md presents the examples in: the
// Programming Guide's, then the pipeline.
var exampleOrder = []string{"init", "arrive_wait", "entangle_converged", "entangle_half", "entangle_lanes", "parity",
	"early_exit", "completion", "tx_bulk", "double_buffer", "tma_pipeline"}

var simulatedIn = regexp.MustCompile(`simulated in [0-9.]+ s \([0-9.]+[kM]? warp-instr/s\)`)

// examplesDoc makes docs/examples.md: each example's header comment (what it
// teaches) and the report smsim prints for it, host time left out.
func examplesDoc(t *testing.T) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`# Examples

One ` + "`.sms`" + ` kernel for each pattern of the CUDA Programming Guide's asynchronous-barrier section, plus a
warp-specialised TMA pipeline. Each section says what the example teaches (its header comment) and shows
what ` + "`smsim run examples/NAME.sms --report summary --report barriers --report phases --report warps`" + ` prints.
The numbers come from the built-in ` + "`h200`" + ` configuration. This page is generated and checked by
` + "`go test ./cmd/smsim -run TestExamplesDoc`" + ` (add ` + "`-update`" + ` to rewrite it after changing an example or the model).

`)
	for _, name := range exampleOrder {
		path := filepath.Join("..", "..", "examples", name+".sms")
		fmt.Fprintf(&b, "## %s.sms\n\n", name)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			line := sc.Text()
			if !strings.HasPrefix(line, "#") {
				break
			}
			line = strings.TrimPrefix(strings.TrimPrefix(line, "#"), " ")
			b.WriteString(strings.TrimRight("> "+line, " ") + "\n")
		}
		f.Close()
		code, out, errs := cli(t, "run", path, "--report", "summary", "--report", "barriers", "--report", "phases", "--report", "warps")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, errs)
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
