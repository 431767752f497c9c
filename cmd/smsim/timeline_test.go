package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// The timeline of a run is the same bytes every time, whatever GOMAXPROCS:
// warps' last spans, barrier tracks and copies come in a fixed order.
func TestTimelineIsByteIdenticalAcrossRunsAndGOMAXPROCS(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, ex := range []string{"tma_pipeline.sms", "double_buffer.sms", "entangle_lanes.sms"} {
		t.Run(ex, func(t *testing.T) {
			var first []byte
			for i, procs := range []int{1, 2, 4, 1, 3} {
				runtime.GOMAXPROCS(procs)
				tl := filepath.Join(t.TempDir(), "t.json")
				if code, _, errs := cli(t, "run", filepath.Join("..", "..", "examples", ex), "--timeline", tl, "--report", "summary"); code != 0 {
					t.Fatalf("exit %d: %s", code, errs)
				}
				b, err := os.ReadFile(tl)
				if err != nil {
					t.Fatal(err)
				}
				if !json.Valid(b) {
					t.Fatalf("GOMAXPROCS=%d: the timeline is not valid JSON", procs)
				}
				if i == 0 {
					first = b
				} else if !bytes.Equal(b, first) {
					t.Fatalf("run %d (GOMAXPROCS=%d) wrote a different timeline from run 0", i, procs)
				}
			}
		})
	}
}
