package main

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// svgTexts parses path as XML, checks that its root is <svg>, and returns
// the contents of its <text> elements.
func svgTexts(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d := xml.NewDecoder(f)
	var texts []string
	root, inText := "", false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s is not well-formed XML: %v", path, err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if root == "" {
				root = e.Name.Local
			}
			inText = e.Name.Local == "text"
		case xml.CharData:
			if inText {
				texts = append(texts, string(e))
			}
		case xml.EndElement:
			inText = false
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
	return texts
}

func wantTexts(t *testing.T, path string, want ...string) {
	t.Helper()
	all := strings.Join(svgTexts(t, path), "\n")
	for _, w := range want {
		if !strings.Contains(all, w) {
			t.Errorf("%s has no text %q; texts:\n%s", path, w, all)
		}
	}
}

func TestPlotRunWritesSVGWithTitlesAndLegend(t *testing.T) {
	tests := []struct {
		file string
		want []string
	}{
		{exHalf, []string{"entangle_half: stall cycles per phase", "phase durations over time",
			"histogram of phase durations (n=16", "cycle the phase opened", "bar"}},
		{exPipeline, []string{"tma_pipeline: stall cycles per phase", "full[0]", "empty[3]"}},
	}
	for _, tc := range tests {
		svg := filepath.Join(t.TempDir(), "run.svg")
		code, _, errs := cli(t, "run", tc.file, "--plot", svg, "--report", "summary")
		if code != 0 {
			t.Fatalf("run %s --plot: exit %d: %s", tc.file, code, errs)
		}
		wantTexts(t, svg, tc.want...)
	}
}

func TestPlotRunWithoutBarriersIsAUsageError(t *testing.T) {
	src := writeFile(t, "k.sms", "kernel nobar\nblock 32\ncompute 4 latency 1\n")
	code, _, errs := cli(t, "run", src, "--plot", filepath.Join(t.TempDir(), "x.svg"))
	if code != exitUsage || !strings.Contains(errs, "used no mbarriers") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestPlotSweepDrawsAMetricAgainstAParameter(t *testing.T) {
	dir := t.TempDir()
	out, svg := filepath.Join(dir, "s.jsonl"), filepath.Join(dir, "s.svg")
	code, _, errs := sweepCLI(t, append(halfGrid, "--out", out, "--plot", svg)...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantTexts(t, svg, "entangle_half: kernel cycles vs syncs.interval", "syncs.interval (set)", "ITERS=2", "ITERS=4")

	svg2 := filepath.Join(dir, "p.svg")
	code, stdout, errs := cli(t, "plot", out, "--out", svg2, "--x", "arg:ITERS", "--y", "stall:bar")
	if code != 0 || !strings.Contains(stdout, "wrote") {
		t.Fatalf("plot: exit %d: %s", code, errs)
	}
	wantTexts(t, svg2, "stall cycles of bar vs ITERS", "syncs.interval=4")
}

func TestPlotSweepOfConstantsAndNonNumericValues(t *testing.T) {
	dir := t.TempDir()
	out, svg := filepath.Join(dir, "s.csv"), filepath.Join(dir, "s.svg")
	code, _, errs := sweepCLI(t, exPipeline, "--vary", "set:sched.policy=gto,lrr", "--vary", "const:S=1,2",
		"--arrays", "--out", out, "--plot", svg, "--plot-y", "phase_p50:full[*]")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantTexts(t, svg, "median phase cycles of full[*] vs sched.policy", "gto", "lrr", "S=1", "S=2")
}

func TestPlotCommandDrawsARunReport(t *testing.T) {
	dir := t.TempDir()
	code, js, errs := cli(t, "run", exConverged, "-o", "json")
	if code != 0 {
		t.Fatal(errs)
	}
	rep := filepath.Join(dir, "r.json")
	os.WriteFile(rep, []byte(js), 0o644)
	svg := filepath.Join(dir, "r.svg")
	if code, _, errs := cli(t, "plot", rep, "--out", svg); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	wantTexts(t, svg, "entangle_converged: stall cycles per phase")
}

func TestPlotUsageErrors(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.jsonl")
	if code, _, errs := sweepCLI(t, exHalf, "--vary", "arg:ITERS=1,2", "--out", out); code != 0 {
		t.Fatal(errs)
	}
	tests := []struct {
		args []string
		frag string
	}{
		{[]string{"plot", out}, "--out FILE.svg is required"},
		{[]string{"plot", out, "--out", filepath.Join(dir, "a.svg"), "--y", "bogus"}, "--plot-y"},
		{[]string{"plot", out, "--out", filepath.Join(dir, "a.svg"), "--x", "set:nope"}, "not a parameter"},
	}
	for _, tc := range tests {
		code, _, errs := cli(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.frag) {
			t.Errorf("%v: exit %d, stderr %q; want usage error with %q", tc.args, code, errs, tc.frag)
		}
	}
}

// A plot is written in the format its file's extension names, for run
// --plot, sweep --plot and plot --out alike; another extension is refused
// before anything runs.
func TestPlotWritesTheFormatItsExtensionNames(t *testing.T) {
	t.Setenv("SLURM_ARRAY_TASK_ID", "")
	t.Setenv("SLURM_ARRAY_TASK_COUNT", "")
	dir := t.TempDir()
	results := filepath.Join(dir, "s.jsonl")
	if code, _, errs := sweepCLI(t, exHalf, "--vary", "arg:ITERS=1,2", "--out", results); code != 0 {
		t.Fatal(errs)
	}
	magic := map[string]string{"svg": "<?xml", "png": "\x89PNG\r\n\x1a\n", "pdf": "%PDF-"}
	tests := []struct {
		name string
		args func(path string) []string
	}{
		{"run --plot", func(p string) []string { return []string{"run", exHalf, "--plot", p, "--report", "summary"} }},
		{"sweep --plot", func(p string) []string {
			return []string{"sweep", exHalf, "--vary", "arg:ITERS=1,2", "-j", "1", "--plot", p}
		}},
		{"plot --out", func(p string) []string { return []string{"plot", results, "--out", p} }},
	}
	for _, tc := range tests {
		for _, ext := range []string{"svg", "png", "pdf", "PNG"} {
			path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+"."+ext)
			if code, _, errs := cli(t, tc.args(path)...); code != 0 {
				t.Fatalf("%s .%s: exit %d: %s", tc.name, ext, code, errs)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if want := magic[strings.ToLower(ext)]; !strings.HasPrefix(string(data), want) {
				t.Errorf("%s .%s: the file starts %q, want %q", tc.name, ext, data[:min(len(data), 8)], want)
			}
		}
		for _, ext := range []string{"gif", "jpg", ""} {
			path := filepath.Join(dir, "refused."+ext)
			code, _, errs := cli(t, tc.args(path)...)
			flag := strings.Fields(tc.name)[1]
			want := "smsim: " + flag + " " + path + ": want a .svg, .png or .pdf file (the extension names the image format)"
			if code != exitUsage || firstLine(errs) != want {
				t.Errorf("%s .%s: exit %d, %q; want %d, %q", tc.name, ext, code, firstLine(errs), exitUsage, want)
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("%s .%s: wrote %s", tc.name, ext, path)
			}
		}
	}
}
