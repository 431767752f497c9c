package main

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --symbol fills a kernel's __constant__ tables as cudaMemcpyToSymbol does:
// brx_probe's mode 2 then computes the H200's result from its SASS; a name
// the file does not define is a usage error (exit 2) that lists the ones it
// does.
func TestSymbolFlag(t *testing.T) {
	words := func(name string, ws ...uint32) string {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	probe := filepath.Join("..", "..", "testdata", "cuda", "branch", "brx_probe.sass")
	launch := []string{"run", probe, "-k", "brx_probe", "-b", "32", "-a", "2", "-a", "12345", "-a", "buf:8", "-a", "buf:4",
		"--dump", "3:u32:1", "--report", "dumps"}
	code, out, errs := cli(t, append(launch, "--symbol", "kmul=file:"+words("kmul.bin", 3, 5, 7, 9, 11, 13, 15, 17),
		"--symbol", "kadd=file:"+words("kadd.bin", 1, 7, 3, 5, 9, 11, 13, 15))...)
	if code != 0 || !strings.Contains(out, "4114453967") {
		t.Errorf("exit %d, stderr %q: want the H200's x 4114453967 in\n%s", code, errs, out)
	}
	code, _, errs = cli(t, append(launch, "--symbol", "ktab=seq")...)
	if code != exitUsage || !strings.Contains(errs, "not a module-scope variable") || !strings.Contains(errs, "kadd, kmul") {
		t.Errorf("unknown symbol: exit %d, stderr %q", code, errs)
	}
}

// smsim list names the variables --symbol can fill, from PTX and SASS.
func TestListNamesTheVariables(t *testing.T) {
	for _, ext := range []string{"ptx", "sass"} {
		code, out, errs := cli(t, "list", filepath.Join("..", "..", "testdata", "cuda", "branch", "brx_probe."+ext))
		want := "  variables kmul (__constant__, 32 B), kadd (__constant__, 32 B) (--symbol NAME=FILL sets one)\n"
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, stderr %q: want %q in\n%s", ext, code, errs, want, out)
		}
	}
}

// docs/guide.md shows the --symbol run of brx_probe and its list line as
// they print.
func TestGuideShowsSymbolAsItPrints(t *testing.T) {
	dir := t.TempDir()
	for name, ws := range map[string][]uint32{"kmul.bin": {3, 5, 7, 9, 11, 13, 15, 17}, "kadd.bin": {1, 7, 3, 5, 9, 11, 13, 15}} {
		b := make([]byte, 4*len(ws))
		for i, w := range ws {
			binary.LittleEndian.PutUint32(b[4*i:], w)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := cli(t, "run", filepath.Join("..", "..", "testdata", "cuda", "branch", "brx_probe.sass"), "-k", "brx_probe",
		"-b", "32", "-a", "2", "-a", "12345", "-a", "buf:8", "-a", "buf:4", "--symbol", "kmul=file:"+filepath.Join(dir, "kmul.bin"),
		"--symbol", "kadd=file:"+filepath.Join(dir, "kadd.bin"), "--dump", "3:u32:1", "--report", "dumps")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	guide, err := os.ReadFile(filepath.Join("..", "..", "docs", "guide.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(guide), "```text\n"+out+"```") {
		t.Errorf("docs/guide.md does not show the --symbol run as it prints:\n%s", out)
	}
	_, list, _ := cli(t, "list", filepath.Join("..", "..", "testdata", "cuda", "branch", "brx_probe.ptx"))
	const line = "variables kmul (__constant__, 32 B), kadd (__constant__, 32 B)"
	if !strings.Contains(list, line) || !strings.Contains(string(guide), "`"+line+"`") {
		t.Errorf("smsim list or docs/guide.md lacks %q", line)
	}
}
