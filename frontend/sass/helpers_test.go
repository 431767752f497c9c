package sass

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite frontend/sass/testdata golden files and the inventory from the current output")

// corpusDirs hold the committed sm_90a SASS, cubins and ptxas reports (scripts/sass-from-ptx.sh).
var corpusDirs = []string{"../../calibration/h200", "../../testdata/cuda", "testdata/cubin"}

// tensorListings are the tensor-core kernels of calibration/h200 (moved
// there from testdata/cuda/wgmma, which this corpus never read): the parser
// tests leave them out as before, since their HGMMA operands (gdesc, gsb0)
// are outside the operand grammar these tests check, wgmma_probe.sass was
// printed without encodings and tma_swizzle has no ptxas report;
// loweringCorpus runs them all.
var tensorListings = map[string]bool{"wgmma_probe": true, "wgmma_rate": true, "wgmma_share": true, "stg_wgmma": true, "tma_swizzle": true,
	"clockdom": true, "clockbw": true}

// corpus returns the committed files with extension ext (".sass", ".cubin").
func corpus(t testing.TB, ext string) []string {
	t.Helper()
	var out []string
	for _, d := range corpusDirs {
		m, err := globListings(d, ext)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m {
			if !tensorListings[strings.TrimSuffix(filepath.Base(p), ext)] {
				out = append(out, p)
			}
		}
	}
	if len(out) < 10 {
		t.Fatalf("found %d %s files under %v; the tests need the repository's calibration/h200 and testdata/cuda", len(out), ext, corpusDirs)
	}
	sort.Strings(out)
	return out
}

type parsedFile struct {
	path  string
	src   []byte
	lines [][]byte
	f     *File
}

var (
	corpusOnce   sync.Once
	corpusParsed []parsedFile
	corpusErr    error
)

// parsedCorpus parses every committed .sass once per test binary.
func parsedCorpus(t testing.TB) []parsedFile {
	t.Helper()
	paths := corpus(t, ".sass")
	corpusOnce.Do(func() {
		for _, p := range paths {
			src, err := readListing(p)
			if err != nil {
				corpusErr = err
				return
			}
			f, err := Parse(p, src)
			if err != nil {
				corpusErr = err
				return
			}
			corpusParsed = append(corpusParsed, parsedFile{p, src, bytes.Split(src, []byte("\n")), f})
		}
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusParsed
}

// eachInstruction calls fn for every instruction of the parsed corpus.
func eachInstruction(t testing.TB, fn func(pf *parsedFile, f *Function, in *Instruction)) {
	for i := range parsedCorpus(t) {
		pf := &corpusParsed[i]
		for j := range pf.f.Functions {
			f := &pf.f.Functions[j]
			for k := range f.Instructions {
				fn(pf, f, &f.Instructions[k])
			}
		}
	}
}

// sourceText returns the instruction text of line n (1-based): what lies between the address
// comment and the ';'.
func (pf *parsedFile) sourceText(n int) string {
	line := pf.lines[n-1]
	s := line[bytes.Index(line, []byte("*/"))+2:]
	if k := bytes.IndexByte(s, ';'); k >= 0 {
		s = s[:k]
	}
	return string(bytes.TrimSpace(s))
}

// golden compares got with testdata/name, or rewrites the file under -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./frontend/sass -update to create it)", err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w string
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Fatalf("%s differs at line %d:\ngot  %q\nwant %q\n(run go test ./frontend/sass -update and review the diff)", path, i+1, g, w)
			}
		}
	}
}

// globListings lists dir's files with extension ext, a gzipped one
// (NAME.sass.gz, as the repository keeps its largest listings) by the name
// without .gz, which readFile reads.
func globListings(dir, ext string) ([]string, error) {
	m, err := filepath.Glob(filepath.Join(dir, "*"+ext))
	if err != nil {
		return nil, err
	}
	gz, err := filepath.Glob(filepath.Join(dir, "*"+ext+".gz"))
	if err != nil {
		return nil, err
	}
	for _, p := range gz {
		m = append(m, strings.TrimSuffix(p, ".gz"))
	}
	sort.Strings(m)
	return m, nil
}
