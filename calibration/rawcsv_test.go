package calibration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The tensor-core files are read in their probes' columns: every measured
// cycle count a row (wgmma_timing.csv's 14 kernels by 11 launches, both
// columns of tma_swizzle.csv's 28 configurations), an agent's 0 none, and
// each row's key one a recipe computes.
func TestRawFilesBecomeSuiteRows(t *testing.T) {
	dir := DefaultDir()
	keys := map[string]bool{}
	for _, r := range recipes(dir, Options{}) {
		for _, row := range r.rows {
			keys[r.csvFile()+":"+row.key()] = true
		}
	}
	for name, want := range map[string]int{"wgmma_timing.csv": 154, "wgmma_rate.csv": 32, "wgmma_share.csv": 12,
		"stg_wgmma.csv": 36, "tma_swizzle.csv": 56} {
		rows, err := readCSV(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != want {
			t.Errorf("%s: %d rows, want %d", name, len(rows), want)
		}
		for _, m := range rows {
			if m.value == 0 || !keys[name+":"+m.key()] {
				t.Errorf("%s: row %s (%g) has no recipe or is 0", name, m.key(), m.value)
			}
		}
	}
}

// A raw file whose header is not the probe's is refused, not misread.
func TestRawFileWithAnotherHeaderIsRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "wgmma_rate.csv")
	if err := os.WriteFile(p, []byte("bench,config,metric,value\nwgmma_rate,x,cycles,1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readCSV(p); err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("got %v, want an error naming the header", err)
	}
}
