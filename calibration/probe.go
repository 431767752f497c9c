package calibration

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/run"
)

// probeRecipes describes probe.csv's rows (hwprobe.cu's main()).
func probeRecipes() []recipe {
	var rs []recipe
	at := func(i int) func([]int64) float64 { return func(o []int64) float64 { return float64(o[i]) } }
	rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z13p_late_expectPx", block: 1, args: []string{"buf:64"}, outLen: 4,
		rows: []rowFn{
			{"semantics", "complete_tx_then_arrive_then_expect_tx", "complete_before_expect", at(0)},
			{"semantics", "complete_tx_then_arrive_then_expect_tx", "complete_after_expect", at(1)},
			{"semantics", "expect_tx_then_arrive_then_complete_tx", "complete_before_complete_tx", at(2)},
			{"semantics", "expect_tx_then_arrive_then_complete_tx", "complete_after_complete_tx", at(3)},
		}})
	for _, c := range []struct {
		expect, x, y int
		name         string
	}{{8192, 0, 0, "inbounds_expect8192"}, {8192, 32, 32, "quarter_inbounds_expect8192_fullbox"},
		{2048, 32, 32, "quarter_inbounds_expect2048_inbounds_only"}, {8192, 64, 64, "fully_oob_expect8192"}} {
		rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z5p_oob14CUtensorMap_stjiiPx", block: 1, smem: 16384,
			args:   []string{"tensormap:f16,64x64,box=64x64,stride=128", fmt.Sprint(c.expect), fmt.Sprint(c.x), fmt.Sprint(c.y), "buf:64"},
			warm:   []string{"0"}, // the host wrote the tensor with cudaMemset before the launches
			outLen: 2, rows: []rowFn{
				{"semantics_tma_oob", c.name, "phase_completed", at(0)},
				{"semantics_tma_oob", c.name, "cycles_to_complete", at(1)},
			}})
	}
	for _, hint := range []int{0, 100, 1000, 10000, 100000} {
		cfg := fmt.Sprintf("hint_ns%d", hint)
		rows := []rowFn{
			{"try_wait_incomplete_phase", cfg, "median_cycles_until_false", func(o []int64) float64 {
				v := []int64{o[0], o[2], o[4], o[6], o[8], o[10], o[12], o[14]}
				sort.Slice(v, func(i, j int) bool { return v[i] < v[j] })
				return 0.5 * float64(v[3]+v[4])
			}},
			{"try_wait_incomplete_phase", cfg, "returned_true", func(o []int64) float64 {
				any := int64(0)
				for i := 0; i < 8; i++ {
					any |= o[2*i+1]
				}
				return float64(any)
			}},
		}
		if hint == 0 {
			rows = append(rows, rowFn{"test_wait_incomplete_phase", "single", "cycles", at(16)})
		}
		rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z17p_trywait_timeoutjPx", block: 1,
			args: []string{fmt.Sprint(hint), "buf:256"}, outLen: 18, rows: rows})
	}
	for _, threads := range []int{32, 128, 512, 1024} {
		w := float64(threads / 32)
		for _, div := range []bool{false, true} {
			if div && threads == 1024 {
				// p_arrive_throughput<true> takes 72 registers a thread
				// (hwprobe.ptxas): 1024 threads need 73,728 of the SM's
				// 65,536, so the H200 refused the launch, and hwprobe.cu,
				// which does not check, printed the launch before's result
				// (probe.csv: 2.04, converged_warps32's to the digit).
				// smsim refuses it too (limit.registers): no row.
				continue
			}
			kernel, cfg := "_Z19p_arrive_throughputILb0EEvPx", fmt.Sprintf("converged_warps%d_64each", threads/32)
			if div {
				kernel, cfg = "_Z19p_arrive_throughputILb1EEvPx", fmt.Sprintf("lane_serial_warps%d_64each", threads/32)
			}
			rs = append(rs, recipe{file: "hwprobe.ptx", kernel: kernel, block: threads, args: []string{"buf:8"}, outLen: 1,
				rows: []rowFn{{"arrive_throughput", cfg, "cycles_per_update", func(o []int64) float64 { return float64(o[0]) / (64 * w) }}}})
		}
	}
	for _, stride := range []int{0, 1, 2, 4, 8, 16, 32, 33} {
		rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z15p_smem_conflictiiPx", block: 32,
			args: []string{fmt.Sprint(stride), "1000", "buf:16"}, outLen: 1,
			rows: []rowFn{{"smem_load_chain", fmt.Sprintf("stride_words%d", stride), "cycles_per_load",
				func(o []int64) float64 { return float64(o[0]) / 1000 }}}})
	}
	per := func(i int) func([]int64) float64 { return func(o []int64) float64 { return float64(o[i]) / 4096 } }
	rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z5p_aluifiPx", block: 1, args: []string{"4096", "1.0", "3", "buf:64"}, outLen: 4,
		rows: []rowFn{{"alu_chain", "fma_f32", "cycles_per_op", per(0)}, {"alu_chain", "imad_s32", "cycles_per_op", per(1)},
			{"alu_chain", "iadd_s32", "cycles_per_op", per(2)}, {"alu_chain", "fma_f64", "cycles_per_op", per(3)}}})
	for _, kib := range []int{16, 2048, 16384, 1048576} {
		bytes := uint64(kib) << 10
		rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z8p_gchasePKjiPx", block: 1,
			args: []string{fmt.Sprintf("buf:%d", bytes), "2000", "buf:16"}, outLen: 1, prep: chasePrep(bytes, 64+2000+1),
			warm: []string{"0"}, // the host copied the chain in with cudaMemcpy
			rows: []rowFn{{"global_load_chain", fmt.Sprintf("footprint_%dKiB", kib), "cycles_per_load",
				func(o []int64) float64 { return float64(o[0]) / 2000 }}}})
	}
	for _, threads := range []int{32, 64, 128, 256, 512, 1024} {
		rs = append(rs, recipe{file: "hwprobe.ptx", kernel: "_Z9p_barsynciPx", block: threads, args: []string{"1000", "buf:8"}, outLen: 1,
			rows: []rowFn{{"syncthreads_loop", fmt.Sprintf("warps%d", threads/32), "cycles_per_barrier",
				func(o []int64) float64 { return float64(o[0]) / 1000 }}}})
	}
	return rs
}

// chasePrep writes p_gchase's pointer chain into the first buffer: word 0 of
// line perm[i] holds the word index of line perm[i+1], where perm is a random
// permutation of the footprint's 128-byte lines with perm[0] = 0 (as the
// host's std::shuffle of perm[1:] builds it). Only the steps the kernel
// walks are written, drawn by a lazy Fisher–Yates shuffle, so a 1 GiB
// footprint costs a few thousand words. The generator differs from the
// host's mt19937, which does not matter: the rows measure the latency of a
// random walk over the footprint, not one particular walk.
func chasePrep(bytes uint64, steps int) func(*memory.Global, *run.Params) error {
	return func(gm *memory.Global, ps *run.Params) error {
		buf := ps.Bufs["0"]
		lines := bytes / 128
		rng := rand.New(rand.NewPCG(7, uint64(bytes)))
		swapped := map[uint64]uint64{}
		get := func(i uint64) uint64 {
			if v, ok := swapped[i]; ok {
				return v
			}
			return i
		}
		perm := []uint64{0}
		for i := uint64(1); i < lines && len(perm) < steps; i++ {
			j := i + rng.Uint64N(lines-i)
			vi, vj := get(i), get(j)
			swapped[i], swapped[j] = vj, vi
			perm = append(perm, vj)
		}
		var w [4]byte
		for i, line := range perm {
			next := perm[(i+1)%len(perm)]
			binary.LittleEndian.PutUint32(w[:], uint32(next*32))
			if err := gm.Write(buf.Addr+line*128, w[:]); err != nil {
				return err
			}
		}
		return nil
	}
}
