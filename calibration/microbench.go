package calibration

import "fmt"

// microbenchRecipes describes microbench.csv's rows.
func microbenchRecipes(o Options) []recipe {
	var rs []recipe
	modes := []string{"converged", "divergent2", "divergent32", "elected_count1", "elected_arrive32"}
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		for m, name := range modes {
			iters := 2000
			if m == 2 {
				iters = 500
			}
			iters = o.iters(iters)
			it := float64(iters)
			rs = append(rs, recipe{file: "microbench.ptx", kernel: fmt.Sprintf("_Z13k_arrive_waitILi%dEEviPx", m),
				block: 32 * w, args: []string{fmt.Sprint(iters), "buf:8"}, outLen: 1,
				rows: []rowFn{{"arrive_wait_loop", fmt.Sprintf("%s_warps%d", name, w), "cycles_per_phase",
					func(out []int64) float64 { return float64(out[0]) / it }}}})
		}
	}
	const R = 64
	slice := func(k int) func([]int64) []int64 { return func(out []int64) []int64 { return out[k*R : (k+1)*R] } }
	lat := func(metric string, k int) rowFn {
		return rowFn{"latency", "single_thread", metric, func(out []int64) float64 { return median(slice(k)(out)) }}
	}
	rs = append(rs, recipe{file: "microbench.ptx", kernel: "_Z5k_latiPx", block: 1, args: []string{fmt.Sprint(R), "buf:4096"},
		outLen: 6*R + 1, rows: []rowFn{
			lat("clock_read_overhead", 0), lat("arrive_to_complete_try_wait", 1), lat("try_wait_on_completed_phase", 2),
			lat("arrive_then_dependent_store", 3), lat("arrive_to_complete_test_wait", 5),
			{"latency", "single_thread", "arrive_issue_interval_64_back_to_back", func(out []int64) float64 { return float64(out[4*R]) / 64 }},
		}})
	for _, try := range []bool{false, true} {
		kernel, cfg := "_Z6k_wakeILb0EEviPx", "test_wait_spin"
		if try {
			kernel, cfg = "_Z6k_wakeILb1EEviPx", "try_wait_loop"
		}
		d := func(out []int64) []int64 {
			var v []int64
			for r := 0; r < R; r++ {
				v = append(v, out[2*r+1]-out[2*r])
			}
			return v
		}
		rs = append(rs, recipe{file: "microbench.ptx", kernel: kernel, block: 64, args: []string{fmt.Sprint(R), "buf:1024"},
			outLen: 2 * R, rows: []rowFn{
				{"wake_latency", cfg, "median_cycles", func(out []int64) float64 { return median(d(out)) }},
				{"wake_latency", cfg, "min_cycles", func(out []int64) float64 { return minOf(d(out)) }},
			}})
	}
	const srcBytes = 256 << 20
	for _, size := range []int{16, 64, 256, 1024, 4096, 16384, 65536, 131072} {
		for _, dram := range []bool{false, true} {
			stride, cfg, first := 0, fmt.Sprintf("bytes%d_l2hit", size), 1
			if dram {
				stride, cfg, first = 2<<20, fmt.Sprintf("bytes%d_dram", size), 0
			}
			f := first
			rs = append(rs, recipe{file: "microbench.ptx", kernel: "_Z10k_bulk_latPKhmjmiPx", block: 1, smem: 128 << 10,
				args:   []string{"buf:256MiB:byte:0x3f", fmt.Sprint(srcBytes), fmt.Sprint(size), fmt.Sprint(stride), fmt.Sprint(R), "buf:512"},
				outLen: R, rows: []rowFn{{"bulk_copy_latency", cfg, "median_cycles", func(out []int64) float64 { return median(out[f:R]) }}}})
		}
	}
	batches := o.iters(200)
	for _, chunk := range []int{1024, 4096, 16384} {
		for _, l2 := range []bool{false, true} {
			k := (64 << 10) / chunk
			span, cfg := srcBytes, fmt.Sprintf("chunk%d_inflight64KiB_dram", chunk)
			if l2 {
				span, cfg = 2<<20, fmt.Sprintf("chunk%d_inflight64KiB_l2", chunk)
			}
			total := float64(batches * k * chunk)
			rs = append(rs, recipe{file: "microbench.ptx", kernel: "_Z9k_bulk_bwPKhmjiiPx", block: 1, smem: 2 * k * chunk,
				args:   []string{"buf:256MiB:byte:0x3f", fmt.Sprint(span), fmt.Sprint(chunk), fmt.Sprint(k), fmt.Sprint(batches), "buf:8"},
				outLen: 1, rows: []rowFn{{"bulk_copy_bandwidth_one_sm", cfg, "bytes_per_cycle",
					func(out []int64) float64 { return total / float64(out[0]) }}}})
		}
	}
	for _, box := range [][2]int{{32, 32}, {64, 64}, {64, 128}, {128, 128}} {
		w, h := box[0], box[1]
		tilesX := 8192 / w
		for _, dram := range []bool{false, true} {
			stride, cfg, first := 0, fmt.Sprintf("box%dx%d_fp16_l2hit", w, h), 1
			if dram {
				stride, cfg, first = tilesX+3, fmt.Sprintf("box%dx%d_fp16_dram", w, h), 0
			}
			f := first
			m := fmt.Sprintf("tensormap:f16,8192x16384,box=%dx%d,stride=16384,l2=128B", w, h)
			rs = append(rs, recipe{file: "microbench.ptx", kernel: "_Z11k_tma2d_lat14CUtensorMap_stiiiiiPx", block: 1, smem: 64 << 10,
				args:   []string{m, fmt.Sprint(w), fmt.Sprint(h), fmt.Sprint(tilesX), fmt.Sprint(R), fmt.Sprint(stride), "buf:512"},
				outLen: R, rows: []rowFn{{"tensor2d_copy_latency", cfg, "median_cycles", func(out []int64) float64 { return median(out[f:R]) }}}})
		}
	}
	return rs
}
