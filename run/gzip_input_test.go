package run

import (
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipFile writes src gzipped to path.
func gzipFile(t *testing.T, path string, src []byte) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(src); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLoadReadsAGzippedKernelFile: a kernel file may be kept gzipped, asked
// for by its own name (k.ptx.gz) or by the name without .gz where only the
// gzipped file exists (k.sass for k.sass.gz, as the repository keeps its
// largest listings); the source goes by the name without .gz, and the cubin
// beside it is found by that name. A file that is not gzip, or unpacks past
// the limit, is an input error.
func TestLoadReadsAGzippedKernelFile(t *testing.T) {
	dir := t.TempDir()
	ptx, err := os.ReadFile(filepath.Join("testdata", "names.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	gzipFile(t, filepath.Join(dir, "k.ptx.gz"), ptx)
	probe := filepath.Join("..", "calibration", "h200", "wgmma_probe") // kept gzipped; needs its cubin
	cubin, err := os.ReadFile(probe + ".cubin")
	if err != nil {
		t.Fatal(err)
	}
	listing, err := os.ReadFile(probe + ".sass.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.sass.gz"), listing, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p.cubin"), cubin, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.ptx.gz"), ptx, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, file, err string }{
		{filepath.Join(dir, "k.ptx.gz"), filepath.Join(dir, "k.ptx"), ""},
		{filepath.Join(dir, "p.sass"), filepath.Join(dir, "p.sass"), ""},
		{filepath.Join(dir, "p.sass.gz"), filepath.Join(dir, "p.sass"), ""},
		{filepath.Join(dir, "p.cubin"), filepath.Join(dir, "p.sass"), ""},
		{filepath.Join(dir, "bad.ptx.gz"), "", "bad.ptx.gz: not a gzip file"},
		{filepath.Join(dir, "none.ptx"), "", "none.ptx: no such file or directory"},
	} {
		src, err := Load(c.path)
		if c.err != "" {
			if err == nil || ExitStatus(err) != ExitInput || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got %v (exit %d), want an input error with %q", c.path, err, ExitStatus(err), c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		if src.File != c.file || len(src.Kernels) == 0 {
			t.Errorf("%s: source %q with %d kernels, want %q with some", c.path, src.File, len(src.Kernels), c.file)
		}
	}
	// The limit holds for the bytes a frontend reads: a small archive of many
	// bytes is refused.
	gzipFile(t, filepath.Join(dir, "big.ptx.gz"), bytes.Repeat([]byte("// padding\n"), 200))
	if _, _, err := readKernelFile(filepath.Join(dir, "big.ptx.gz"), "kernel file", 1000); err == nil ||
		!strings.Contains(err.Error(), "larger than") {
		t.Errorf("2,200 bytes unpacked under a limit of 1,000: got %v, want the limit's error", err)
	}
}
