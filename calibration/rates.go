package calibration

import "fmt"

// throughputRecipes describes throughput.csv: warp instructions a scheduler issues per cycle (k_rate<OP>).
func throughputRecipes() []recipe {
	var rs []recipe
	// k_rate<OP>: 32 operations a trip, iters trips; a row is the
	// cycles one scheduler spends per warp instruction.
	const iters = 1000
	for _, w := range []int{1, 4, 8, 16, 32} {
		for op, name := range []string{"imad", "iadd", "lop", "ffma", "imad_ffma", "iadd_lop"} {
			rs = append(rs, rateRecipe("throughput.ptx", fmt.Sprintf("_Z6k_rateILi%dEEvijjPx", op), "issue_rate",
				fmt.Sprintf("%s_warps%d", name, w), w, iters, "3", "1", "buf:16"))
		}
	}
	return rs
}

// convertRecipes: convert.cu's k_cvt<OP, C> (32 operations a trip, a row is
// the cycles one scheduler spends per warp instruction; with one chain the
// latency) and k_sum16 (wspipe.cu's consumer loop alone, cycles a trip).
func convertRecipes() []recipe {
	const iters = 1000
	var rs []recipe
	names := []string{"i2f_u32", "i2f_s32", "f2i_s32", "i2f_u16", "f2h_pair", "i2f_imad", "i2f_lop", "f2i_ex2", "ex2"}
	add := func(op, chains, w int) {
		rs = append(rs, rateRecipe("convert.ptx", fmt.Sprintf("_Z5k_cvtILi%dELi%dEEvijPx", op, chains), "convert_rate",
			fmt.Sprintf("%s_chains%d_warps%d", names[op], chains, w), w, iters, "3", "buf:16"))
	}
	for _, w := range []int{1, 4, 8, 16, 32} {
		for op := range names {
			add(op, 8, w)
			if w == 1 && (op <= 4 || op == 8) {
				add(op, 1, w)
			}
		}
	}
	const trips = 200
	for _, w := range []int{1, 4, 8, 16} {
		for _, work := range []int{16, 128} {
			rs = append(rs, recipe{file: "convert.ptx", kernel: "_Z7k_sum16iiPx", block: 32 * w,
				args: []string{fmt.Sprint(trips), fmt.Sprint(work), "buf:16"}, outLen: 1,
				rows: []rowFn{{"sum16_loop", fmt.Sprintf("work%d_warps%d", work, w), "cycles_per_iter",
					func(o []int64) float64 { return float64(o[0]) / trips }}}})
		}
	}
	return rs
}

// smemRecipes describes smem.csv: shared loads of 32, 64 and 128 bits, one chain (the latency) or eight (the rate).
func smemRecipes() []recipe {
	var rs []recipe
	// k_lds<W, C>: 32 shared loads a trip, a row is the cycles one
	// scheduler spends per warp instruction (one chain: the latency).
	const iters = 1000
	add := func(width, chains, w int) {
		rs = append(rs, rateRecipe("smem.ptx", fmt.Sprintf("_Z5k_ldsILi%dELi%dEEviPx", width, chains), "smem_rate",
			fmt.Sprintf("lds%d_chains%d_warps%d", width, chains, w), w, iters, "buf:16"))
	}
	for _, width := range []int{32, 64, 128} {
		add(width, 1, 1)
	}
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		for _, width := range []int{32, 64, 128} {
			add(width, 8, w)
		}
	}
	return rs
}

// ldgRecipes describes ldg.csv: L1-hit global loads and shuffles, one chain (the latency) or eight (the rate).
func ldgRecipes() []recipe {
	var rs []recipe
	// k_g<OP, C>: 32 L1-hit global loads or shuffles a trip; a row is
	// the cycles one scheduler spends per warp instruction (one chain:
	// the latency of a link).
	const iters = 1000
	names := []string{"ldg32", "ldg128", "shfl"}
	add := func(op, chains, w int) {
		rs = append(rs, rateRecipe("ldg.ptx", fmt.Sprintf("_Z3k_gILi%dELi%dEEviPKjPx", op, chains), "l1_rate",
			fmt.Sprintf("%s_chains%d_warps%d", names[op], chains, w), w, iters, "buf:16384:seq", "buf:16"))
	}
	for op := range names {
		add(op, 1, 1)
	}
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		for op := range names {
			add(op, 8, w)
		}
	}
	return rs
}

// rateRecipe is a row of the rate kernels (throughput.cu, convert.cu,
// smem.cu, ldg.cu): 32 operations a loop trip, iters trips (the kernel's
// first argument, before args), w warps of one block; the row is the
// cycles one scheduler spends per warp instruction, out[0] over
// 32 · iters · max(1, w / 4).
func rateRecipe(file, kernel, bench, config string, w, iters int, args ...string) recipe {
	per := float64(32 * iters * max(1, w/4))
	return recipe{file: file, kernel: kernel, block: 32 * w,
		args: append([]string{fmt.Sprint(iters)}, args...), outLen: 1,
		rows: []rowFn{{bench, config, "cycles_per_instr", func(o []int64) float64 { return float64(o[0]) / per }}}}
}
