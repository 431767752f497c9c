package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docs/cli.md and docs/guide.md show `smsim list` of one calibration kernel
// as it prints.
func TestDocsShowListAsItPrints(t *testing.T) {
	code, out, errs := cli(t, "list", filepath.Join("..", "..", "calibration", "h200", "ptxpipe.ptx"), "-k", "k_bar<2>")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	out = strings.ReplaceAll(out, filepath.ToSlash(filepath.Join("..", ".."))+"/", "")
	for _, doc := range []string{"cli.md", "guide.md"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "docs", doc))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "```text\n"+out+"```") && !strings.Contains(string(b), "```text\n$ smsim list calibration/h200/ptxpipe.ptx -k 'k_bar<2>'\n"+out+"```") {
			t.Errorf("docs/%s does not show `smsim list` as it prints:\n%s", doc, out)
		}
	}
}
