package run

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// An SM's constant loads and its barrier operations share one port
// (testdata/cuda/wgmma/mio_share.cu, from its SASS): half of a CTA's warps
// arrive back to back while the other half load constants, and together
// they take about the sum of their times, 2 cycles an operation of either
// kind (syncs.ldc_cost). smsim holds the mix's length (its slower group's,
// as both start together) within 8 % for eight-chain and one-chain loaders
// at 8, 16 and 32 warps; without the shared port the 32-warp mixes finish
// 35-40 % early. Not held: how the port is split between the two groups
// while both run (smsim lets the loads through sooner).
func TestConstantLoadsShareTheBarrierPortLikeH200(t *testing.T) {
	h200 := map[string]float64{} // kernel,warps -> the slower group's span
	for _, r := range wgmmaCSV(t, "mio_share.csv") {
		if r[0] != "arr_l8" && r[0] != "arr_l1" {
			continue
		}
		w, _ := strconv.Atoi(r[1])
		v, _ := strconv.ParseFloat(r[3], 64)
		k := r[0] + "," + r[1]
		h200[k] = max(h200[k], v*float64(w/2)*64*8)
	}
	span := func(kernel string, warps int, sets ...string) float64 {
		b := runBuffer(t, Spec{Kernel: kernel, Block: strconv.Itoa(32 * warps), Grid: "1", Launches: 1, Config: "h200",
			Args: []string{"0", "buf:640"}, Sets: sets}, "../testdata/cuda/wgmma/mio_share.sass", "1", 16*warps)
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for w := 0; w < warps; w++ {
			lo = min(lo, int64(binary.LittleEndian.Uint64(b[16*w:])))
			hi = max(hi, int64(binary.LittleEndian.Uint64(b[16*w+8:])))
		}
		return float64(hi - lo)
	}
	if len(h200) != 6 {
		t.Fatalf("mio_share.csv: %d mixes, want 6", len(h200))
	}
	for _, kernel := range []string{"arr_l8", "arr_l1"} {
		for _, warps := range []int{8, 16, 32} {
			want := h200[kernel+","+strconv.Itoa(warps)]
			got := span(kernel, warps)
			if e := got/want - 1; math.Abs(e) > 0.08 {
				t.Errorf("%s, %d warps: %.0f cycles, the H200 %.0f (%+.1f %%): want within 8 %%", kernel, warps, got, want, 100*e)
			}
		}
	}
	want := h200["arr_l8,32"]
	if got := span("arr_l8", 32, "syncs.ldc_cost=0"); got/want-1 > -0.25 {
		t.Errorf("arr_l8 without a shared port: %.0f cycles against the H200's %.0f; want the mix 25 %% short", got, want)
	}
}

// With that port an SM serves one constant load every syncs.ldc_cost
// cycles, whatever the number of warps (testdata/cuda/wgmma/ldc_rate.cu,
// from its SASS: eight chains of LDCs a warp, 14.6 cycles a load with one
// warp, the chains' latency, and 2.03 from 16 warps). smsim holds every row
// within 5 %.
func TestConstantLoadRateLikeH200(t *testing.T) {
	for _, r := range wgmmaCSV(t, "ldc_rate.csv") {
		warps, _ := strconv.Atoi(r[1])
		want, _ := strconv.ParseFloat(r[2], 64)
		b := runBuffer(t, Spec{Kernel: r[0], Block: strconv.Itoa(32 * warps), Grid: "1", Launches: 1, Config: "h200",
			Args: []string{"0", "buf:640"}}, "../testdata/cuda/wgmma/ldc_rate.sass", "1", 16*warps)
		lo, hi := int64(math.MaxInt64), int64(math.MinInt64)
		for w := 0; w < warps; w++ {
			lo = min(lo, int64(binary.LittleEndian.Uint64(b[16*w:])))
			hi = max(hi, int64(binary.LittleEndian.Uint64(b[16*w+8:])))
		}
		got := float64(hi-lo) / float64(warps*256*8)
		if e := got/want - 1; math.Abs(e) > 0.05 {
			t.Errorf("%s, %d warps: %.3f cycles a load, the H200 %.3f (%+.1f %%): want within 5 %%", r[0], warps, got, want, 100*e)
		}
	}
}
