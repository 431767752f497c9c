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
	return csvRows(t, "../testdata/cuda/wgmma/"+name)
}

// calibCSV reads calibration/h200/NAME, a tensor-core file of the
// calibration suite, in the columns its probe printed (the suite reads
// the same file: calibration/rawcsv.go).
func calibCSV(t *testing.T, name string) [][]string {
	t.Helper()
	return csvRows(t, "../calibration/h200/"+name)
}

// csvRows returns the rows of the CSV at path after its header.
func csvRows(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: no rows after its header", path)
	}
	return rows[1:]
}
