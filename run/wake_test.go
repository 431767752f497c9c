package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// A try_wait by one lane of a warp whose other lanes wait at __syncwarp
// does not suspend on the H200: its warp polls, through the retry loop's
// YIELD, so its wake-up after another warp's arrive depends on when the
// arrive comes (testdata/cuda/wgmma/wake_sweep.cu, from its SASS: 120-266
// cycles over arrivals 100-3000 cycles after the wait began, a sawtooth of
// period ~150), where a whole waiting warp wakes 101 cycles after it every
// time. smsim holds the whole warp's within 8 %, and the polling lane's
// mean, least and greatest within 8 %. Not held: the lane whose other lanes
// wait at a BSYNC (it polls for arrivals within ~165 cycles of its wait,
// then wakes 119 cycles after the arrive; smsim 102, no polling).
func TestDivergedWaitPollsLikeH200(t *testing.T) {
	h200 := map[string][]float64{}
	var delays []int
	for _, r := range wgmmaCSV(t, "wake_sweep.csv") {
		v, _ := strconv.ParseFloat(r[2], 64)
		h200[r[0]] = append(h200[r[0]], v)
		if r[0] == "wa" {
			d, _ := strconv.Atoi(r[1])
			delays = append(delays, d)
		}
	}
	wake := func(kernel string, delay int) float64 {
		b := runBuffer(t, Spec{Kernel: kernel, Block: "64", Grid: "1", Launches: 1, Config: "h200",
			Args: []string{strconv.Itoa(delay), "buf:512"}}, "../testdata/cuda/wgmma/wake_sweep.sass", "1", 16)
		return float64(int64(binary.LittleEndian.Uint64(b[8:])) - int64(binary.LittleEndian.Uint64(b)))
	}
	stats := func(v []float64) (mean, lo, hi float64) {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, x := range v {
			mean += x / float64(len(v))
			lo, hi = min(lo, x), max(hi, x)
		}
		return
	}
	within := func(what string, got, want, tol float64) {
		if e := (got - want) / want; math.Abs(e) > tol {
			t.Errorf("%s: %.1f cycles, the H200 %.1f (%+.1f %%): want within %g %%", what, got, want, 100*e, 100*tol)
		}
	}
	for _, k := range []string{"wa", "we"} {
		var got []float64
		for _, d := range delays {
			got = append(got, wake(k, d))
		}
		gm, gl, gh := stats(got)
		wm, wl, wh := stats(h200[k])
		within(k+" mean", gm, wm, 0.08)
		within(k+" least", gl, wl, 0.08)
		within(k+" greatest", gh, wh, 0.08)
	}
}
