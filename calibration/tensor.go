package calibration

import "fmt"

// The tensor-core files (calibration/h200/README.md, "Tensor cores"; their
// CSVs are read in the probes' own columns, rawcsv.go). Each recipe runs as
// the run/ component test of its file does, and computes its rows from out
// as the .cu's host code does.

// wgmmaTimingRecipes describes wgmma_timing.csv (wgmma_probe.cu's tm_*
// kernels): one CTA of one or two warpgroups, each warp running a chain of
// wgmma of one shape and type (mode 0: back to back, one commit; 1: each
// committed and waited for with wait_group 0; 2: wait_group 1), every warp
// stamping clock64 at its start and end (three words a warp). The row is
// the last warp's end less the first warp's start (the host: best of its
// second and third launch; one launch here, as run/wgmma_timing_test.go).
func wgmmaTimingRecipes() []recipe {
	kernels := []string{"f16_f32_n256_ss", "f16_f32_n128_ss", "f16_f32_n64_ss", "f16_f32_n32_ss", "f16_f32_n16_ss",
		"f16_f32_n8_ss", "f16_f32_n256_rs", "f16_f16_n256_ss", "bf16_f32_n256_ss", "tf32_f32_n256_ss", "e4m3_f32_n256_ss",
		"e4m3_f16_n256_ss", "s8_s32_n224_ss", "s8_s32_n128_ss"}
	runs := [][3]int{{1, 0, 1}, {1, 0, 2}, {1, 0, 8}, {1, 0, 64}, {1, 0, 256}, {1, 1, 1}, {1, 1, 32}, {1, 2, 32},
		{2, 0, 64}, {2, 0, 256}, {2, 1, 32}} // warpgroups, mode, wgmma
	var rs []recipe
	for _, k := range kernels {
		for _, r := range runs {
			wgs, mode, iters := r[0], r[1], r[2]
			rs = append(rs, recipe{file: "wgmma_probe.ptx", csv: "wgmma_timing.csv", kernel: "tm_" + k, block: 128 * wgs,
				smem: 8192 + 256*128 + 1024, args: []string{"buf:192", fmt.Sprint(iters), fmt.Sprint(mode)}, outArg: "0",
				outLen: 12 * wgs, rows: []rowFn{{"wgmma_timing", fmt.Sprintf("%s_wg%d_mode%d_iters%d", k, wgs, mode, iters),
					"cycles", warpSpan(4 * wgs)}}})
		}
	}
	return rs
}

// warpSpan is the span of n warps' clock stamps, each warp's start and
// end the first two of its three words: the last end less the first start.
func warpSpan(n int) func([]int64) float64 {
	return func(o []int64) float64 {
		lo, hi := o[0], o[1]
		for w := 0; w < n; w++ {
			lo, hi = min(lo, o[3*w]), max(hi, o[3*w+1])
		}
		return float64(hi - lo)
	}
}

// wgmmaRateRecipes describes wgmma_rate.csv: one or two warpgroups each
// issuing G groups of four m64n128 wgmma (f16 k16 or e4m3 k32) from shared
// memory, each group committed and waited for with wait_group LAG; thread 0
// of each warpgroup times its loop. The row is the slower warpgroup's
// cycles (the host: best of its second and third launch; one here, as
// run/wgmma_rate_test.go).
func wgmmaRateRecipes() []recipe {
	var rs []recipe
	for _, wgs := range []int{1, 2} {
		for _, groups := range []int{1, 4, 16, 64} {
			for _, c := range []struct{ fp8, lag int }{{0, 1}, {0, 0}, {1, 1}, {1, 0}} {
				typ := map[int]string{0: "f16", 1: "e4m3"}[c.fp8]
				rs = append(rs, recipe{file: "wgmma_rate.ptx", kernel: fmt.Sprintf("_Z4rateILb%dELi%dEEviPx", c.fp8, c.lag),
					block: 128 * wgs, smem: 25600, args: []string{fmt.Sprint(groups), "buf:16"}, outLen: 2,
					rows: []rowFn{{"wgmma_rate", fmt.Sprintf("%s_wg%d_lag%d_groups%d", typ, wgs, c.lag, groups), "cycles",
						slowerOf(wgs)}}})
			}
		}
	}
	return rs
}

// slowerOf is the larger of the first wgs words.
func slowerOf(wgs int) func([]int64) float64 {
	return func(o []int64) float64 {
		if wgs == 2 {
			return float64(max(o[0], o[1]))
		}
		return float64(o[0])
	}
}

// wgmmaShareRecipes describes wgmma_share.csv: up to three agents of one
// CTA, each timing itself, chosen by the mode's bits: warpgroup 0's stream
// of 64 groups of four m64n128k16 (bit 0), one thread's 128 16-KiB bulk
// copies from L2, four in flight (bit 1), three warps' 128-bit shared loads
// (bit 2; ptxas hoisted them out of the loop). The host's row is its third
// launch; the second here (the source in L2), as run/wgmma_share_test.go.
func wgmmaShareRecipes() []recipe {
	var rs []recipe
	for _, mode := range []int{1, 2, 4, 3, 5, 6, 7} {
		rs = append(rs, recipe{file: "wgmma_share.ptx", kernel: "_Z5shareiPKhPxPj", block: 256, smem: 24576 + 65536 + 16384 + 1024,
			args: []string{fmt.Sprint(mode), "buf:1048576", "buf:32", "buf:8"}, outArg: "2", outLen: 3, launches: 2,
			rows: agentRows("wgmma_share", mode, []string{"wgmma_cycles", "copy_cycles", "lds_cycles"}, []int{1, 2, 4})})
	}
	return rs
}

// agentRows are a mode's rows of out's words 0-2, one for each agent the
// mode runs (mode&bits[i] != 0), named by metrics.
func agentRows(bench string, mode int, metrics []string, bits []int) []rowFn {
	var rows []rowFn
	for i, m := range metrics {
		if mode&bits[i] != 0 {
			rows = append(rows, rowFn{bench, fmt.Sprintf("mode%d", mode), m, func(o []int64) float64 { return float64(o[i]) }})
		}
	}
	return rows
}

// stgWgmmaRecipes describes stg_wgmma.csv: warpgroup 0's wgmma stream
// (mode bit 0) beside warpgroup 1's 512 memory instructions a thread of
// pattern mode>>1 (bits 1-3: global stores of four shapes, STS, LDS, warp 4
// alone), warp 4's first thread stamping after its instructions and after a
// __threadfence. The host's row is its third launch; the second here (the
// stores' lines in L2), as run/stg_wgmma_test.go. Modes 2, 3, 10, 11, 14, 15
// (eight one-sector lines a store) are not modelled (docs/model.md).
func stgWgmmaRecipes() []recipe {
	var rs []recipe
	for mode := 1; mode < 16; mode++ {
		rs = append(rs, recipe{file: "stg_wgmma.ptx", kernel: "stg_wgmma", block: 256, smem: 24576 + 8192 + 1024,
			args: []string{fmt.Sprint(mode), "buf:8388608", "buf:32", "buf:8"}, outArg: "2", outLen: 3, launches: 2,
			rows: agentRows("stg_wgmma", mode, []string{"wgmma_cycles", "mem_issue_cycles", "mem_done_cycles"}, []int{1, 14, 14})})
	}
	return rs
}

// tmaSwizzleRecipes describes tma_swizzle.csv: one thread's tensor copies
// of 8 and 16 KiB boxes (f16 64x64 and 64x128 of a 1024x512 tensor) and 1-D
// copies of the same bytes, alone or several on one barrier (mode 0-6),
// through maps of four variants (bit 0: 128B swizzle, bit 1: L2 promotion
// 128B), every copy an L2 hit; 34 copies, each from before its expect_tx to
// after its wait. The rows: median (the mean of the middle two) and minimum
// of copies 3-34.
func tmaSwizzleRecipes() []recipe {
	const reps = 34
	var rs []recipe
	for variant := 0; variant < 4; variant++ {
		swizzle, l2 := map[int]string{0: "none", 1: "128B"}[variant&1], map[int]string{0: "none", 2: "128B"}[variant&2]
		for mode := 0; mode < 7; mode++ {
			cfg := fmt.Sprintf("variant%d_mode%d", variant, mode)
			rs = append(rs, recipe{file: "tma_swizzle.ptx", kernel: "lat", block: 32, smem: 66560, args: []string{
				fmt.Sprintf("tensormap:f16,1024x512,box=64x64,swizzle=%s,l2=%s,buf=2", swizzle, l2),
				fmt.Sprintf("tensormap:f16,1024x512,box=64x128,swizzle=%s,l2=%s,buf=2", swizzle, l2),
				"buf:1048576:byte:1", fmt.Sprint(mode), fmt.Sprintf("buf:%d", 8*reps)}, outLen: reps,
				rows: []rowFn{{"tma_swizzle", cfg, "median_cycles", func(o []int64) float64 { return median(o[2:]) }},
					{"tma_swizzle", cfg, "min_cycles", func(o []int64) float64 { return minOf(o[2:]) }}}})
		}
	}
	return rs
}
