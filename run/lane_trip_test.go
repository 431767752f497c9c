package run

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"testing"
)

// A loop trip run by one lane costs what it costs the whole warp, on the
// H200 and in smsim (testdata/cuda/wgmma/lane_trip.cu, from its SASS): an
// arrive on a barrier of count 1, the try_wait loop on its phase and a
// shared store, 62.78 cycles a trip on the H200 whether every lane, lane 0
// or an elected lane runs it; the store alone 19.45. So ring_hop8.cu's
// single-lane producer is not slow for being one lane (docs/model.md).
func TestLaneTripMatchesH200(t *testing.T) {
	const iters = 1024
	for _, r := range wgmmaCSV(t, "lane_trip.csv") {
		mode, _ := strconv.Atoi(r[0])
		want, _ := strconv.ParseFloat(r[1], 64)
		t.Run(fmt.Sprintf("mode%d", mode), func(t *testing.T) {
			b := runBuffer(t, Spec{Kernel: "lane_trip", Block: "32", Grid: "1", Launches: 2, Config: "h200",
				Args: []string{strconv.Itoa(mode), "buf:8"}}, "../testdata/cuda/wgmma/lane_trip.sass", "1", 8)
			got := float64(int64(binary.LittleEndian.Uint64(b))) / iters
			if e := (got - want) / want; math.Abs(e) > 0.06 {
				t.Errorf("%.2f cycles a trip, the H200 %.2f (%+.1f %%): want within 6 %%", got, want, 100*e)
			}
		})
	}
}
