package run

import (
	"strconv"
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
	rows := h200CSV(t, path)
	if len(rows) < 2 {
		t.Fatalf("%s: no rows after its header", path)
	}
	return rows[1:]
}

// byMode keys rows of mode,a,b,c (a probe's three timings a mode) by mode.
func byMode(rows [][]string) map[int][3]int64 {
	out := map[int][3]int64{}
	for _, r := range rows {
		m, _ := strconv.Atoi(r[0])
		var v [3]int64
		for i := range v {
			v[i], _ = strconv.ParseInt(r[1+i], 10, 64)
		}
		out[m] = v
	}
	return out
}
