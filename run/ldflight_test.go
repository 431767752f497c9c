package run

import (
	"fmt"
	"strconv"
	"testing"
)

// h200LdFlight reads calibration/h200/ldflight.csv: the median of the three
// launches of each "place,V,K,W".
func h200LdFlight(t *testing.T) map[string]float64 {
	t.Helper()
	recs := h200CSV(t, "../calibration/h200/ldflight.csv")
	runs := map[string][]float64{}
	for _, rec := range recs {
		if len(rec) != 9 || rec[0] != "ldflight" || rec[1] == "place" {
			continue
		}
		c, err := strconv.ParseFloat(rec[6], 64)
		if err != nil {
			t.Fatalf("ldflight.csv: bad row %v", rec)
		}
		k := rec[1] + "," + rec[2] + "," + rec[3] + "," + rec[4]
		runs[k] = append(runs[k], c)
	}
	m := map[string]float64{}
	for k, v := range runs {
		m[k] = median(v)
	}
	return m
}

// ldFlight runs ldflight.cu's k_fl<k, v> on one CTA of w warps from the
// SASS the H200 ran, each warp streaming 32 KiB, from L2 (a second launch)
// or DRAM (a first), and returns its cycles.
func ldFlight(t *testing.T, place string, v, k, w int) float64 {
	t.Helper()
	launches := 1
	if place == "l2" {
		launches = 2
	}
	f := Spec{Kernel: fmt.Sprintf("k_fl<%d, %d>", k, v), Block: strconv.Itoa(32 * w), Launches: launches, Config: "h200",
		Args: []string{fmt.Sprintf("buf:%d", 32768*w), strconv.Itoa(32768 / (k * 128 * v)), "buf:16"}}
	j, err := f.Job("../calibration/h200/ldflight.sass")
	if err != nil {
		t.Fatal(err)
	}
	spec, err := ParseDump("2:i64:1")
	if err != nil {
		t.Fatal(err)
	}
	j.Dumps = []DumpSpec{spec}
	out, err := Execute(j)
	if err != nil || out.Err != nil {
		t.Fatalf("k_fl<%d, %d> on %d warps: %v %v", k, v, w, err, out.Err)
	}
	return float64(out.Dumps[0].Values[0].(int64))
}

// TestPlainLoadsInFlightMatchH200 runs one SM's plain-load streams
// (calibration/h200/ldflight.cu: 1, 8 and 32 warps, 128- and 512-byte warp
// loads) from the SASS the H200 ran. From L2 each row of 1 and 8 warps, and
// of 32 warps of 512-byte loads, must come within 10 % of the H200: what a
// warp keeps in flight is the SASS's (its loads between two uses of their
// registers), and no limit on a warp's or an SM's outstanding misses is
// missing. 32 warps of 128-byte loads (-8 to +13 %) are held only to not
// being slower than 13 %: how many one-line requests the SM turns around a
// cycle was not measured apart. At 32 warps the rows depend on how the
// warps' requests bunch on the request path (mem.up_packets_per_cycle)
// after each __syncthreads: taking the L1 path's translation cache out of
// the model (it was a stand-in for the host copy's cost, l1tlb.csv) moved
// them by -5 to +8 points, their mean error staying 7.5-7.8 %, so 32-warp
// rows are held within 13 %.
// From DRAM smsim is 9-37 % fast (the per-line turn of one warp's burst at
// DRAM is not modelled, docs/clusters.md):
// those rows must not come out slower than the H200 by more than 10 %.
func TestPlainLoadsInFlightMatchH200(t *testing.T) {
	if testing.Short() {
		t.Skip("streams up to 1 MiB of plain loads on one SM, 36 times")
	}
	h := h200LdFlight(t)
	for _, place := range []string{"l2", "dram"} {
		for _, kv := range [][2]int{{4, 1}, {1, 4}, {4, 4}, {16, 4}, {2, 1}, {16, 1}} {
			for _, w := range []int{1, 8, 32} {
				k, v := kv[0], kv[1]
				key := fmt.Sprintf("%s,%d,%d,%d", place, v, k, w)
				want, ok := h[key]
				if !ok {
					t.Fatalf("ldflight.csv has no %s", key)
				}
				got := ldFlight(t, place, v, k, w)
				e := got/want - 1
				t.Logf("%s: %.0f cycles, H200 %.0f (%+.1f %%)", key, got, want, 100*e)
				held := place == "l2" && (w <= 8 || v == 4)
				tol := 0.10
				if w == 32 {
					tol = 0.13
				}
				if e > tol || (held && e < -tol) {
					t.Errorf("%s (V words a lane, K loads a thread, W warps): %.0f cycles, H200 %.0f (%+.1f %%)", key, got, want, 100*e)
				}
			}
		}
	}
}
