package calibration

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/run"
)

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
