package main

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/sm"
)

// TestHandWrittenSASSRuns runs testdata/sass/ops.sass, a listing written by
// hand (no cubin, no encodings) around the SASS forms the corpus's runs do
// not reach: ATOMS.CAST.SPIN (the fall-back loop of generic 64-bit
// atomics), QSPC, P2R, BMOV of a convergence barrier, VOTE.EQ.
func TestHandWrittenSASSRuns(t *testing.T) {
	src, err := loadSource(filepath.Join("testdata", "sass", "ops.sass"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := src.kernel("ops")
	if err != nil {
		t.Fatal(err)
	}
	j := &job{src: src, prog: prog, cfg: sm.DefaultConfig(), block: [3]int{1, 1, 1}, grid: [3]int{1, 1, 1}, smem: 16,
		args: []string{"buf:64"}, launches: 1, maxCycles: 1_000_000, dumps: []dumpSpec{{name: "0", typ: "u32", count: 6}}}
	out, err := execute(j)
	if err == nil {
		err = out.runErr
	}
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(out.dumps[0].values)
	// CAST stores once (1) and then fails (0); memory holds 9; P0 (shared)
	// set, P1 (global) clear; B1 held lane 0; VOTE.EQ of one lane holds.
	if want := "[1 0 9 1 1 1]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
