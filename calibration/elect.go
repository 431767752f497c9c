package calibration

import "fmt"

// electRecipes describes elect.csv: elect.cu's arrive/wait loops, 1 to 32 warps.
func electRecipes() []recipe {
	var rs []recipe
	names := []string{"converged", "lane0_syncwarp", "lane0", "converged_syncwarp", "lane0_count32", "elect_sync"}
	const iters = 2000
	for _, w := range []int{1, 4, 8, 16, 32} {
		for mode, name := range names {
			rs = append(rs, recipe{file: "elect.ptx", kernel: fmt.Sprintf("_Z7k_electILi%dEEviPx", mode), block: 32 * w,
				args: []string{fmt.Sprint(iters), "buf:8"}, outLen: 1,
				rows: []rowFn{{"elect_loop", fmt.Sprintf("%s_warps%d", name, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}

// electSweepRecipes describes elect_sweep.csv: three of elect.csv's loops at every warp count from 1 to 32 (elect.ptx).
func electSweepRecipes() []recipe {
	var rs []recipe
	// elect_sweep.csv: three of elect.csv's loops at every warp count from 1 to 32.
	const iters = 2000
	for w := 1; w <= 32; w++ {
		for _, m := range []struct {
			mode int
			name string
		}{{0, "converged"}, {1, "lane0_syncwarp"}, {3, "converged_syncwarp"}} {
			rs = append(rs, recipe{file: "elect.ptx", csv: "elect_sweep.csv", kernel: fmt.Sprintf("_Z7k_electILi%dEEviPx", m.mode), block: 32 * w,
				args: []string{fmt.Sprint(iters), "buf:8"}, outLen: 1,
				rows: []rowFn{{"elect_sweep", fmt.Sprintf("%s_warps%d", m.name, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}

// exitwaitRecipes describes exitwait.csv: elect.cu's loops after a branch on the warp index, an extra warp leaving first, staying or spinning.
func exitwaitRecipes() []recipe {
	var rs []recipe
	// exitwait.csv: elect.cu's loops run by W warps of a block of W + 1,
	// the extra warp leaving first, staying to the end (region), or
	// spinning 1,000 cycles before it leaves (_branch).
	const iters = 2000
	for _, w := range []int{1, 2, 4, 8, 12, 16, 17, 24, 31} {
		for _, m := range []struct {
			mode int
			name string
		}{{0, "converged"}, {1, "lane0_syncwarp"}, {3, "converged_syncwarp"}, {4, "region"},
			{5, "converged_branch"}, {6, "lane0_syncwarp_branch"}, {7, "converged_syncwarp_branch"}} {
			rs = append(rs, recipe{file: "exitwait.ptx", kernel: fmt.Sprintf("_Z6k_exitILi%dEEviixPx", m.mode), block: 32 * (w + 1),
				args: []string{fmt.Sprint(iters), fmt.Sprint(w), "1000", "buf:8"}, outLen: 1,
				rows: []rowFn{{"exit_loop", fmt.Sprintf("%s_warps%d", m.name, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}

// alignRecipes describes align.csv: elect.cu's loops at ten places in the code.
func alignRecipes() []recipe {
	var rs []recipe
	// align.csv: elect.cu's converged and lane0_syncwarp loops moved
	// through the code by P extra instructions before the barrier's init.
	const iters = 2000
	for _, w := range []int{8, 12, 16, 24, 32} {
		for m, name := range []string{"converged", "lane0_syncwarp"} {
			for p := 0; p <= 9; p++ {
				rs = append(rs, recipe{file: "align.ptx", kernel: fmt.Sprintf("_Z7k_alignILi%dELi%dEEviPx", m, p), block: 32 * w,
					args: []string{fmt.Sprint(iters), "buf:8"}, outLen: 1,
					rows: []rowFn{{"align", fmt.Sprintf("%s_p%d_warps%d", name, p, w), "cycles_per_phase",
						func(o []int64) float64 { return float64(o[0]) / iters }}}})
			}
		}
	}
	return rs
}

// waitdelayRecipes describes waitdelay.csv: the arrive/wait loop with K dependent IMADs between the arrive and the try_wait.
func waitdelayRecipes() []recipe {
	var rs []recipe
	const iters = 2000
	for _, w := range []int{1, 4, 8, 16, 32} {
		for _, k := range []int{0, 2, 4, 8, 16} {
			rs = append(rs, recipe{file: "waitdelay.ptx", kernel: fmt.Sprintf("_Z7k_delayILi%dEEvijjjPx", k), block: 32 * w,
				args: []string{fmt.Sprint(iters), "3", "1", "0", "buf:16"}, outLen: 1,
				rows: []rowFn{{"wait_delay", fmt.Sprintf("imad%d_warps%d", k, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}

// dsweepRecipes describes dsweep.csv: clock reads between the arrive and the try_wait.
func dsweepRecipes() []recipe {
	var rs []recipe
	const iters = 2000
	for _, w := range []int{1, 8, 16, 17, 32} {
		for mode, name := range []string{"converged", "lane0_syncwarp"} {
			for _, k := range []int{0, 1, 2, 3, 4, 6, 8, 12} {
				rs = append(rs, recipe{file: "dsweep.ptx", kernel: fmt.Sprintf("_Z3k_dILi%dELi%dEEviPx", mode, k), block: 32 * w,
					args: []string{fmt.Sprint(iters), "buf:16"}, outLen: 1,
					rows: []rowFn{{"dsweep", fmt.Sprintf("%s_k%d_warps%d", name, k, w), "cycles_per_phase",
						func(o []int64) float64 { return float64(o[0]) / iters }}}})
			}
		}
	}
	return rs
}

// syncwarpRecipes describes syncwarp.csv: the arrive/wait loop with __syncwarp() at five places.
func syncwarpRecipes() []recipe {
	var rs []recipe
	const iters = 2000
	names := []string{"none", "between", "after_wait", "runtime_mask", "two_between"}
	for _, w := range []int{1, 4, 8, 12, 16, 24, 32} {
		for mode, name := range names {
			rs = append(rs, recipe{file: "syncwarp.ptx", kernel: fmt.Sprintf("_Z4k_swILi%dEEvijPx", mode), block: 32 * w,
				args: []string{fmt.Sprint(iters), "4294967295", "buf:16"}, outLen: 1,
				rows: []rowFn{{"syncwarp_loop", fmt.Sprintf("%s_warps%d", name, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}
