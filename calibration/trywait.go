package calibration

import "fmt"

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
