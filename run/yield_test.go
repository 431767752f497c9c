package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// A YIELD hands a diverged warp to another of its paths, and that costs
// the H200 about 100 cycles when the other lanes wait at a __syncwarp, 45
// at the BSYNC closing an if, nothing when the warp is whole or its other
// lanes have exited (testdata/cuda/wgmma/trip_parts.cu, yield_div.cu,
// yield_park.cu, from their SASS: one lane loops around a ring of four
// barriers; ptxas puts a YIELD in the trip when the wait's form is chosen
// at run time). Every kernel's trip within 6 %. Not held: yield_park's
// "two" (two looping paths of one warp), "pp_e" and "pp_a" (two warps
// passing a token: smsim's hand-off is the known pingpong.csv miss, and
// the elected lanes' is slower still on the H200; docs/model.md).
func TestYieldTripsMatchH200(t *testing.T) {
	const iters = 1024
	cases := []struct {
		file, kernel string
		block, outs  int
	}{
		{"trip_parts", "tp0", 32, 2}, {"trip_parts", "tp1", 32, 2}, {"trip_parts", "tp2", 32, 2},
		{"trip_parts", "tp3", 32, 2}, {"trip_parts", "tp4", 32, 2}, {"trip_parts", "tp5", 32, 2},
		{"trip_parts", "tp6", 32, 2},
		{"yield_div", "w_a", 32, 1}, {"yield_div", "w_x", 32, 1}, {"yield_div", "w_e", 32, 1},
		{"yield_div", "w_s", 32, 1}, {"yield_div", "p_a", 32, 1}, {"yield_div", "p_x", 32, 1},
		{"yield_div", "p_e", 32, 1}, {"yield_div", "p_s", 32, 1},
		{"yield_park", "bs", 32, 33}, {"yield_park", "half", 32, 1}, {"yield_park", "w4", 128, 1},
	}
	h200 := map[string]float64{}
	for _, f := range []string{"trip_parts", "yield_div", "yield_park"} {
		for _, r := range wgmmaCSV(t, f+".csv") {
			h200[f+"/"+r[0]], _ = strconv.ParseFloat(r[1], 64)
		}
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.kernel, func(t *testing.T) {
			want, ok := h200[c.file+"/"+c.kernel]
			if !ok {
				t.Fatalf("no H200 row for %s", c.kernel)
			}
			b := runBuffer(t, Spec{Kernel: c.kernel, Block: strconv.Itoa(c.block), Grid: "1", Launches: 2, Config: "h200",
				Args: []string{"1", "buf:" + strconv.Itoa(8*c.outs)}}, "../testdata/cuda/wgmma/"+c.file+".sass", "1", 8*c.outs)
			got := float64(int64(binary.LittleEndian.Uint64(b))) / iters
			if e := (got - want) / want; math.Abs(e) > 0.06 {
				t.Errorf("%.2f cycles a trip, the H200 %.2f (%+.1f %%): want within 6 %%", got, want, 100*e)
			}
		})
	}
}
