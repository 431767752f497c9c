package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the generated parts of docs/")

// docs/model.md carries the table of every configuration key with its
// value, unit and source, as `smsim config show --markdown` prints it; this
// test keeps the two equal (go test ./cmd/smsim -run ModelDoc -update-docs
// rewrites the table).
func TestModelDocListsEveryParameter(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "model.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	code, table, errs := cli(t, "config", "show", "--markdown")
	if code != 0 {
		t.Fatalf("config show: %s", errs)
	}
	const begin, end = "<!-- params:begin -->\n", "<!-- params:end -->"
	s := string(doc)
	i, j := strings.Index(s, begin), strings.Index(s, end)
	if i < 0 || j < i {
		t.Fatalf("%s lacks the %q … %q markers", path, begin, end)
	}
	got := s[i+len(begin) : j]
	if got == table {
		return
	}
	if *updateDocs {
		if err := os.WriteFile(path, []byte(s[:i+len(begin)]+table+s[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the parameter table in %s is out of date: run go test ./cmd/smsim -run ModelDoc -update-docs", path)
}
