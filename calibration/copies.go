package calibration

import "fmt"

// tmadescRecipes describes tmadesc.csv: a launch's first tensor copies, through one tensor map or two.
func tmadescRecipes() []recipe {
	var rs []recipe
	at := func(i int) func([]int64) float64 { return func(o []int64) float64 { return float64(o[i]) } }
	for _, c := range []struct {
		two, x1, y1, x2, y2 int
		name                string
	}{{0, 64, 64, 64, 64, "same_map_oob_oob"}, {0, 0, 0, 0, 0, "same_map_in_in"}, {0, 64, 64, 0, 0, "same_map_oob_in"},
		{0, 32, 32, 32, 32, "same_map_quarter_quarter"}, {1, 64, 64, 64, 64, "two_maps_oob_oob"}, {1, 0, 0, 0, 0, "two_maps_in_in"}} {
		// tmadesc.csv: two copies of a 64x64 fp16 box, the tensor in L2 (the
		// host wrote it right before); the median of launches 2-6.
		const m = "tensormap:f16,64x64,box=64x64,stride=128"
		rs = append(rs, recipe{file: "tmadesc.ptx", kernel: "_Z6k_desc14CUtensorMap_stS_iiiiiPx", block: 1, smem: 16384,
			args:   []string{m, m, fmt.Sprint(c.two), fmt.Sprint(c.x1), fmt.Sprint(c.y1), fmt.Sprint(c.x2), fmt.Sprint(c.y2), "buf:16"},
			warm:   []string{"0", "1"},
			outLen: 2, rows: []rowFn{
				{"tma_desc", c.name, "first_cycles", at(0)},
				{"tma_desc", c.name, "second_cycles", at(1)},
			}})
	}
	return rs
}

// storeRecipes describes store.csv (calibration/h200/store.cu): one
// thread's stream of bulk stores from a ring of 1, 2 or 4 shared buffers to
// global memory, each its own bulk group, waiting for the source read
// (wait_group.read) or the writes (wait_group) before reusing a buffer; held
// out of every fit. A warm-up launch first: the destination is in L2.
func storeRecipes() []recipe {
	const reps, span = 256, 8 << 20
	var rs []recipe
	for mode, kind := range []string{"read", "write"} {
		for _, size := range []int{256, 1024, 4096, 16384} {
			for _, d := range []int{1, 2, 4} {
				rs = append(rs, recipe{file: "store.ptx", kernel: fmt.Sprintf("_Z7k_storeILi%dELi%dEEvPhjjiPx", mode, d), block: 128, smem: size * d,
					args:   []string{fmt.Sprintf("buf:%d", span), fmt.Sprint(span), fmt.Sprint(size), fmt.Sprint(reps), "buf:16"},
					outLen: 1, launches: 2,
					rows: []rowFn{{"store_stream", fmt.Sprintf("%s_size%d_depth%d", kind, size, d), "cycles_per_store",
						func(o []int64) float64 { return float64(o[0]) / reps }}}})
			}
		}
	}
	return rs
}

// waterfallRecipes describes waterfall.csv (calibration/h200/waterfall.cu):
// one thread's bulk stores (each waited on with wait_group.read) and bulk
// loads (each waited on through its barrier), with operands ptxas keeps on the
// uniform datapath or in vector registers (a per-thread zero added), after a
// return of the other threads or inside `if (threadIdx.x == 32)`; the hold
// modes also sum the cycles from before the copy to after its commit (store)
// or issue (load). A warm-up launch first, as timed3 runs one.
func waterfallRecipes() []recipe {
	const reps = 256
	names := []string{"store_uniform", "store_vector", "hold_uniform", "hold_vector", "load_uniform", "load_vector",
		"load_hold_uniform", "load_hold_vector", "store_region", "store_region_vector", "hold_region",
		"hold_region_vector", "load_region", "load_region_vector", "load_hold_region", "load_hold_region_vector"}
	var rs []recipe
	for _, size := range []int{256, 4096} {
		for m, name := range names {
			cfg := fmt.Sprintf("%s_size%d", name, size)
			rows := []rowFn{{"waterfall", cfg, "cycles_per_copy", func(o []int64) float64 { return float64(o[0]) / reps }}}
			if k := m & 7; k == 2 || k == 3 || k == 6 || k == 7 {
				rows = append(rows, rowFn{"waterfall", cfg, "hold_cycles", func(o []int64) float64 { return float64(o[1]) / reps }})
			}
			rs = append(rs, recipe{file: "waterfall.ptx", kernel: fmt.Sprintf("_Z4k_wfILi%dEEvPhPKijiPx", m), block: 64, smem: size,
				args:   []string{fmt.Sprintf("buf:%d", 16*16384), "buf:256", fmt.Sprint(size), fmt.Sprint(reps), "buf:64"},
				outLen: 2, launches: 2, rows: rows})
		}
	}
	return rs
}

// smemShareRecipes describes smemshare.csv (calibration/h200/smemshare.cu):
// W warps streaming 128-bit shared loads while one thread's bulk loads land
// in shared memory or its bulk stores read it, each copy waited on; the
// slowest loading warp's cycles, and the copy loop's.
func smemShareRecipes() []recipe {
	const rounds = 512
	var rs []recipe
	for _, w := range []int{4, 16} {
		for _, ch := range []int{4096, 16384} {
			k := 400 * 4096 / ch
			if w == 16 {
				k *= 4
			}
			for _, c := range []struct {
				mode int
				name string
			}{{1, "lds_only"}, {2, "loads_only"}, {3, "lds_loads"}, {6, "stores_only"}, {7, "lds_stores"}} {
				cfg := fmt.Sprintf("%s_chunk%d_warps%d", c.name, ch, w)
				var rows []rowFn
				if c.mode&1 != 0 {
					rows = append(rows, rowFn{"smem_share", cfg, "lds_cycles", func(o []int64) float64 { return float64(o[0]) }})
				}
				if c.mode&2 != 0 {
					rows = append(rows, rowFn{"smem_share", cfg, "copy_cycles", func(o []int64) float64 { return float64(o[1]) }})
				}
				rs = append(rs, recipe{file: "smemshare.ptx", kernel: fmt.Sprintf("_Z7k_shareILi%dEEvPhjiiPx", c.mode),
					block: 32 * (1 + w), smem: 32768,
					args:   []string{"buf:1048576", fmt.Sprint(ch), fmt.Sprint(k), fmt.Sprint(rounds), "buf:64"},
					outLen: 2, launches: 2, rows: rows})
			}
		}
	}
	return rs
}

// fenceRecipes describes fence.csv (calibration/h200/fence.cu): one warp's
// loop of 128-bit shared stores and fence.proxy.async or
// __threadfence_block() (k_f<MODE>, out[0] / 1024).
func fenceRecipes() []recipe {
	const iters = 1024
	var rs []recipe
	for m, name := range []string{"sts128", "sts128_fence_proxy_async", "fence_proxy_async", "sts128_membar_cta", "sts128x4_fence_proxy_async"} {
		rs = append(rs, recipe{file: "fence.ptx", kernel: fmt.Sprintf("_Z3k_fILi%dEEviPx", m), block: 32, smem: 8192,
			args: []string{fmt.Sprint(iters), "buf:16"}, outLen: 1,
			rows: []rowFn{{"fence", name, "cycles_per_iter", func(o []int64) float64 { return float64(o[0]) / iters }}}})
	}
	return rs
}
