package run

import (
	"encoding/csv"
	"os"
	"testing"
)

// wgmmaCSV reads testdata/cuda/wgmma/NAME and returns its rows after the
// header, failing the test if it cannot.
func wgmmaCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open("../testdata/cuda/wgmma/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: no rows after its header", name)
	}
	return rows[1:]
}
