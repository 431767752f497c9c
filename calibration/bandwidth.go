package calibration

import "fmt"

// membwRecipes describes membw.csv: bulk-copy streaming against the bytes in flight, rings of 1 to 16 chunks (calibration/h200/membw.cu).
func membwRecipes() []recipe {
	var rs []recipe
	type ring struct{ chunk, k, nb int }
	rings := []ring{{16384, 1, 1}, {16384, 1, 2}, {16384, 1, 4}, {16384, 1, 8}, {16384, 2, 2}, {16384, 2, 4},
		{16384, 4, 1}, {16384, 4, 2}, {16384, 4, 3}, {4096, 4, 2}, {4096, 16, 1}, {4096, 16, 2},
		{65536, 1, 1}, {65536, 1, 2}, {65536, 1, 3}, {32768, 2, 2}, {32768, 1, 4}}
	for _, kernel := range []string{"bulk_ring", "bulk_ring2"} {
		for _, g := range rings {
			for _, l2 := range []bool{false, true} {
				batches := max(16, (12<<20)/(g.chunk*g.k))
				span, where, launches := 256<<20, "dram", 1 // a fresh run: L2 as cold as after the flush
				if l2 {
					batches, span, where, launches = batches/4, 2<<20, "l2", 2
				}
				bytes := float64(batches * g.k * g.chunk)
				rs = append(rs, recipe{file: "membw.ptx", kernel: kernel, block: 1, smem: g.nb * g.k * g.chunk,
					args: []string{fmt.Sprintf("buf:%d", span), fmt.Sprint(span), fmt.Sprint(g.chunk), fmt.Sprint(g.k),
						fmt.Sprint(g.nb), fmt.Sprint(batches), "buf:64"},
					outLen: 1, launches: launches,
					rows: []rowFn{{kernel, fmt.Sprintf("chunk%d_k%d_slots%d_inflight%dKiB_%s", g.chunk, g.k, g.nb,
						g.nb*g.k*g.chunk>>10, where), "bytes_per_cycle", func(out []int64) float64 { return bytes / float64(out[0]) }}}})
			}
		}
	}
	return rs
}

// bulkBWRecipes describes bulkbw.csv (calibration/h200/bulkbw.cu):
// microbench.cu's bandwidth kernel and variants without the waits, with eight
// destination slots, or without the source offset's wrap, and the no-wait
// stream at 1 to 16 batches; cycles per copy, the second launch.
func bulkBWRecipes() []recipe {
	names := []string{"microbench", "nowait", "slots8", "nowrap"}
	one := func(mode, chunk, batches, kk int) recipe {
		k, kname := 65536/chunk, ""
		if kk != 0 {
			k, kname = kk, fmt.Sprintf("_k%d", kk)
		}
		span := 2 << 20
		if mode == 3 {
			span = batches*k*chunk + chunk
		}
		per := float64(batches * k)
		return recipe{file: "bulkbw.ptx", kernel: fmt.Sprintf("_Z4k_bwILi%dEEvPKhmjiiPx", mode), block: 1,
			smem: 2 * k * chunk, outLen: 1, launches: 2,
			args: []string{"buf:16MiB:byte:0x3f", fmt.Sprint(span), fmt.Sprint(chunk), fmt.Sprint(k), fmt.Sprint(batches), "buf:8"},
			rows: []rowFn{{"bulkbw", fmt.Sprintf("%s_chunk%d%s_batches%d", names[mode], chunk, kname, batches), "cycles_per_copy",
				func(o []int64) float64 { return float64(o[0]) / per }}}}
	}
	var rs []recipe
	for _, chunk := range []int{1024, 4096, 16384} {
		rs = append(rs, one(0, chunk, 200, 0), one(1, chunk, 16, 0), one(2, chunk, 200, 0), one(3, chunk, 200, 0))
	}
	for _, chunk := range []int{1024, 4096} {
		for _, b := range []int{1, 2, 4, 8} {
			rs = append(rs, one(1, chunk, b, 0))
		}
	}
	// Batches of K copies at one size (the batch's own work spread over K
	// copies), and 64 KiB batches of other sizes.
	for _, c := range []struct{ chunk, k int }{{1024, 16}, {1024, 4}, {4096, 4}} {
		rs = append(rs, one(3, c.chunk, 200, c.k), one(1, c.chunk, 16, c.k))
	}
	for _, chunk := range []int{512, 2048, 8192} {
		rs = append(rs, one(3, chunk, 200, 0), one(1, chunk, 16, 0), one(0, chunk, 200, 0))
	}
	return rs
}

// reqCostRecipes describes reqcost.csv (calibration/h200/reqcost.cu): one
// thread's n back-to-back bulk copies of S bytes, from consecutive blocks or
// all from one, completing on one barrier; out[0] is the thread's time to
// issue them, out[1] the time to the barrier's completion. The second launch
// is read (the first warms L2, as the host code's warm-up launch does).
func reqCostRecipes() []recipe {
	var rs []recipe
	for same, name := range []string{"distinct", "same"} {
		for _, size := range []int{16, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384} {
			for _, n := range []int{8, 40} {
				cfg := fmt.Sprintf("%s_size%d_n%d", name, size, n)
				rs = append(rs, recipe{file: "reqcost.ptx", kernel: fmt.Sprintf("_Z5k_reqILi%dEEvPKhjiPx", same),
					block: 1, smem: 8 * size, outLen: 2, launches: 2,
					args: []string{"buf:8MiB:byte:0x3f", fmt.Sprint(size), fmt.Sprint(n), "buf:16"},
					rows: []rowFn{
						{"reqcost", cfg, "issue_cycles", func(o []int64) float64 { return float64(o[0]) }},
						{"reqcost", cfg, "total_cycles", func(o []int64) float64 { return float64(o[1]) }},
					}})
			}
		}
	}
	return rs
}
