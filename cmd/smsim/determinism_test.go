package main

import (
	"runtime"
	"testing"
)

// Output is byte-identical whatever GOMAXPROCS is: one run is single-threaded.
func TestOutputDoesNotDependOnGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var first string
	for _, n := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(n)
		code, out, errs := cli(t, "run", "../../examples/tma_pipeline.sms", "-o", "csv", "--report", "phases", "--report", "warps")
		if code != 0 {
			t.Fatalf("GOMAXPROCS=%d: exit %d: %s", n, code, errs)
		}
		if first == "" {
			first = out
		} else if out != first {
			t.Errorf("GOMAXPROCS=%d: output differs from GOMAXPROCS=1", n)
		}
	}
}
