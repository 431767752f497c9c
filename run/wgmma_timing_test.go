package run

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"testing"
)

// wgmmaTiming is one row of calibration/h200/wgmma_timing.csv: the
// cycles (clock64, first warp's start to last warp's end) of one launch
// of a timing kernel of wgmma_probe.cu on the H200.
type wgmmaTiming struct {
	kernel           string
	wgs, mode, iters int
	cycles           float64
}

func loadWgmmaTimings(t *testing.T) []wgmmaTiming {
	t.Helper()
	rows := calibCSV(t, "wgmma_timing.csv")
	var out []wgmmaTiming
	for _, r := range rows {
		wgs, _ := strconv.Atoi(r[3])
		mode, _ := strconv.Atoi(r[4])
		iters, _ := strconv.Atoi(r[5])
		cyc, _ := strconv.ParseFloat(r[6], 64)
		out = append(out, wgmmaTiming{"tm_" + r[0], wgs, mode, iters, cyc})
	}
	return out
}

// simWgmmaTiming runs a timing kernel as the H200 ran it and returns its
// clock64 span.
func simWgmmaTiming(t *testing.T, file string, r wgmmaTiming) float64 {
	t.Helper()
	b := runBuffer(t, Spec{Kernel: r.kernel, Block: strconv.Itoa(128 * r.wgs), Grid: "1", Smem: "41984", Launches: 1,
		Config: "h200", Args: []string{"buf:192", strconv.Itoa(r.iters), strconv.Itoa(r.mode)}}, file, "0", 8*3*4*r.wgs)
	lo, hi := int64(-1), int64(0)
	for w := 0; w < 4*r.wgs; w++ {
		t0 := int64(binary.LittleEndian.Uint64(b[24*w:]))
		t1 := int64(binary.LittleEndian.Uint64(b[24*w+8:]))
		if lo < 0 || t0 < lo {
			lo = t0
		}
		hi = max(hi, t1)
	}
	return float64(hi - lo)
}

// The tensor pipes' timing against the H200's, on the SASS it ran
// (wgmma_probe.sass, its control bits from the cubin): chains of wgmma of
// every shape and type, back to back (ptxas serialised them:
// WARPGROUP.DEPBAR after each HGMMA), with commit and wait_group 0, and
// with wait_group 1, of one warpgroup and of two sharing the pipes, from one
// wgmma to 256.
func TestWgmmaTimingMatchesH200(t *testing.T) {
	rows := loadWgmmaTimings(t)
	errs := make([]float64, len(rows))
	t.Run("rows", func(t *testing.T) {
		for i, r := range rows {
			t.Run(fmt.Sprintf("%s/wg%d/mode%d/%d", r.kernel, r.wgs, r.mode, r.iters), func(t *testing.T) {
				t.Parallel()
				s := simWgmmaTiming(t, "../calibration/h200/wgmma_probe.sass", r)
				errs[i] = (s - r.cycles) / r.cycles
				if math.Abs(errs[i]) > 0.07 {
					t.Errorf("%.0f cycles, the H200 %.0f (%+.1f %%)", s, r.cycles, 100*errs[i])
				}
			})
		}
	})
	if len(rows) != 154 {
		t.Fatalf("compared %d rows, want the 154 of wgmma_timing.csv", len(rows))
	}
	sum, worst := 0.0, 0.0
	for _, e := range errs {
		sum, worst = sum+math.Abs(e), max(worst, math.Abs(e))
	}
	if sum/float64(len(rows)) > 0.02 {
		t.Errorf("mean |error| %.2f %%, want within 2 %%", 100*sum/float64(len(rows)))
	}
	t.Logf("%d rows, mean |error| %.2f %%, worst %.2f %%", len(rows), 100*sum/float64(len(rows)), 100*worst)
}
