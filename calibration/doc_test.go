package calibration

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/validation.md's generated blocks from the current run")

// hostTime matches the line of a validation table that depends on the host.
var hostTime = regexp.MustCompile(`(?m)^\d+ launches simulated in [0-9.]+ s of host time; slowdown against the H200 up to \d+x\n`)

// replaceBlock replaces the ``` block that follows the line marker in doc
// with body; ok is false when doc has no such block.
func replaceBlock(doc, marker, body string) (string, bool) {
	i := strings.Index(doc, marker+"\n")
	if i < 0 {
		return doc, false
	}
	start := strings.Index(doc[i:], "```\n")
	if start < 0 {
		return doc, false
	}
	start += i + len("```\n")
	end := strings.Index(doc[start:], "```\n")
	if end < 0 {
		return doc, false
	}
	return doc[:start] + body + doc[start+end:], true
}

// docs/validation.md shows what `smsim validate --input ptx,sass` prints
// (host time aside), what `smsim validate --departures` prints and what
// `smsim validate --apps --input ptx,sass` prints: go test ./calibration -run
// TestValidationDocIsCurrent -update rewrites the three blocks.
func TestValidationDocIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the calibration suite at full length")
	}
	path := filepath.Join("..", "docs", "validation.md")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	forms := &Forms{Inputs: Inputs, Validations: map[string]*Validation{"ptx": fullValidation(t), "sass": fullSASSValidation(t)}}
	var suite, departures bytes.Buffer
	if err := WriteFormsTable(&suite, forms); err != nil {
		t.Fatal(err)
	}
	if err := WriteDepartures(&departures, FindDepartures(forms.Validations["ptx"], forms.Validations["sass"], DefaultDepartureThreshold)); err != nil {
		t.Fatal(err)
	}
	apps := allApps(t)
	var appTable bytes.Buffer
	if err := WriteAppTable(&appTable, apps); err != nil {
		t.Fatal(err)
	}
	want := doc
	for _, blk := range []struct{ marker, body string }{
		{"<!-- smsim validate --input ptx,sass -->", hostTime.ReplaceAllString(suite.String(), "")},
		{"<!-- smsim validate --departures -->", departures.String()},
		{"<!-- smsim validate --apps --input ptx,sass -->", appTable.String()},
	} {
		var ok bool
		if want, ok = replaceBlock(want, blk.marker, blk.body); !ok {
			t.Fatalf("docs/validation.md has no %s line before a ``` block", blk.marker)
		}
	}
	if want == doc {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("docs/validation.md is not what smsim validate prints now (go test ./calibration -run TestValidationDocIsCurrent -update)")
}
