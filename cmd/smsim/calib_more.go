package main

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/run"
)

// hasCalibrationFile reports whether the calibration folder holds name.
func hasCalibrationFile(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

// moreRecipes describes the rows of latency2.csv (division, square root and
// local-memory chains), membw.csv (bulk-copy streaming against bytes in
// flight), issue.csv (the steps of a producer trip), steps.csv (each step of
// a producer timed alone), divcode.csv (the same in uniform and divergent code), prodonly.csv (pipeline.cu's producer with instant consumers), elect.csv, exitwait.csv (the same loops after a branch on the warp index), align.csv (the same loops at ten places in the code), tmadesc.csv (a launch's first tensor copy), gmem.csv, branch.csv, waitdelay.csv, dsweep.csv (clock reads between the arrive and the try_wait), throughput.csv (warp instructions a scheduler issues per cycle), syncwarp.csv, trywait.csv (what a try_wait does while its phase is open), libpipe.csv
// (a pipeline written with libcu++'s cuda::barrier, held out of every fit) and libcopy.csv (the
// Programming Guide's cuda::memcpy_async pattern, held out too),
// as calibration/h200/README.md says each row is made.
func moreRecipes(dir string) []recipe {
	var rs []recipe
	if hasCalibrationFile(dir, "latency2.ptx") {
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
	}
	if hasCalibrationFile(dir, "membw.ptx") {
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
	}
	if hasCalibrationFile(dir, "issue.ptx") {
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
	}
	if hasCalibrationFile(dir, "divcode.ptx") {
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
	}
	if hasCalibrationFile(dir, "prodonly.ptx") {
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
	}
	if hasCalibrationFile(dir, "steps.ptx") {
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
	}
	if hasCalibrationFile(dir, "elect.ptx") {
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
	}
	if hasCalibrationFile(dir, "elect.ptx") {
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
	}
	if hasCalibrationFile(dir, "exitwait.ptx") {
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
	}
	if hasCalibrationFile(dir, "align.ptx") {
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
	}
	if hasCalibrationFile(dir, "tmadesc.ptx") {
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
	}
	if hasCalibrationFile(dir, "gmem.ptx") {
		rs = append(rs, gmemRecipes()...)
	}
	if hasCalibrationFile(dir, "branch.ptx") {
		rs = append(rs, branchRecipes()...)
	}
	if hasCalibrationFile(dir, "waitdelay.ptx") {
		const iters = 2000
		for _, w := range []int{1, 4, 8, 16, 32} {
			for _, k := range []int{0, 2, 4, 8, 16} {
				rs = append(rs, recipe{file: "waitdelay.ptx", kernel: fmt.Sprintf("_Z7k_delayILi%dEEvijjjPx", k), block: 32 * w,
					args: []string{fmt.Sprint(iters), "3", "1", "0", "buf:16"}, outLen: 1,
					rows: []rowFn{{"wait_delay", fmt.Sprintf("imad%d_warps%d", k, w), "cycles_per_phase",
						func(o []int64) float64 { return float64(o[0]) / iters }}}})
			}
		}
	}
	if hasCalibrationFile(dir, "dsweep.ptx") {
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
	}
	if hasCalibrationFile(dir, "throughput.ptx") {
		// k_rate<OP>: 32 operations a trip, iters trips; a row is the
		// cycles one scheduler spends per warp instruction.
		const iters = 1000
		for _, w := range []int{1, 4, 8, 16, 32} {
			for op, name := range []string{"imad", "iadd", "lop", "ffma", "imad_ffma", "iadd_lop"} {
				rs = append(rs, rateRecipe("throughput.ptx", fmt.Sprintf("_Z6k_rateILi%dEEvijjPx", op), "issue_rate",
					fmt.Sprintf("%s_warps%d", name, w), w, iters, "3", "1", "buf:16"))
			}
		}
	}
	if hasCalibrationFile(dir, "convert.ptx") {
		rs = append(rs, convertRecipes()...)
	}
	if hasCalibrationFile(dir, "smem.ptx") {
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
	}
	if hasCalibrationFile(dir, "ldg.ptx") {
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
	}
	if hasCalibrationFile(dir, "trywait.ptx") {
		rs = append(rs, trywaitRecipes()...)
	}
	if hasCalibrationFile(dir, "wspipe.ptx") {
		rs = append(rs, wspipeRecipes()...)
	}
	if hasCalibrationFile(dir, "ptxpipe.ptx") {
		rs = append(rs, ptxpipeRecipes()...)
	}
	if hasCalibrationFile(dir, "cpipe.ptx") {
		rs = append(rs, cpipeRecipes()...)
	}
	if hasCalibrationFile(dir, "window.ptx") {
		rs = append(rs, windowRecipes()...)
	}
	if hasCalibrationFile(dir, "store.ptx") {
		rs = append(rs, storeRecipes()...)
	}
	if hasCalibrationFile(dir, "sel.ptx") {
		rs = append(rs, selRecipes()...)
	}
	if hasCalibrationFile(dir, "latency3.ptx") {
		rs = append(rs, latency3Recipes()...)
	}
	if hasCalibrationFile(dir, "latency4.ptx") {
		rs = append(rs, latency4Recipes()...)
	}
	if hasCalibrationFile(dir, "latency5.ptx") {
		rs = append(rs, latency5Recipes()...)
	}
	if hasCalibrationFile(dir, "waterfall.ptx") {
		rs = append(rs, waterfallRecipes()...)
	}
	if hasCalibrationFile(dir, "smemshare.ptx") {
		rs = append(rs, smemShareRecipes()...)
	}
	if hasCalibrationFile(dir, "reqcost.ptx") {
		rs = append(rs, reqCostRecipes()...)
	}
	if hasCalibrationFile(dir, "bulkbw.ptx") {
		rs = append(rs, bulkBWRecipes()...)
	}
	if hasCalibrationFile(dir, "fence.ptx") {
		rs = append(rs, fenceRecipes()...)
	}
	if hasCalibrationFile(dir, "epilogue.ptx") {
		rs = append(rs, epilogueRecipes()...)
	}
	if hasCalibrationFile(dir, "pingpong.ptx") {
		rs = append(rs, pingpongRecipes()...)
	}
	if hasCalibrationFile(dir, "stamps.ptx") {
		rs = append(rs, stampsRecipes()...)
	}
	if hasCalibrationFile(dir, "syncwarp.ptx") {
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
	}
	if hasCalibrationFile(dir, "libpipe.ptx") {
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
	}
	if hasCalibrationFile(dir, "libcopy.ptx") {
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
	}
	return rs
}

// gmemRecipes describes gmem.csv: one thread's global-load pointer chases
// over footprints, over one line in each of P pages (L2 hits through
// ld.global.cg), and through DRAM within 8 pages or with every load in a new
// page (calibration/h200/gmem.cu).
func gmemRecipes() []recipe {
	const iters = 2000
	perLoad := func(o []int64) float64 { return float64(o[0]) / iters }
	var rs []recipe
	for _, kib := range []uint64{16, 2048, 16384, 32768, 65536, 131072, 262144, 524288, 1048576, 2097152, 4194304} {
		bytes := kib << 10
		rs = append(rs, recipe{file: "gmem.ptx", kernel: "gchase", block: 1,
			args: []string{fmt.Sprintf("buf:%d", bytes), "0", "64", fmt.Sprint(iters), "buf:16"}, outLen: 1,
			prep: chasePrep(bytes, 64+iters+1), warm: []string{"0"}, // the host copied the whole array in
			rows: []rowFn{{"gload", fmt.Sprintf("footprint_%dKiB", kib), "cycles_per_load", perLoad}}})
	}
	const pages = 8192
	for _, p := range []int{1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 1024, 2048, 4096, 8192} {
		order := unitChase(p, pages, (2<<20)/4, uint64(p))
		rs = append(rs, recipe{file: "gmem.ptx", kernel: "gchase_cg", block: 1,
			args:   []string{fmt.Sprintf("buf:%d", uint64(pages)<<21), fmt.Sprint(order[0]), fmt.Sprint(p), fmt.Sprint(iters), "buf:16"},
			outLen: 1, prep: wordChain(order),
			rows: []rowFn{{"gload", fmt.Sprintf("pages%d_l2", p), "cycles_per_load", perLoad}}})
	}
	// DRAM: a fresh run's L2 is as cold as after the host's flush.
	lines := unitChase(iters+64, 8*(2<<20)/128, 32, 1) // distinct lines of 8 pages
	rs = append(rs, recipe{file: "gmem.ptx", kernel: "gchase", block: 1,
		args:   []string{fmt.Sprintf("buf:%d", 8<<21), fmt.Sprint(lines[0]), "64", fmt.Sprint(iters), "buf:16"},
		outLen: 1, prep: wordChain(lines),
		rows: []rowFn{{"gload", "dram_pages8", "cycles_per_load", perLoad}}})
	spread := unitChase(iters+16, pages, (2<<20)/4, 2)
	rs = append(rs, recipe{file: "gmem.ptx", kernel: "gchase", block: 1,
		args:   []string{fmt.Sprintf("buf:%d", uint64(pages)<<21), fmt.Sprint(spread[0]), "16", fmt.Sprint(iters), "buf:16"},
		outLen: 1, prep: wordChain(spread),
		rows: []rowFn{{"gload", "dram_pages8192", "cycles_per_load", perLoad}}})
	return rs
}

// unitChase draws n distinct units (of unitWords 4-byte words) of the first
// `units` in a random order and returns the word index of a random line in
// each: pages (2 MiB) or lines (32 words), as gmem.cu does with its own
// generator (the rows measure a random walk, not one particular walk).
func unitChase(n, units, unitWords int, seed uint64) []uint32 {
	rng := rand.New(rand.NewPCG(seed, uint64(units)))
	perm := rng.Perm(units)[:n]
	const lineWords = 32
	out := make([]uint32, n)
	for k, u := range perm {
		out[k] = uint32(uint64(u)*uint64(unitWords) + uint64(rng.IntN(max(1, unitWords/lineWords)))*lineWords)
	}
	return out
}

// wordChain writes the cycle order[0] -> order[1] -> ... -> order[0] of word
// indices into the first buffer.
func wordChain(order []uint32) func(*memory.Global, *run.Params) error {
	return func(gm *memory.Global, ps *run.Params) error {
		buf := ps.Bufs["0"]
		var w [4]byte
		for k, at := range order {
			binary.LittleEndian.PutUint32(w[:], order[(k+1)%len(order)])
			if err := gm.Write(buf.Addr+uint64(at)*4, w[:]); err != nil {
				return err
			}
		}
		return nil
	}
}

// branchRecipes describes branch.csv: one warp's loop that ptxas may not
// unroll, with a body of K independent FFMAs, a chain of K FFMAs or IMADs,
// K dependent shared loads, or a shared load and its consumer
// (calibration/h200/branch.cu, k_loop<MODE, K>).
func branchRecipes() []recipe {
	const iters = 4096
	bodies := []struct {
		name string
		ks   []int
	}{{"indep_ffma", []int{1, 2, 4, 8, 16, 32}}, {"chain_ffma", []int{1, 2, 4, 8, 16, 32}},
		{"chain_imad", []int{1, 2, 4, 8}}, {"chain_lds", []int{1, 2, 4}}, {"lds_then_use", []int{1}}}
	var rs []recipe
	for mode, b := range bodies {
		for _, k := range b.ks {
			rs = append(rs, recipe{file: "branch.ptx", kernel: fmt.Sprintf("_Z6k_loopILi%dELi%dEEviffiPx", mode, k), block: 32,
				args: []string{fmt.Sprint(iters), "1.0001", "0.5", "3", "buf:16"}, outLen: 1,
				rows: []rowFn{{"branch_loop", fmt.Sprintf("%s_k%d", b.name, k), "cycles_per_trip",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	return rs
}

// trywaitRecipes describes trywait.csv's rows (calibration/h200/trywait.cu):
// the un-hinted try_wait's time limit, the order in which waiters resume,
// waits through per-thread addresses, and how often a wait loop's try_wait
// answers false.
func trywaitRecipes() []recipe {
	var rs []recipe
	for _, c := range []struct {
		other, block int
		name         string
	}{{1, 32, "other_none"}, {1, 64, "other_exits"}, {0, 64, "other_spins"}, {2, 64, "other_try_waits"}} {
		rs = append(rs, recipe{file: "trywait.ptx", kernel: fmt.Sprintf("_Z7k_falseILi%dEEvixPx", c.other), block: c.block,
			args: []string{"10", "2000000", "buf:16"}, outLen: 2,
			rows: []rowFn{{"try_wait_limit", c.name, "cycles_per_false", func(o []int64) float64 { return float64(o[0]) / float64(o[1]) }}}})
	}
	const reps = 8
	for _, w := range []int{1, 2, 4, 8, 16, 31} {
		// out[r*(w+1) + k] = waiter k's clock after its wait, out[r*(w+1) + w] the arriver's before its arrive.
		exits := func(last bool) func([]int64) float64 {
			return func(o []int64) float64 {
				return waiterExit(reps, w, last, func(r, k int) int64 { return o[r*(w+1)+k] }, func(r int) int64 { return o[r*(w+1)+w] })
			}
		}
		cfg := fmt.Sprintf("try_waiters%d", w)
		rs = append(rs, recipe{file: "trywait.ptx", kernel: "_Z9k_wakealliPx", block: 32 * (w + 1),
			args: []string{fmt.Sprint(reps), fmt.Sprintf("buf:%d", 8*reps*(w+1))}, outLen: reps * (w + 1),
			rows: []rowFn{{"wake_all", cfg, "first_exit", exits(false)}, {"wake_all", cfg, "last_exit", exits(true)}}})
	}
	const iters = 2000
	for _, w := range []int{1, 2, 4, 8, 16, 32} {
		for mode, name := range []string{"uniform", "wait_vector", "arrive_vector", "both_vector"} {
			rs = append(rs, recipe{file: "trywait.ptx", kernel: fmt.Sprintf("_Z5k_vecILi%dEEviiPx", mode), block: 32 * w,
				args: []string{fmt.Sprint(iters), "0", "buf:8"}, outLen: 1,
				rows: []rowFn{{"vecaddr_loop", fmt.Sprintf("%s_warps%d", name, w), "cycles_per_phase",
					func(o []int64) float64 { return float64(o[0]) / iters }}}})
		}
	}
	for _, w := range []int{1, 4, 8, 16, 32} {
		for mode, name := range []string{"converged", "converged_syncwarp", "lane0_syncwarp"} {
			cfg := fmt.Sprintf("%s_warps%d", name, w)
			rs = append(rs, recipe{file: "trywait.ptx", kernel: fmt.Sprintf("_Z7k_failsILi%dEEviPx", mode), block: 32 * w,
				args: []string{fmt.Sprint(iters), "buf:264"}, outLen: 33,
				rows: []rowFn{
					{"fails_loop", cfg, "cycles_per_phase", func(o []int64) float64 { return float64(o[0]) / iters }},
					{"fails_loop", cfg, "false_per_warp_phase", func(o []int64) float64 {
						var f int64
						for k := 1; k <= w; k++ {
							f += o[k]
						}
						return float64(f) / float64(w) / iters
					}},
				}})
		}
	}
	return rs
}

// waiterExit returns, over repetitions 2 to reps-1, the median of the
// earliest (or, with last, the latest) of w waiters' exits after the arriving
// thread's clock read: exit(r, k) is waiter k's clock after its wait in
// repetition r, arrive(r) the arriver's clock before its arrive.
func waiterExit(reps, w int, last bool, exit func(r, k int) int64, arrive func(r int) int64) float64 {
	var v []int64
	for r := 2; r < reps; r++ {
		e := exit(r, 0) - arrive(r)
		for k := 1; k < w; k++ {
			if x := exit(r, k) - arrive(r); x > e == last {
				e = x
			}
		}
		v = append(v, e)
	}
	return median(v)
}

// stampsRecipes describes stamps.csv (calibration/h200/stamps.cu): elect.cu's
// arrive/wait loop with clock stamps added, rolled and unrolled, and the
// wake-up of waiters whose wait names the barrier through a uniform register.
func stampsRecipes() []recipe {
	var rs []recipe
	const iters = 2000
	for _, w := range []int{1, 4, 8, 16, 32} {
		for mode, name := range []string{"converged", "lane0_syncwarp", "divergent2"} {
			for _, k := range []struct{ layout, kernel string }{{"ring", "_Z6k_ringILi%dEEviPx"}, {"unrolled", "_Z10k_unrolledILi%dEEviPx"}} {
				rs = append(rs, recipe{file: "stamps.ptx", kernel: fmt.Sprintf(k.kernel, mode), block: 32 * w,
					args: []string{fmt.Sprint(iters), "buf:32768"}, outLen: 1,
					rows: []rowFn{{"stamped_loop", fmt.Sprintf("%s_%s_warps%d", k.layout, name, w), "cycles_per_phase",
						func(o []int64) float64 { return float64(o[0]) / iters }}}})
			}
		}
	}
	const reps = 8
	for _, w := range []int{1, 2, 4, 8, 16, 31} {
		// out[(r*(w+1) + warp)*2] = warp's clock before the arrive, +1 after the wait; warp w arrives.
		at := func(o []int64, r, k, i int) int64 { return o[(r*(w+1)+k)*2+i] }
		exit := func(which int) func([]int64) float64 {
			return func(o []int64) float64 {
				arrive := func(r int) int64 { return at(o, r, w, 0) }
				if which == 2 { // the arriving warp's own exit
					return waiterExit(reps, 1, false, func(r, _ int) int64 { return at(o, r, w, 1) }, arrive)
				}
				return waiterExit(reps, w, which == 1, func(r, k int) int64 { return at(o, r, k, 1) }, arrive)
			}
		}
		cfg := fmt.Sprintf("waiters%d", w)
		rs = append(rs, recipe{file: "stamps.ptx", kernel: "_Z7k_uwakeixPx", block: 32 * (w + 1),
			args: []string{fmt.Sprint(reps), "2000", fmt.Sprintf("buf:%d", 16*reps*(w+1))}, outLen: 2 * reps * (w + 1),
			rows: []rowFn{{"uniform_wake", cfg, "first_exit", exit(0)}, {"uniform_wake", cfg, "last_exit", exit(1)},
				{"uniform_wake", cfg, "arriver_exit", exit(2)}}})
	}
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

// pingpongRecipes describes pingpong.csv (calibration/h200/pingpong.cu):
// two warps hand a token back and forth through two barriers of count 1
// (k_pp<MODE>, out[0] / 2000 round trips).
func pingpongRecipes() []recipe {
	const iters = 2000
	names := []string{"two_schedulers", "same_scheduler", "hinted", "test_wait", "vector", "full_warp_arrive", "lane0_only"}
	var rs []recipe
	for m, name := range names {
		block := 64
		if m == 1 {
			block = 160 // warps 0 and 4: one scheduler
		}
		rs = append(rs, recipe{file: "pingpong.ptx", kernel: fmt.Sprintf("_Z4k_ppILi%dEEviiPx", m), block: block,
			args: []string{fmt.Sprint(iters), "777", "buf:16"}, outLen: 1,
			rows: []rowFn{{"pingpong", name, "cycles_per_round_trip", func(o []int64) float64 { return float64(o[0]) / iters }}}})
	}
	return rs
}

// windowRecipes describes window.csv (calibration/h200/window.cu): one
// warp's chain of shared loads with, in each link, a window read, a
// %globaltimer or clock read, or a wait on a completed phase in libcu++'s
// or cuda::ptx's terms (k_window<MODE>, out[0] / 4096).
func windowRecipes() []recipe {
	const iters = 4096
	names := []string{"vector_outside", "vector_inside_sleep", "uniform_inside_sleep", "globaltimer", "clock64",
		"ptx_try_wait_parity", "lib_wait_parity", "vector_ptx_try_wait_parity", "vector_lib_wait_parity",
		"lib_arrive_wait_token", "ptx_arrive_wait_token", "vector_lib_arrive_wait_token", "vector_ptx_arrive_wait_token"}
	var rs []recipe
	for m, name := range names {
		rs = append(rs, recipe{file: "window.ptx", kernel: fmt.Sprintf("_Z8k_windowILi%dEEviiPx", m), block: 32, smem: 4096,
			args: []string{fmt.Sprint(iters), "77", "buf:16"}, outLen: 1,
			rows: []rowFn{{"window", name, "cycles_per_link", func(o []int64) float64 { return float64(o[0]) / iters }}}})
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

// selRecipes describes sel.csv (calibration/h200/sel.cu): one warp's
// dependent chains of `setp; selp` and `add; add; setp; selp`, 4096 links.
func selRecipes() []recipe {
	const links = 256 * 16
	var rs []recipe
	for _, c := range []struct {
		name, kernel string
		n, k         int
	}{
		{"setp_selp_vector", "_Z5k_selILi0EEviiiPx", 1000, 5}, {"setp_selp_uniform", "_Z5k_selILi1EEviiiPx", 1000, 5},
		{"add_setp_selp_vector", "_Z8k_addselILi0EEviiiPx", 100000, 64}, {"add_setp_selp_uniform", "_Z8k_addselILi1EEviiiPx", 100000, 64},
	} {
		rs = append(rs, recipe{file: "sel.ptx", kernel: c.kernel, block: 32,
			args: []string{"256", fmt.Sprint(c.n), fmt.Sprint(c.k), "buf:64"}, outLen: 1,
			rows: []rowFn{{"sel", c.name, "cycles_per_link", func(o []int64) float64 { return float64(o[0]) / links }}}})
	}
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
