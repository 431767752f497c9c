package calibration

import "fmt"

// stgportRecipes describes stgport.csv (calibration/h200/stgport.cu): W
// warps of one CTA each storing 256 times to an L2-resident buffer in one
// of four shapes (eight sectors in eight lines, a whole line, four lines,
// four bytes in each of 32 lines), each warp's lane 0 stamping its start,
// its last store's issue and the end of a __threadfence after it; and one
// thread's bulk copies streaming into the SM beside four warps' eight-line
// stores (k_mix). Launches 2-4 of four on the H200; the same buffers every
// launch, so the second launch here finds them in L2.
func stgportRecipes() []recipe {
	const reps = 256
	var rs []recipe
	for pat, name := range []string{"rows8", "line", "line4", "spread"} {
		for _, w := range []int{1, 4, 8, 16} {
			span := func(end int) func([]int64) float64 {
				return func(o []int64) float64 {
					lo, hi := o[0], o[end]
					for i := 0; i < w; i++ {
						lo, hi = min(lo, o[3*i]), max(hi, o[3*i+end])
					}
					return float64(hi-lo) / float64(w*reps)
				}
			}
			cfg := fmt.Sprintf("%s_warps%d", name, w)
			rs = append(rs, recipe{file: "stgport.ptx", kernel: fmt.Sprintf("_Z7k_storeILi%dEEvPhPx", pat), block: 32 * w,
				args: []string{"buf:4194304", fmt.Sprintf("buf:%d", 8*3*w)}, outLen: 3 * w, launches: 2,
				rows: []rowFn{{"stgport", cfg, "cycles_per_store_issue", span(1)}, {"stgport", cfg, "cycles_per_store_done", span(2)}}})
		}
	}
	const copyBytes = 128 * 16384
	copies := func(o []int64) float64 { return copyBytes / float64(o[9]-o[8]) }
	stores := func(o []int64) float64 {
		lo, hi := o[0], o[1]
		for i := 0; i < 4; i++ {
			lo, hi = min(lo, o[2*i]), max(hi, o[2*i+1])
		}
		return float64(hi-lo) / (4 * reps)
	}
	for _, m := range []struct {
		name            string
		stores, copying int
		rows            []rowFn
	}{
		{"copies", 0, 1, []rowFn{{"stgport", "mix_copies", "copy_bytes_per_cycle", copies}}},
		{"stores", 1, 0, []rowFn{{"stgport", "mix_stores", "cycles_per_store_done", stores}}},
		{"both", 1, 1, []rowFn{{"stgport", "mix_both", "copy_bytes_per_cycle", copies}, {"stgport", "mix_both", "cycles_per_store_done", stores}}},
	} {
		rs = append(rs, recipe{file: "stgport.ptx", kernel: "_Z5k_mixPhPKhiiPx", block: 160, smem: 65536,
			args:   []string{"buf:4194304", "buf:1048576", fmt.Sprint(m.stores), fmt.Sprint(m.copying), "buf:128"},
			outLen: 10, launches: 2, rows: m.rows})
	}
	return rs
}
