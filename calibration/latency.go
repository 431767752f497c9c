package calibration

import "fmt"

// latency2Recipes describes latency2.csv: division, square-root and local-memory chains of one thread (calibration/h200/latency2.cu).
func latency2Recipes() []recipe {
	var rs []recipe
	names := []string{"div_u32", "rem_u32", "div_s32", "rem_s32", "div_u64_32bit_values", "rem_u64_32bit_values",
		"div_u64_64bit_dividend", "div_rn_f32", "sqrt_rn_f32", "div_rn_f64", "div_approx_f32",
		"", // chain 11 (st.local + ld.local of one word): ptxas forwarded the store, so it measures nothing
		"local_ld_chain"}
	var rows []rowFn
	for k, name := range names {
		if name == "" {
			continue
		}
		k := k
		rows = append(rows, rowFn{"latency_chain2", name, "cycles_per_op", func(out []int64) float64 { return float64(out[k]) / 1024 }})
	}
	rs = append(rs, recipe{file: "latency2.ptx", kernel: "lat_chains2", block: 1,
		args: []string{"1024", "2654435769", "12345", "buf:512"}, outLen: 16, rows: rows})
	return rs
}

// latency3Recipes describes latency3.csv (calibration/h200/latency3.cu): one
// thread's arrive -> try_wait answer on a count-1 barrier, R = 1000
// repetitions (k_l3<MODE>): the median of samples 2..R stored one a
// repetition (stg_each, stg_spin), or their sum in out[0] / R (reg_sum,
// reg_sum_spin).
func latency3Recipes() []recipe {
	const reps = 1000
	var rs []recipe
	for m, name := range []string{"stg_each", "reg_sum", "stg_spin", "reg_sum_spin"} {
		value := func(o []int64) float64 { return median(o[1:reps]) }
		if m == 1 || m == 3 {
			value = func(o []int64) float64 { return float64(o[0]) / reps }
		}
		rs = append(rs, recipe{file: "latency3.ptx", kernel: fmt.Sprintf("_Z4k_l3ILi%dEEviPx", m), block: 1,
			args: []string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*reps)}, outLen: reps,
			rows: []rowFn{{"latency3", name, "arrive_to_complete_try_wait", value}}})
	}
	return rs
}

// latency4Recipes describes latency4.csv (calibration/h200/latency4.cu):
// microbench.cu's k_lat repetition with its other steps kept or left out
// (k_l4<MASK>); the median of the arrive -> try_wait samples 2..R of R = 1000
// (maskN), or of all 64 of one launch with R = 64, as k_lat is run
// (cold_mask15, again_mask15, cold_mask0).
func latency4Recipes() []recipe {
	var rs []recipe
	add := func(config string, mask, reps int, value func([]int64) float64) {
		rs = append(rs, recipe{file: "latency4.ptx", kernel: fmt.Sprintf("_Z4k_l4ILi%dEEviPx", mask), block: 1,
			args: []string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*6*reps)}, outLen: reps,
			rows: []rowFn{{"latency4", config, "arrive_to_complete_try_wait", value}}})
	}
	for mask := 0; mask < 16; mask++ {
		add(fmt.Sprintf("mask%d", mask), mask, 1000, func(o []int64) float64 { return median(o[1:1000]) })
	}
	cold := func(o []int64) float64 { return median(o[:64]) }
	add("cold_mask15", 15, 64, cold)
	add("again_mask15", 15, 64, cold)
	add("cold_mask0", 0, 64, cold)
	return rs
}

// latency5Recipes describes latency5.csv (calibration/h200/latency5.cu):
// microbench.cu's k_lat copied verbatim, with and without the 64 arrives after
// its loop, R = 64, one launch each; the median of samples R..2R-1 (its
// arrive -> try_wait window, which holds a wait for a store to read a register
// ptxas reuses: 61 cycles against latency4.csv's 49).
func latency5Recipes() []recipe {
	const reps = 64
	var rs []recipe
	for _, c := range []struct{ config, kernel string }{
		{"k_lat_first", "_Z5k_latiPx"}, {"k_lat_again", "_Z5k_latiPx"},
		{"noburst_first", "_Z13k_lat_noburstiPx"}, {"noburst_again", "_Z13k_lat_noburstiPx"},
	} {
		rs = append(rs, recipe{file: "latency5.ptx", kernel: c.kernel, block: 1,
			args: []string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*(6*reps+1))}, outLen: 2 * reps,
			rows: []rowFn{{"latency5", c.config, "arrive_to_complete_try_wait", func(o []int64) float64 { return median(o[reps : 2*reps]) }}}})
	}
	return rs
}
