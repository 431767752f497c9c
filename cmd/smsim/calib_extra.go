package main

import (
	"fmt"
)

// extraRecipes describes the rows of pipeline.csv (calibration/h200/README.md:
// the warp-specialised bulk-copy pipeline and the instruction-latency chains),
// when the folder or the repository's calibration folder has it.
func extraRecipes(dir string, o suiteOpts) []recipe {
	if !hasCalibrationFile(dir, "pipeline.ptx") {
		return nil
	}
	var rs []recipe
	for _, n := range []int{4096, 16384} {
		for _, c := range []int{1, 2, 4} {
			for _, s := range []int{1, 2, 3, 4} {
				for _, f := range []int{0, 256} {
					rs = append(rs, recipe{file: "pipeline.ptx", kernel: "pipe_bench", block: 32 * (1 + c), smem: s * n,
						args:     []string{"buf:262144", "262144", fmt.Sprint(n), fmt.Sprint(s), fmt.Sprint(f), "64", "8", "buf:512"},
						outLen:   1,
						launches: 2, // the GPU ran one untimed launch first: the source is in L2
						rows: []rowFn{{"bulk_pipeline", fmt.Sprintf("chunk%d_consumers%d_stages%d_fma%d", n, c, s, f), "cycles_per_tile",
							func(out []int64) float64 { return float64(out[0]) / 64 }}}})
				}
			}
		}
	}
	chains := []string{"iadd_u32", "imad_u32", "lop3_b32", "shf_l_wrap_b32", "iadd_u64", "imad_wide_u32", "ffma_f32",
		"dfma_f64", "hfma2_f16x2", "f2i_i2f_pair", "f2f_f16_f32_pair", "mufu_rcp_ffma_pair", "mufu_rsqrt_approx",
		"mufu_ex2_approx", "smem_st_ld_same_word_pair", "smem_ld_chain", "popc_b32", "prmt_b32", "iadd_xor_alternating",
		"clock64_back_to_back", "", "atom_shared_add_u32", "ldg_u64_chain_l1_hit"}
	var rows []rowFn
	for k, name := range chains {
		k := k
		switch name {
		case "":
			continue // chain 20 (shuffles) was folded away by ptxas; not a row
		case "clock64_back_to_back":
			rows = append(rows, rowFn{"latency_chain", name, "cycles", func(out []int64) float64 { return float64(out[k]) }})
		default:
			rows = append(rows, rowFn{"latency_chain", name, "cycles_per_op", func(out []int64) float64 { return float64(out[k]) / 1024 }})
		}
	}
	rs = append(rs, recipe{file: "pipeline.ptx", kernel: "lat_chains", block: 1,
		args: []string{"1024", "610839777", "324508639", "buf:512"}, outLen: 32, rows: rows})
	return rs
}
