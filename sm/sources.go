package sm

import "strings"

// Where each parameter of the h200 configuration comes from. "fit" means
// `smsim calibrate` chose it against the named rows of calibration/h200
// (docs/model.md gives the commands); "measured" that a row measures it
// directly; "assumed" that no measurement constrains it.
func sourcePrefixes() []struct{ prefix, source string } {
	return []struct{ prefix, source string }{
		{"syncs.try_wait_hint_timeout", "measured: probe.csv try_wait_incomplete_phase hint_ns* (7838 for every hint)"},
		{"syncs.try_wait_timeout", "measured: trywait.csv try_wait_limit (an un-hinted try_wait loop on a phase that never completes answers false every 7785-7839 cycles, whatever else runs; probe.csv hint_ns0's 33 cycles are not a limit, calibration/h200/README.md)"},
		{"syncs.pad_answers", "SASS and measured: latency3.csv (reg_sum 57 against reg_sum_spin 47 cycles: the wait branch's stall of 10, its TRYWAIT answering 36 cycles after issue in both); 0 in h200, whose barrier answer microbench.csv's single-thread rows set (they include a register reuse after a store, latency5.csv): with 1, syncs.latency 36 and syncs.acquire 36 all rows 7.56 % (against 7.79 %), latency4.csv 0.3 % and elected_count1_warps16 -14.9 %, but microbench.csv 5.14 % (docs/model.md)"},
		{"syncs.try_wait_hold", "measured: 0 - a clock read right behind a try_wait on an open phase issues 1-2 cycles later (trywait.cu); 1 is the effective model of earlier fits (with syncs.try_wait_timeout 25: a quick re-check)"},
		{"sched.wake_interval", "measured: stamps.csv uniform_wake (the last of 16 waiters resumes 44 cycles after the first, with the arriving warp, whose own try_wait answers true on arrival, five warps on one scheduler; of 31, 74.5 - eight a scheduler) and trywait.csv wake_all (16 waiters 32.5, 31 waiters 81): about 11 cycles per warp of one scheduler"},
		{"syncs.wake_cost", "measured: trywait.csv wake_all (waiters resume 2 cycles apart: 16 of them from 102 to 134.5 cycles after the arrive)"},
		{"syncs.test_wait", "fit: probe.csv test_wait_incomplete_phase (8) and latency arrive_to_complete_test_wait. An effective value: on the H200 a test_wait answers ~37 cycles after issue, true or false, through a scoreboard (spin.csv), and that row's 8 cycles are a write-after-read wait in its SASS (calibration/h200/README.md, twelfth session)"},
		{"syncs.interval", "measured: probe.csv arrive_throughput converged_warps16/32 (2.04 cycles per update, saturated)"},
		{"syncs.warp_interval", "measured: microbench.csv latency arrive_issue_interval_64_back_to_back (5.08)"},
		{"syncs.count_interval", "measured: elect.csv lane0_count32 - lane0 at 16 and 32 warps (2.0 and 1.9 cycles per update beyond syncs.interval); microbench.csv elected_arrive32 - elected_count1 at 32 warps (1.8)"},
		{"syncs.acquire", "fit: microbench.csv arrive_wait_loop and latency rows with the barrier parameters (27); steps.csv measures 47 cycles clock to clock from a try_wait on a completed phase to its branch. It also bounds a guarded-off hinted try_wait (its TRYWAIT's scoreboard, probe.csv hint_ns0)"},
		{"syncs.try_wait_wake", "fit and measured: the sixth session's fit (12) moved one cycle toward trywait.csv wake_all and microbench.csv wake_latency try_wait_loop, which measure this path directly (a waiter resumes 101-102 cycles after another warp's arrive; smsim 98 at 12, 99 at 13): microbench.csv 4.49 -> 4.60 %, its worst row 15.2 -> 14.9 % (elected_count1_warps16 -14.4 %), all rows 7.79 -> 7.76 %; 14 and 15 reach 100 and 101 but put converged_warps4 at +15.1 and +16.5 % (docs/model.md)"},
		{"syncs.queue", "assumed: no row constrains it beyond the saturated arrive throughput"},
		{"syncs.", "fit: microbench.csv arrive_wait_loop, latency single_thread, wake_latency, with elect.csv, syncwarp.csv, waitdelay.csv and trywait.csv (sixth session, docs/model.md)"},
		{"branch.taken", "measured: branch.csv (a taken branch issues its target 10 cycles after itself: the FFMA-chain loops take the stall counts before their branch + 10 = 39, 71, 135)"},
		{"branch.bsync", "fit: microbench.csv arrive_wait_loop with the barrier parameters (34); elect.csv: an if (lane == 0) arrive costs 90 cycles a phase without __syncwarp(), 65 with it"},
		{"branch.diverge", "fit: 0 - with if-conversion and branch.bsync the divergent2 rows need no further cost"},
		{"bar.", "fit: probe.csv syncthreads_loop (14.87 + ~2 per warp)"},
		{"latency.special", "measured: latency clock_read_overhead, latency_chain clock64_back_to_back (2)"},
		{"interval.special", "measured: two back-to-back clock reads are 2 cycles apart"},
		{"latency.alu", "measured: pipeline.csv latency_chain lop3/shf/prmt (4.16-4.18)"},
		{"latency.imad", "measured: latency_chain imad_u32 (4.16)"},
		{"latency.fma", "measured: latency_chain ffma_f32 (4.19), probe.csv alu_chain fma_f32"},
		{"latency.half2_mma", "read: pipeline.cu's SASS (calibration/h200 README.md, twelfth session): ptxas stalls 10 cycles after an HFMA2.MMA whose result the next FMA reads; latency_chain hfma2_f16x2 (8.59 an FMA, alternating with HFMA2)"},
		{"latency.half2", "read: pipeline.cu's SASS: ptxas stalls 6 cycles after an HFMA2 whose result the next FMA reads; latency_chain hfma2_f16x2 (8.59 an FMA, alternating with HFMA2.MMA)"},
		{"latency.cvt_float", "read: pipeline.cu's SASS (calibration/h200 README.md, twelfth session): F2FP.F16.F32.PACK_AB and HADD2.F32 stall 5 cycles before the conversion that reads them; latency_chain f2f_f16_f32_pair (10.15 a pair) and convert.csv f2h_pair_chains1_warps1 (10.19)"},
		{"latency.mufu_forward", "measured: pipeline.csv latency_chain mufu_rcp_ffma_pair (23.11 cycles a pair: 17 + 4 + one each way) and f2i_i2f_pair (23.13); chains on one pipe run at its latency (mufu_rsqrt 17.06, ffma 4.19), and integer/FMA mixes at theirs (convert.csv i2f_imad, wspipe.csv)"},
		{"smem.atomic_cycles", "measured: pipeline.csv latency_chain atom_shared_add_u32 (26.04 cycles a link; ATOMS.ADD chained through its result in pipeline.cu's SASS) against smem_ld_chain (23.26)"},
		{"latency.fp64", "measured: latency_chain dfma_f64 (8.15), probe.csv alu_chain fma_f64 (8.72)"},
		{"latency.sfu", "measured: latency_chain mufu_rsqrt/ex2 (17.0), popc_b32 (17.04); convert.csv ex2, f2i_s32 and i2f_u16 chains (17.00): F2I and I2F.U16 run on the MUFU unit"},
		{"latency.shared", "measured: latency_chain smem_ld_chain (23.26)"},
		{"latency.branch", "measured: branch.csv's SASS (a branch that falls through holds its warp its stall count, 5)"},
		{"latency.pred", "measured: branch.csv (ptxas's stall counts from an ISETP to the branch reading its predicate sum to 13 in every loop: the 29-cycle floor of a loop trip)"},
		{"latency.window_reload", "effective: prodonly.csv mask_call - mask = 184 cycles a trip (rem32_call - rem32 = 208), spread over the three S2UR SR_CgaCtaId of the trip's SASS: 61 each; the read alone is latency.window_read, so most of it is something else a loop with a call pays, not identified"},
		{"latency.window_read", "measured: window.csv: libcu++'s wait_parity on a completed phase (126.0 / 119.1 cycles a link, one S2UR / S2R a link in its SASS) and loads through a re-read window address (50.6 / 51.3): 2-4 fit; 61 gave 181 and 110"},
		{"latency.copy_r2ur_loop", "measured: waterfall.csv (a bulk store holds its thread from before its operands' moves to after its commit 68 cycles with vector operands, 10 uniform: +58; a 256 B store and its wait_group.read 102.3 against 46.0 cycles)"},
		{"latency.copy_r2ur", "measured: waterfall.csv (a 256 B or 4 KiB bulk load and its wait: 358.1 / 417.6 cycles with the operands in vector registers, 320.3 / 379.8 uniform: +38 both)"},
		{"latency.warpsync", "SASS: a full-mask __syncwarp() of a converged warp is one NOP (microbench.cu's elected and divergent32 loops, elect.cu); the 7 cycles fitted before stood in for ptxas's predicate recomputation (compiler.RecomputeCompares) and the elected loop's schedule"},
		{"latency.div64", "measured: latency2.csv div_rn_f64 (111.9)"},
		{"latency.div", "measured: latency2.csv div_rn_f32 (45.6), sqrt_rn_f32 (44.5)"},
		{"latency.idiv64_inv", "measured: latency2.csv rem_u64_32bit_values, invariant divisor (266.4)"},
		{"latency.idiv64", "measured: latency2.csv div_u64_32bit_values (316.3; 338.8 with a dividend over 2^32)"},
		{"latency.idiv_inv", "measured: latency2.csv rem_u32 (61.5) and rem_s32 (67.7), invariant divisor"},
		{"latency.idiv", "measured: latency2.csv div_u32 (129.4), div_s32 (138.6)"},
		{"interval.idiv", "counted: SASS instructions per operation in latency2.sass (div.u32 ~18, rem by an invariant divisor ~8)"},
		{"interval.global", "measured: ldg.csv ldg32 (L1-hit global loads from one sub-partition every 9.7 cycles with one warp's eight chains, 5.1-5.3 at 16-32 warps); lines beyond the first hold the pipe mem.per_line each, and every line takes a wavefront of the SM's data array (ldg128 16.00 at 8-32 warps)"},
		{"interval.shared", "measured: smem.csv lds32 (a sub-partition starts a shared load every 4.00 cycles at 8-32 warps, 4.60 with one warp); wider accesses hold the pipe smem.conflict_cycles a wavefront (lds128 alone 8.66)"},
		{"interval.sfu", "measured: convert.csv ex2, f2i_s32, i2f_u16 (8.00 cycles a warp instruction at 8-32 warps: 4 lanes a cycle) and f2i_ex2 (8.00 alternating: one unit)"},
		{"interval.div", "counted: SASS instructions per operation in latency2.sass"},
		{"latency.tma", "measured: steps.csv (a copy holds its thread 44 cycles back to back: x2 129, x8 393 cycles; the first 85 before the next clock read)"},
		{"latency.", "assumed: typical Hopper latency for the class; no row isolates it"},
		{"interval.alu", "measured: throughput.csv lop (LOP3 alone: 2.07 cycles a warp instruction, the integer pipe is 16 lanes); adds and moves may take the FMA-heavy pipe instead (sm/pipes.go)"},
		{"interval.imad", "measured: throughput.csv imad (2.00 cycles a warp instruction at 16-32 warps: IMAD runs only on the 16-lane FMA-heavy pipe)"},
		{"interval.fma", "measured: throughput.csv ffma (1.10-1.14 a warp instruction: two 16-lane halves, heavy and lite, each held 2 cycles) and imad_ffma (1.10)"},
		{"interval.", "assumed: issue interval of the class's pipe (16 or 32 lanes per sub-partition)"},
		{"mem.l1_hit", "measured: latency_chain ldg_u64_chain_l1_hit (32.04)"},
		{"mem.l1_miss", "measured: probe.csv global_load_chain 2 MiB/16 MiB (370-374 with address arithmetic) minus mem.l2"},
		{"mem.l2", "fit: microbench.csv bulk_copy_latency and tensor2d_copy_latency l2hit rows"},
		{"mem.dram_bytes", "scan: microbench.csv copy rows with membw.csv's DRAM rows (mean error 9.18 % at 82, 9.30 at 86, 9.77 at 90; 86 is nearest the measured streaming peak of 89-91)"},
		{"mem.dram", "measured: gmem.csv dram_pages8 (664.7 cycles a load, every load an L2 miss) minus the 362-cycle L2 hit"},
		{"mem.stream_dram", "fit: microbench.csv bulk_copy_latency dram rows (a 16 B copy from DRAM waits 385 cycles more than from L2, a load 303)"},
		{"mem.tlb_miss", "measured: gmem.csv dram_pages8192 - dram_pages8 (10.4 cycles: every load in a new page)"},
		{"mem.tlb", "assumed: 2 MiB pages (the CUDA allocator's), 32 entries; gmem.csv pagesP_l2 shows no translation step up to 8192 pages"},
		{"mem.l2_bytes", "measured: gmem.csv footprint 32 MiB-512 MiB (random chases hit as in a 30 MiB cache: one of the L2's two 30 MiB partitions)"},
		{"mem.", "assumed or from the H200's documentation (line and sector sizes, L1 carve-out)"},
		{"tma.issue_interval", "bounded: the engine keeps up with one thread's copies back to back (steps.csv 44 a copy, issue.csv 46.6 a 16-byte copy in a loop); no row measures the front end alone"},
		{"tma.descriptor_miss", "measured: tmadesc.csv, a second tensor map's first copy 469 cycles against 423 for the next copies — one poll of the test_wait spin that times them (spin.csv: a spin polls every ~46 cycles), so anything from 1 to 92"},
		{"tma.descriptor_first", "measured: tmadesc.csv, a launch's first tensor copy 587 cycles against 423 (164 = descriptor_miss + 118), in bounds or not"},
		{"tma.store_bytes_per_cycle", "measured: store.csv, one thread's stream of 16 KiB bulk stores leaves every 513.9 cycles (31.9 B/cycle), of 4 KiB stores every 129.9 (31.5)"},
		{"tma.store_read_bytes", "measured: smemshare.csv (16 warps' 128-bit shared loads, 262,144 wavefronts at one a cycle alone, take 365.3k / 365.7k cycles while one thread's 4 / 16 KiB bulk stores stream over 236.7k / 212.9k of them: half the array while a store reads at 32 B/cycle)"},
		{"tma.store_buffer", "measured: store.csv, with one buffer the read wait (wait_group.read) comes 31 cycles before the write wait (wait_group) for stores of 4 and 16 KiB: 31 cycles at 32 B/cycle"},
		{"tma.", "fit: microbench.csv bulk_copy_latency, bulk_copy_bandwidth_one_sm, tensor2d_copy_latency"},
		{"smem.wavefront_cycles", "measured: smem.csv lds32/64/128 at 8-32 warps (4.00, 8.00, 16.00 cycles a warp instruction per sub-partition: the four together get one 128-byte wavefront a cycle)"},
		{"smem.queue", "scan: 4 best of 0, 4, 8 and 16 over every row (7.78, 7.58, 7.63, 7.64 % mean error): wspipe.csv 10.8 % with none, 5.8 % with 4; no row measures the depth alone"},
		{"smem.conflict_cycles", "measured: probe.csv smem_load_chain (+2 cycles per extra conflicting address)"},
		{"smem.", "the H200's documentation (228 KiB per SM, 227 KiB per block, 32 banks of 4 bytes)"},
		{"clock_mhz", "measured: microbench device row (1979.6 MHz under load)"},
		{"sass.read_scoreboard", "measured: latency5.csv (k_lat's parity SHF waits on the read scoreboard of the STG.E.64 before it, issued 3 cycles earlier: a global store reads its data registers ~12 cycles after it issues; calibration/h200/README.md, nineteenth session); assumed the same for shared stores, barrier and copy operations"},
		{"sched.", "the H200's documentation (4 sub-partitions); GTO assumed"},
		{"limit.", "the H200's documentation (64 warps, 32 CTAs, 2048 threads per SM)"},
		{"watchdog.", "a tool setting, not a hardware parameter"},
		{"nanosleep.", "assumed"},
	}
}

// Source says where the value of configuration key comes from.
func Source(key string) string {
	for _, s := range sourcePrefixes() {
		if strings.HasPrefix(key, s.prefix) {
			return s.source
		}
	}
	return "assumed"
}
