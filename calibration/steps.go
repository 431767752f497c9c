package calibration

import (
	"fmt"
	"slices"
)

// issueRecipes describes issue.csv: the steps of a producer trip, each loop timed alone (calibration/h200/issue.cu).
func issueRecipes() []recipe {
	var rs []recipe
	names := []string{"empty", "try_wait_done", "arrive_expect_tx", "bulk_copy_16B", "arrive_expect_tx_bulk_copy",
		"try_wait_done_arrive_expect_tx", "try_wait_done_arrive_expect_tx_bulk_copy", "try_wait_done_arrive",
		"arrive_expect_tx_bulk_copy_other_barrier"}
	var rows []rowFn
	for k, name := range names {
		if name == "empty" {
			continue // 0.04 cycles: ptxas removed the empty loop
		}
		k := k
		rows = append(rows, rowFn{"issue_steps", name, "cycles_per_trip", func(out []int64) float64 { return float64(out[k]) / 256 }})
	}
	rs = append(rs, recipe{file: "issue.ptx", kernel: "issue_steps", block: 1, args: []string{"buf:4096", "256", "buf:512"},
		outLen: 16, launches: 2, rows: rows})
	return rs
}

// divcodeRecipes describes divcode.csv: the steps of a producer trip in uniform and in divergent code (calibration/h200/divcode.cu).
func divcodeRecipes() []recipe {
	var rs []recipe
	names := []string{"try_wait_done", "arrive_expect_tx", "bulk_copy_16B", "arrive_expect_tx_bulk_copy",
		"try_wait_done_arrive_expect_tx_bulk_copy", "ring4_try_wait_arrive_expect_tx_bulk_copy"}
	for v, name := range names {
		for _, div := range []bool{false, true} {
			block, cfg, b := 1, name+"_uniform", 0
			if div {
				block, cfg, b = 32, name+"_divergent", 1
			}
			rs = append(rs, recipe{file: "divcode.ptx", kernel: fmt.Sprintf("_Z4k_dcILi%dELb%dEEvPKhiPx", v, b), block: block,
				args: []string{"buf:4096", "256", "buf:64"}, outLen: 1, launches: 2,
				rows: []rowFn{{"divcode_steps", cfg, "cycles_per_trip", func(o []int64) float64 { return float64(o[0]) / 256 }}}})
		}
	}
	return rs
}

// prodonlyRecipes describes prodonly.csv: pipeline.cu's producer with instant consumers (calibration/h200/prodonly.cu).
func prodonlyRecipes() []recipe {
	var rs []recipe
	const tiles, warm, span = 64, 8, 262144
	for _, chunk := range []int{4096, 16384} {
		for _, stages := range []int{2, 4} {
			for mode, name := range []string{"rem", "mask", "rem32", "smem", "mask_call", "rem32_call"} {
				rs = append(rs, recipe{file: "prodonly.ptx", kernel: fmt.Sprintf("_Z6k_prodILi%dEEvPKhjjiiiPx", mode), block: 32,
					smem: stages * chunk, launches: 2,
					args: []string{fmt.Sprintf("buf:%d", span), fmt.Sprint(span), fmt.Sprint(chunk), fmt.Sprint(stages),
						fmt.Sprint(tiles), fmt.Sprint(warm), "buf:64"}, outLen: 1,
					rows: []rowFn{{"producer_only", fmt.Sprintf("%s_chunk%d_stages%d", name, chunk, stages), "cycles_per_tile",
						func(o []int64) float64 { return float64(o[0]) / tiles }}}})
			}
		}
	}
	return rs
}

// stepsRecipes describes steps.csv: each step of a producer timed alone, the median of 33 repetitions (calibration/h200/steps.cu).
func stepsRecipes() []recipe {
	var rs []recipe
	names := []string{"try_wait_done", "arrive_other_then_try_wait_done", "two_try_waits_done", "test_wait_done",
		"arrive_then_try_wait_until_true", "bulk_copy_16B_issue", "bulk_copy_16B_x2_issue", "bulk_copy_16B_x8_issue",
		"bulk_copy_4KiB_issue", "bulk_copy_4KiB_x8_issue", "arrive_expect_tx_bulk_copy_issue",
		"try_wait_done_32_adds_before_branch"}
	const reps = 33
	var rows []rowFn
	for k, name := range names {
		if name == "try_wait_done_32_adds_before_branch" {
			continue // 49 against try_wait_done's 47: the adds are off the branch's path in SASS; not a separate row
		}
		k := k
		rows = append(rows, rowFn{"step_latency", name, "cycles", func(raw []int64) float64 {
			v := append([]int64(nil), raw[k*reps:(k+1)*reps]...)
			slices.Sort(v)
			return float64(v[reps/2])
		}})
	}
	rs = append(rs, recipe{file: "steps.ptx", kernel: "step_latency", block: 1,
		args:   []string{"buf:8192", fmt.Sprint(reps), "buf:512", fmt.Sprintf("buf:%d", len(names)*reps*8)},
		outLen: len(names) * reps, launches: 2, rows: rows})
	return rs
}
