package run

import (
	"encoding/csv"
	"os"
	"testing"
)

// h200CSV reads a CSV file of the H200's measurements, its rows of any
// width, failing t if it cannot.
func h200CSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
