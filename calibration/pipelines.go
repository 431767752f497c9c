package calibration

import "fmt"

// pipelineRecipes describes the rows of pipeline.csv
// (calibration/h200/README.md: the warp-specialised bulk-copy pipeline and
// the instruction-latency chains).
func pipelineRecipes() []recipe {
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

// wspipeRecipes describes wspipe.csv (calibration/h200/wspipe.cu): a
// warp-specialised TMA pipeline in CUTLASS's idioms (elect.sync, hinted
// try_wait loops, arrive.expect_tx and 2-D tensor copies), held out of every
// fit.
func wspipeRecipes() []recipe {
	var rs []recipe
	const tiles = 256
	for _, box := range [][2]int{{64, 64}, {64, 128}} {
		w, h := box[0], box[1]
		m := fmt.Sprintf("tensormap:f16,512x512,box=%dx%d,stride=1024", w, h)
		for _, c := range []int{1, 2, 4} {
			for _, work := range []int{16, 128} {
				for _, st := range []int{2, 4} {
					rs = append(rs, recipe{file: "wspipe.ptx", kernel: fmt.Sprintf("_Z4k_wsILi%dEEv14CUtensorMap_stiiiiPx", st),
						block: 32 * (1 + c), smem: st * w * h * 2,
						args:   []string{m, fmt.Sprint(tiles), fmt.Sprint(w), fmt.Sprint(h), fmt.Sprint(work), "buf:16"},
						outLen: 1, launches: 2, // a warm-up launch first: the tensor is in L2
						rows: []rowFn{{"ws_pipeline", fmt.Sprintf("box%dx%d_stages%d_consumers%d_work%d", w, h, st, c, work), "cycles_per_tile",
							func(o []int64) float64 { return float64(o[0]) / tiles }}}})
				}
			}
		}
	}
	return rs
}

// ptxpipeRecipes describes ptxpipe.csv (calibration/h200/ptxpipe.cu): the
// warp-specialised TMA pipeline written with CCCL's headers only, as the raw
// cuda::ptx API (k_ptx) and as cuda::barrier (k_bar), 2 to 4 stages; held
// out of every fit.
func ptxpipeRecipes() []recipe {
	var rs []recipe
	const tiles = 256
	for _, box := range [][2]int{{64, 64}, {128, 64}} {
		w, h := box[0], box[1]
		m := fmt.Sprintf("tensormap:f16,512x512,box=%dx%d,stride=1024", w, h)
		for _, k := range []struct{ name, bench string }{{"ptx", "ptx_pipeline"}, {"bar", "bar_pipeline"}} {
			for _, c := range []int{1, 2, 4} {
				for _, work := range []int{16, 64} {
					for _, st := range []int{2, 3, 4} {
						rs = append(rs, recipe{file: "ptxpipe.ptx", kernel: fmt.Sprintf("_Z5k_%sILi%dEEv14CUtensorMap_stiiiiPx", k.name, st),
							block: 32 * (1 + c), smem: st * w * h * 2,
							args:   []string{m, fmt.Sprint(tiles), fmt.Sprint(w), fmt.Sprint(h), fmt.Sprint(work), "buf:16"},
							outLen: 1, launches: 2, // a warm-up launch first: the tensor is in L2
							rows: []rowFn{{k.bench, fmt.Sprintf("box%dx%d_stages%d_consumers%d_work%d", w, h, st, c, work), "cycles_per_tile",
								func(o []int64) float64 { return float64(o[0]) / tiles }}}})
					}
				}
			}
		}
	}
	return rs
}

// cpipeRecipes describes cpipe.csv (calibration/h200/cpipe.cu): the
// Programming Guide's cuda::pipeline pipelines (cp.async and the pipeline's
// shared-state barriers), all threads producing and consuming (k_unified)
// or warp 0 producing for 1-4 consumer warps (k_part); held out of every
// fit. A warm-up launch first: the source is in L2.
func cpipeRecipes() []recipe {
	const tiles, warm, span = 64, 8, 1 << 19
	var rs []recipe
	for _, t := range []int{128, 256} {
		for _, st := range []int{1, 2, 4} {
			rs = append(rs, recipe{file: "cpipe.ptx", kernel: fmt.Sprintf("_Z9k_unifiedILi%dEEvPKiiiiPx", st), block: t, smem: st * t * 4,
				args:   []string{fmt.Sprintf("buf:%d", span), fmt.Sprint(span / 4), fmt.Sprint(tiles), fmt.Sprint(warm), "buf:16"},
				outLen: 1, launches: 2,
				rows: []rowFn{{"cpipe_unified", fmt.Sprintf("threads%d_stages%d", t, st), "cycles_per_tile",
					func(o []int64) float64 { return float64(o[0]) / tiles }}}})
		}
	}
	for _, chunk := range []int{4096, 16384} {
		for _, c := range []int{1, 2, 4} {
			for _, st := range []int{1, 2, 4} {
				rs = append(rs, recipe{file: "cpipe.ptx", kernel: fmt.Sprintf("_Z6k_partILi%dEEvPK4int4iiiiPx", st), block: 32 * (1 + c), smem: st * chunk,
					args:   []string{fmt.Sprintf("buf:%d", span), fmt.Sprint(span / 16), fmt.Sprint(chunk / 16), fmt.Sprint(tiles), fmt.Sprint(warm), "buf:16"},
					outLen: 1, launches: 2,
					rows: []rowFn{{"cpipe_part", fmt.Sprintf("chunk%d_consumers%d_stages%d", chunk, c, st), "cycles_per_tile",
						func(o []int64) float64 { return float64(o[0]) / tiles }}}})
			}
		}
	}
	return rs
}

// libpipeRecipes describes libpipe.csv: a pipeline written with libcu++'s cuda::barrier, held out of every fit.
func libpipeRecipes() []recipe {
	var rs []recipe
	for _, chunk := range []int{4096, 16384} {
		for _, c := range []int{1, 2, 4} {
			for _, st := range []int{1, 2, 4} {
				rs = append(rs, recipe{file: "libpipe.ptx", kernel: fmt.Sprintf("_Z9k_libpipeILi%dEEvPKhjjiiPx", st),
					block: 32 * (1 + c), smem: st * chunk,
					args: []string{"buf:262144", "262144", fmt.Sprint(chunk), "64", "8", "buf:16"}, outLen: 1,
					launches: 2, // the host copied the source in and ran an untimed launch first: it is in L2
					rows: []rowFn{{"lib_pipeline", fmt.Sprintf("chunk%d_consumers%d_stages%d", chunk, c, st), "cycles_per_tile",
						func(o []int64) float64 { return float64(o[0]) / 64 }}}})
			}
		}
	}
	return rs
}

// libcopyRecipes describes libcopy.csv: the Programming Guide's cuda::memcpy_async pattern, held out of every fit.
func libcopyRecipes() []recipe {
	var rs []recipe
	for _, chunk := range []int{4096, 16384} {
		for _, threads := range []int{128, 256} {
			for _, st := range []int{1, 2} {
				rs = append(rs, recipe{file: "libcopy.ptx", kernel: fmt.Sprintf("_Z9k_libcopyILi%dEEvPKhjjiiPx", st),
					block: threads, smem: st * chunk,
					args: []string{"buf:262144", "262144", fmt.Sprint(chunk), "64", "8", "buf:16"}, outLen: 1,
					launches: 2, // a warm-up launch first: the source is in L2
					rows: []rowFn{{"lib_memcpy", fmt.Sprintf("chunk%d_threads%d_stages%d", chunk, threads, st), "cycles_per_tile",
						func(o []int64) float64 { return float64(o[0]) / 64 }}}})
			}
		}
	}
	return rs
}

// epilogueRecipes describes epilogue.csv (calibration/h200/epilogue.cu): a
// warp-specialised bulk-copy pipeline whose consumers transform each tile
// into one of two output buffers that consumer thread 0 writes back with a
// bulk store (wait_group.read before a buffer is written again); held out
// of every fit. A warm-up launch first: the source is in L2.
func epilogueRecipes() []recipe {
	const tiles, warm, span = 64, 8, 1 << 20
	var rs []recipe
	for _, chunk := range []int{4096, 16384} {
		for _, c := range []int{1, 2, 4} {
			for _, st := range []int{2, 4} {
				rs = append(rs, recipe{file: "epilogue.ptx", kernel: fmt.Sprintf("_Z5k_epiILi%dEEvPKhPhjjiiPx", st),
					block: 32 * (1 + c), smem: (st + 2) * chunk,
					args: []string{fmt.Sprintf("buf:%d", span), fmt.Sprintf("buf:%d", span), fmt.Sprint(span), fmt.Sprint(chunk),
						fmt.Sprint(tiles), fmt.Sprint(warm), "buf:16"},
					outLen: 1, launches: 2,
					rows: []rowFn{{"epilogue", fmt.Sprintf("chunk%d_consumers%d_stages%d", chunk, c, st), "cycles_per_tile",
						func(o []int64) float64 { return float64(o[0]) / tiles }}}})
			}
		}
	}
	return rs
}
