package sm

import (
	"slices"

	"github.com/smsim/smsim/isa"
)

// The configuration keys, each declared once: its name, unit, h200 value,
// where that value comes from, and what it means, bound to the Config field
// that holds it. DefaultConfig, Set, Get and Params — and so `smsim config
// show`, its --markdown table (docs/model.md) and --set — are derived from
// these declarations. Keys are grouped by the component or behaviour they
// model; hardware parameters apart from the compiler model's costs, the
// model choices and the tool's settings.
//
// A source's files are those of calibration/h200 (its README.md and
// microbench.md describe them); "fit" means `smsim calibrate` chose the
// value against the named rows (docs/model.md gives the commands).

// declarations lists every key.
func declarations() []decl {
	return slices.Concat(clockKeys(), schedKeys(), limitKeys(), pipeKeys(), branchKeys(), syncsKeys(), barKeys(),
		tensorKeys(),
		smemKeys(), memKeys(), tmaKeys(), gpuKeys(), sassKeys(), ptxasKeys(), choiceKeys(), toolKeys())
}

// keyGroup collects the declarations of one group of keys.
type keyGroup struct {
	name string
	kind Kind
	ds   []decl
}

// int declares an integer key.
func (g *keyGroup) int(key, unit string, def int, src Source, doc string, at func(*Config) *int) {
	g.add(key, unit, src, doc, intField{at: at, def: def})
}

func (g *keyGroup) add(key, unit string, src Source, doc string, f field) {
	g.ds = append(g.ds, decl{key: key, unit: unit, doc: doc, group: g.name, kind: g.kind, src: src, field: f})
}

func measuredSrc(text string) Source { return Source{Measured, "measured: " + text} }
func fitSrc(text string) Source      { return Source{Fitted, "fit: " + text} }
func assumedSrc(text string) Source  { return Source{Assumed, "assumed: " + text} }

// documented is the source of the H200's documented sizes and counts.
func documentedSrc(what string) Source {
	return Source{Documented, "the H200's documentation (" + what + ")"}
}

func clockKeys() []decl {
	g := keyGroup{name: "clock and sleep", kind: Hardware}
	g.add("clock_mhz", "MHz", measuredSrc("microbench device row (1979.6 MHz under load)"),
		"SM clock under load (ns to cycles for nanosleep, %globaltimer and the L2's and DRAM's nanoseconds, mem.*_ns; every cycle count here was measured at 1980; tensor-heavy kernels run the H200 at 1700-1800: clockdom.csv, gemm_grid.csv)",
		floatField{at: func(c *Config) *float64 { return &c.ClockMHz }, def: 1980})
	g.int("nanosleep.min", "cycles", 0, Source{Assumed, "assumed"}, "shortest nanosleep", func(c *Config) *int { return &c.NanosleepMin })
	return g.ds
}

func schedKeys() []decl {
	g := keyGroup{name: "warp schedulers", kind: Hardware}
	h200 := "the H200's documentation (4 sub-partitions); GTO assumed"
	g.int("sched.count", "", 4, Source{Documented, h200}, "warp schedulers (sub-partitions), one issue per cycle each", func(c *Config) *int { return &c.Sched.Count })
	g.int("sched.wake_interval", "cycles", 11, measuredSrc("stamps.csv uniform_wake (the last of 16 waiters resumes 44 cycles after the first, with the arriving warp, whose own try_wait answers true on arrival, five warps on one scheduler; of 31, 74.5 - eight a scheduler) and trywait.csv wake_all (16 waiters 32.5, 31 waiters 81): about 11 cycles per warp of one scheduler"), "cycles a scheduler needs between resuming two of its warps on a try_wait answer (a suspended waiter's wake-up, or a true answer on arrival)", func(c *Config) *int { return &c.Sched.WakeInterval })
	g.kind = ModelChoice
	g.add("sched.policy", "", Source{Assumed, h200}, "warp scheduler policy: gto or lrr",
		choiceField[Policy]{at: func(c *Config) *Policy { return &c.Sched.Policy }, def: GTO,
			choices: []choice[Policy]{{name: string(GTO), v: GTO}, {name: string(LRR), v: LRR}}})
	return g.ds
}

func limitKeys() []decl {
	g := keyGroup{name: "CTA placement", kind: Hardware}
	h200 := documentedSrc("64 warps, 32 CTAs, 2048 threads per SM")
	g.int("limit.warps", "warps", 64, h200, "resident warps per SM", func(c *Config) *int { return &c.Limits.Warps })
	g.int("limit.ctas", "CTAs", 32, h200, "resident CTAs per SM", func(c *Config) *int { return &c.Limits.CTAs })
	g.int("limit.threads", "threads", 2048, h200, "resident threads per SM", func(c *Config) *int { return &c.Limits.Threads })
	regs := documentedSrc("the CUDA C++ Programming Guide's table of compute capability 9.0: 64K 32-bit registers per SM, allocated a warp at a time in units of 256 (the Occupancy Calculator's allocation unit); probe.csv: hwprobe.cu's 72-register p_arrive_throughput<true> was refused at 1024 threads (73,728 registers), its row the launch before's result")
	g.int("limit.registers", "registers", 65536, regs, "32-bit registers per SM, shared by its resident CTAs' warps", func(c *Config) *int { return &c.Limits.Registers })
	g.int("limit.register_unit", "registers", 256, regs, "registers a warp's allocation is rounded up to a multiple of", func(c *Config) *int { return &c.Limits.RegisterUnit })
	return g.ds
}

// classTiming is the h200 latency and interval of one timing class, and
// where each comes from.
type classTiming struct {
	class    isa.Class
	latency  int
	latSrc   Source
	interval int
	ivlSrc   Source
}

func pipeKeys() []decl {
	g := keyGroup{name: "pipes", kind: Hardware}
	lat := assumedSrc("typical Hopper latency for the class; no row isolates it")
	ivl := assumedSrc("issue interval of the class's pipe (16 or 32 lanes per sub-partition)")
	divIvl := Source{Derived, "counted: SASS instructions per operation in latency2.sass"}
	idivIvl := Source{Derived, "counted: SASS instructions per operation in latency2.sass (div.u32 ~18, rem by an invariant divisor ~8)"}
	classes := []classTiming{
		{class: isa.ClassALU, latency: 4, latSrc: measuredSrc("pipeline.csv latency_chain lop3/shf/prmt (4.16-4.18)"),
			interval: 2, ivlSrc: measuredSrc("throughput.csv lop (LOP3 alone: 2.07 cycles a warp instruction, the integer pipe is 16 lanes); adds and moves may take the FMA-heavy pipe instead (sm/pipes.go)")},
		{class: isa.ClassIMAD, latency: 4, latSrc: measuredSrc("latency_chain imad_u32 (4.16)"),
			interval: 2, ivlSrc: measuredSrc("throughput.csv imad (2.00 cycles a warp instruction at 16-32 warps: IMAD runs only on the 16-lane FMA-heavy pipe)")},
		{class: isa.ClassFMA, latency: 4, latSrc: measuredSrc("latency_chain ffma_f32 (4.19), probe.csv alu_chain fma_f32"),
			interval: 2, ivlSrc: measuredSrc("throughput.csv ffma (1.10-1.14 a warp instruction: two 16-lane halves, heavy and lite, each held 2 cycles) and imad_ffma (1.10)")},
		{class: isa.ClassFP64, latency: 8, latSrc: measuredSrc("latency_chain dfma_f64 (8.15), probe.csv alu_chain fma_f64 (8.72)"),
			interval: 2, ivlSrc: ivl},
		{class: isa.ClassSFU, latency: 17, latSrc: measuredSrc("latency_chain mufu_rsqrt/ex2 (17.0), popc_b32 (17.04); convert.csv ex2, f2i_s32 and i2f_u16 chains (17.00): F2I and I2F.U16 run on the MUFU unit"),
			interval: 8, ivlSrc: measuredSrc("convert.csv ex2, f2i_s32, i2f_u16 (8.00 cycles a warp instruction at 8-32 warps: 4 lanes a cycle) and f2i_ex2 (8.00 alternating: one unit)")},
		{class: isa.ClassDiv, latency: 45, latSrc: measuredSrc("latency2.csv div_rn_f32 (45.6), sqrt_rn_f32 (44.5)"),
			interval: 8, ivlSrc: divIvl},
		{class: isa.ClassDiv64, latency: 112, latSrc: measuredSrc("latency2.csv div_rn_f64 (111.9)"),
			interval: 16, ivlSrc: divIvl},
		{class: isa.ClassIDiv, latency: 129, latSrc: measuredSrc("latency2.csv div_u32 (129.4), div_s32 (138.6)"),
			interval: 18, ivlSrc: idivIvl},
		{class: isa.ClassIDivInv, latency: 62, latSrc: measuredSrc("latency2.csv rem_u32 (61.5) and rem_s32 (67.7), invariant divisor"),
			interval: 8, ivlSrc: idivIvl},
		{class: isa.ClassIDiv64, latency: 316, latSrc: measuredSrc("latency2.csv div_u64_32bit_values (316.3; 338.8 with a dividend over 2^32)"),
			interval: 24, ivlSrc: idivIvl},
		{class: isa.ClassIDiv64Inv, latency: 266, latSrc: measuredSrc("latency2.csv rem_u64_32bit_values, invariant divisor (266.4)"),
			interval: 14, ivlSrc: idivIvl},
		{class: isa.ClassSpecial, latency: 2, latSrc: measuredSrc("latency clock_read_overhead, latency_chain clock64_back_to_back (2)"),
			interval: 2, ivlSrc: measuredSrc("two back-to-back clock reads are 2 cycles apart")},
		{class: isa.ClassBranch, latency: 5, latSrc: measuredSrc("branch.csv's SASS (a branch that falls through holds its warp its stall count, 5)"),
			interval: 1, ivlSrc: ivl},
		{class: isa.ClassShared, latency: 23, latSrc: measuredSrc("latency_chain smem_ld_chain (23.26)"),
			interval: 4, ivlSrc: measuredSrc("smem.csv lds32 (a sub-partition starts a shared load every 4.00 cycles at 8-32 warps, 4.60 with one warp); wider accesses hold the pipe smem.conflict_cycles a wavefront (lds128 alone 8.66)")},
		{class: isa.ClassGlobal, latency: 0, latSrc: lat,
			interval: 4, ivlSrc: measuredSrc("ldg.csv ldg32 (L1-hit global loads from one sub-partition every 9.7 cycles with one warp's eight chains, 5.1-5.3 at 16-32 warps); lines beyond the first hold the pipe mem.per_line each, and every line takes a wavefront of the SM's data array (ldg128 16.00 at 8-32 warps)")},
		{class: isa.ClassLocal, latency: 0, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassConst, latency: 28, latSrc: measuredSrc("sassprobe.csv ldc_bank3: a chain of LDC R, c[0x3][R] through one SHF of stall count 6, 34.09 cycles a link"), interval: 1, ivlSrc: ivl},
		{class: isa.ClassParam, latency: 4, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassSyncs, latency: 0, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassBar, latency: 0, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassWarpSync, latency: 1, latSrc: Source{Derived, "SASS: a full-mask __syncwarp() of a converged warp is one NOP (microbench.cu's elected and divergent32 loops, elect.cu); the 7 cycles fitted before stood in for ptxas's predicate recomputation (compiler.RecomputeCompares) and the elected loop's schedule"},
			interval: 1, ivlSrc: ivl},
		{class: isa.ClassFence, latency: 8, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassTMA, latency: 44, latSrc: measuredSrc("steps.csv (a copy holds its thread 44 cycles back to back: x2 129, x8 393 cycles; the first 85 before the next clock read)"),
			interval: 1, ivlSrc: ivl},
		{class: isa.ClassSleep, latency: 0, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassCompute, latency: 4, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassDelay, latency: 0, latSrc: lat, interval: 1, ivlSrc: ivl},
		{class: isa.ClassHalf2, latency: 6, latSrc: Source{Derived, "read: pipeline.cu's SASS: ptxas stalls 6 cycles after an HFMA2 whose result the next FMA reads; latency_chain hfma2_f16x2 (8.59 an FMA, alternating with HFMA2.MMA)"},
			interval: 2, ivlSrc: ivl},
		{class: isa.ClassHalf2MMA, latency: 10, latSrc: Source{Derived, "read: pipeline.cu's SASS (calibration/h200/README.md): ptxas stalls 10 cycles after an HFMA2.MMA whose result the next FMA reads; latency_chain hfma2_f16x2 (8.59 an FMA, alternating with HFMA2)"},
			interval: 2, ivlSrc: ivl},
		{class: isa.ClassCvtFloat, latency: 5, latSrc: Source{Derived, "read: pipeline.cu's SASS (calibration/h200/README.md): F2FP.F16.F32.PACK_AB and HADD2.F32 stall 5 cycles before the conversion that reads them; latency_chain f2f_f16_f32_pair (10.15 a pair) and convert.csv f2h_pair_chains1_warps1 (10.19)"},
			interval: 2, ivlSrc: ivl},
		{class: isa.ClassMMA, latency: 1, latSrc: assumedSrc("a warpgroup instruction holds its warp one cycle; a wgmma's results come from the tensor pipe (tensor.*), which wgmma.wait_group waits for"),
			interval: 1, ivlSrc: ivl},
	}
	for _, t := range classes {
		k, name := t.class, t.class.String()
		g.int("latency."+name, "cycles", t.latency, t.latSrc, "issue to result usable, class "+name,
			func(c *Config) *int { return &c.Pipes.Latency[k] })
		g.int("interval."+name, "cycles", t.interval, t.ivlSrc, "pipe occupancy per warp instruction, class "+name,
			func(c *Config) *int { return &c.Pipes.Interval[k] })
	}
	g.int("latency.mufu_forward", "cycles", 1, measuredSrc("pipeline.csv latency_chain mufu_rcp_ffma_pair (23.11 cycles a pair: 17 + 4 + one each way) and f2i_i2f_pair (23.13); chains on one pipe run at its latency (mufu_rsqrt 17.06, ffma 4.19), and integer/FMA mixes at theirs (convert.csv i2f_imad, wspipe.csv)"), "extra wait of a MUFU result read by another arithmetic pipe, or of theirs read by the MUFU unit", func(c *Config) *int { return &c.Pipes.MUFUForward })
	return g.ds
}

func branchKeys() []decl {
	g := keyGroup{name: "branches", kind: Hardware}
	g.int("branch.taken", "cycles", 10, measuredSrc("branch.csv (a taken branch issues its target 10 cycles after itself: the FFMA-chain loops take the stall counts before their branch + 10 = 39, 71, 135)"), "taken branch issue to its target's first issue", func(c *Config) *int { return &c.Branch.Taken })
	g.int("branch.diverge", "cycles", 0, fitSrc("0 - with if-conversion and branch.bsync the divergent2 rows need no further cost"), "extra cost of a branch that splits the warp", func(c *Config) *int { return &c.Branch.Diverge })
	g.int("branch.yield_switch", "cycles", 102, measuredSrc("testdata/cuda/wgmma/yield_div.csv: a loop trip with a YIELD costs the H200 102 cycles more when the lane running it has left its warp's other lanes at a __syncwarp (WARPSYNC) than when the warp is whole or its other lanes have exited (96 beyond smsim's timing of the trip without the switch); yield_park.csv: likewise for 16 lanes, and for four such warps at once"), "a YIELD's issue to its warp's next issue when it hands the warp to another of its paths: one that can run, or one parked at a WARPSYNC, which tries again and hands it back", func(c *Config) *int { return &c.Branch.YieldSwitch })
	g.int("branch.yield_bsync", "cycles", 50, measuredSrc("testdata/cuda/wgmma/yield_park.csv bs: the same trip costs 45 cycles more than smsim's timing of it without the switch when the warp's other lanes wait at the BSYNC where the if ends"), "a YIELD's issue to its warp's next issue when the next path is parked at a BSYNC", func(c *Config) *int { return &c.Branch.YieldBsync })
	return g.ds
}

func syncsKeys() []decl {
	g := keyGroup{name: "barrier unit", kind: Hardware}
	fit := fitSrc("microbench.csv arrive_wait_loop, latency single_thread, wake_latency, with elect.csv, syncwarp.csv, waitdelay.csv and trywait.csv (docs/model.md)")
	// The update path: issue, queue, apply, result.
	latency3 := measuredSrc("latency3.csv and its SASS: one thread's arrive, then a try_wait on the phase it completes, answers 44 cycles after the arrive's issue (reg_sum_spin 47 clock to clock; the TRYWAIT issues 8 cycles after the ARRIVE and answers 36 after its own issue): 36 + syncs.visibility + syncs.result + 1; the PTX path adds ptxas.syncs_latency_pad and overlaps ptxas.syncs_acquire_overlap")
	g.int("syncs.latency", "cycles", 36, latency3, "barrier op issue to update applied", func(c *Config) *int { return &c.Syncs.Latency })
	g.int("syncs.interval", "cycles", 2, measuredSrc("probe.csv arrive_throughput converged_warps16/32 (2.04 cycles per update, saturated)"), "barrier-unit cycles per update when saturated", func(c *Config) *int { return &c.Syncs.Interval })
	g.int("syncs.count_interval", "cycles", 4, measuredSrc("elect.csv lane0_count32 - lane0 at 16 and 32 warps (2.0 and 1.9 cycles per update beyond syncs.interval); microbench.csv elected_arrive32 - elected_count1 at 32 warps (1.8)"), "barrier-unit cycles per arrive with an explicit count operand", func(c *Config) *int { return &c.Syncs.CountInterval })
	g.int("syncs.warp_interval", "cycles", 5, measuredSrc("microbench.csv latency arrive_issue_interval_64_back_to_back (5.08)"), "cycles between barrier ops of one warp", func(c *Config) *int { return &c.Syncs.WarpInterval })
	g.int("syncs.queue", "updates", 16, assumedSrc("no row constrains it beyond the saturated arrive throughput"), "barrier updates waiting for the unit before issue stalls", func(c *Config) *int { return &c.Syncs.Queue })
	g.int("syncs.result", "cycles", 5, fit, "update applied (or phase found complete) to token/predicate usable", func(c *Config) *int { return &c.Syncs.Result })
	// Phase checks: try_wait, test_wait and what their answers see.
	g.int("syncs.check", "cycles", 7, fit, "try_wait issue to phase check", func(c *Config) *int { return &c.Syncs.Check })
	g.int("syncs.check_cost", "cycles", 2, fit, "barrier-unit cycles one phase check takes", func(c *Config) *int { return &c.Syncs.CheckCost })
	g.int("syncs.test_wait", "cycles", 7, fitSrc("probe.csv test_wait_incomplete_phase (8) and latency arrive_to_complete_test_wait. An effective value: on the H200 a test_wait answers ~37 cycles after issue, true or false, through a scoreboard (spin.csv), and that row's 8 cycles are a write-after-read wait in its SASS (calibration/h200/README.md)"), "test_wait issue to predicate (the warp waits)", func(c *Config) *int { return &c.Syncs.TestWait })
	g.int("syncs.visibility", "cycles", 2, fit, "a completion reaches other warps' try_wait this much later", func(c *Config) *int { return &c.Syncs.Visibility })
	g.int("syncs.poll_visibility", "cycles", 20, fitSrc("microbench.csv wake_latency test_wait_spin (a test_wait spin sees another warp's arrive after 142-159 cycles, least and median) and pingpong.csv test_wait, from SASS: any of 16-23 answers the spin at 150; the PTX path adds ptxas.poll_visibility_pad"), "a completion reaches other warps' test_wait polls this much later", func(c *Config) *int { return &c.Syncs.PollVisibility })
	g.int("syncs.acquire", "cycles", 36, latency3, "least time from a try_wait's or test_wait's issue to a true answer", func(c *Config) *int { return &c.Syncs.Acquire })
	g.int("syncs.guarded_off", "cycles", 25, measuredSrc("probe.csv hint_ns0 and its SASS (33 cycles clock to clock: a guarded-off TRYWAIT 1 cycle after the first clock read, the NANOSLEEP.SYNCS that waits on its scoreboard, then 7 cycles of stall counts to the second); the PTX path bounds it by max(syncs.check + syncs.result, its acquire)"), "a guarded-off barrier wait's issue to the release of its scoreboard (it passes the barrier unit)", func(c *Config) *int { return &c.Syncs.GuardedOff })
	g.int("syncs.ldc_cost", "cycles", 2, measuredSrc("testdata/cuda/wgmma/mio_share.csv: 8-32 warps, half arriving back to back (2.04-2.09 cycles an arrive alone), half loading constants in eight chains (2.07-3.79 an LDC alone): together they take the sum, about 2 cycles an operation of either kind (ldc_rate.csv: an SM serves one LDC every 2.03 cycles)"), "barrier-unit cycles a constant load (LDC) takes: the SM's constant loads and barrier operations share one port; SASS programs", func(c *Config) *int { return &c.Syncs.LdcCost })
	// Suspended try_waits: time limits and wake-ups.
	g.int("syncs.try_wait_timeout", "cycles", 7780, measuredSrc("trywait.csv try_wait_limit (an un-hinted try_wait loop on a phase that never completes answers false every 7785-7839 cycles, whatever else runs; probe.csv hint_ns0's 33 cycles are not a limit, calibration/h200/README.md)"), "try_wait (no hint) on an incomplete phase: time until false", func(c *Config) *int { return &c.Syncs.TryWaitTimeout })
	g.int("syncs.try_wait_hint_timeout", "cycles", 7838, measuredSrc("probe.csv try_wait_incomplete_phase hint_ns* (7838 for every hint)"), "try_wait with suspend-time hint: time until false", func(c *Config) *int { return &c.Syncs.TryWaitHintTimeout })
	g.int("syncs.try_wait_wake", "cycles", 13, Source{Fitted, "fit and measured: trywait.csv wake_all and microbench.csv wake_latency try_wait_loop measure this path directly (a waiter resumes 101-102 cycles after another warp's arrive; smsim gives 99 at 13); 14 and 15 reach 100 and 101 but put converged_warps4 at +15.1 and +16.5 % (docs/model.md)"}, "phase completion to suspended try_wait resuming", func(c *Config) *int { return &c.Syncs.TryWaitWake })
	g.int("syncs.wake_cost", "cycles", 2, measuredSrc("trywait.csv wake_all (waiters resume 2 cycles apart: 16 of them from 102 to 134.5 cycles after the arrive)"), "barrier-unit cycles to answer each suspended try_wait when its phase completes (0: all at once)", func(c *Config) *int { return &c.Syncs.WakeCost })
	return g.ds
}

func barKeys() []decl {
	g := keyGroup{name: "CTA barriers", kind: Hardware}
	fit := fitSrc("probe.csv syncthreads_loop (14.87 + ~2 per warp)")
	g.int("bar.latency", "cycles", 12, fit, "bar.sync last arrival to release", func(c *Config) *int { return &c.Bar.Latency })
	g.int("bar.per_warp", "cycles", 2, fit, "bar.sync cycles per warp arrival", func(c *Config) *int { return &c.Bar.PerWarp })
	return g.ds
}

func tensorKeys() []decl {
	g := keyGroup{name: "tensor pipes", kind: Hardware}
	rate := measuredSrc("wgmma_timing.csv: two warpgroups of m64n256k16 f16 wgmma chains share the SM's pipes at 129.9 cycles a wgmma (4036 of 4096 operations a cycle; the datasheet's 989.4 TFLOP/s at 1830 MHz over 132 SMs is 4096); m64n256k8 tf32 and m64n256k32 e4m3 take the same 129.9 (half and twice the operations), m64n224k32 s8 113.2")
	g.int("tensor.f16_ops", "ops/cycle", 4096, rate, "dense .f16/.bf16 tensor operations (2 a multiply-add) per cycle of the SM, its four tensor pipes together", func(c *Config) *int { return &c.Tensor.F16Ops })
	g.int("tensor.tf32_ops", "ops/cycle", 2048, rate, "dense .tf32 tensor operations per cycle of the SM", func(c *Config) *int { return &c.Tensor.TF32Ops })
	g.int("tensor.fp8_ops", "ops/cycle", 8192, rate, "dense .e4m3/.e5m2 tensor operations per cycle of the SM", func(c *Config) *int { return &c.Tensor.FP8Ops })
	g.int("tensor.int8_ops", "ops/cycle", 8192, rate, "dense .s8/.u8 tensor operations per cycle of the SM", func(c *Config) *int { return &c.Tensor.Int8Ops })
	g.int("tensor.latency", "cycles", 46, fitSrc("wgmma_timing.csv on the SASS the H200 ran, with the cubin's control bits (wgmma_probe.sass: WARPGROUP.ARRIVE, HGMMA gsb0, WARPGROUP.DEPBAR a link): 64.1 cycles a link at m64n8k16 to 125.4 at m64n128k16, N/2 of them the pipe's; of 44, 46 and 48, 46 puts the 70 rows of 32 and 64 wgmma within 5.4 % (mean 0.95 %) and the 84 of 1-8 and 256 within 6.1 % (mean 2.13 %)"), "a tensor pipe done with a warp's share of a wgmma to its accumulators complete", func(c *Config) *int { return &c.Tensor.Latency })
	return g.ds
}

func smemKeys() []decl {
	g := keyGroup{name: "shared memory", kind: Hardware}
	h200 := documentedSrc("228 KiB per SM, 227 KiB per block, 32 banks of 4 bytes")
	g.int("smem.capacity", "bytes", 228<<10, h200, "shared memory per SM", func(c *Config) *int { return &c.Smem.Capacity })
	g.int("smem.per_cta", "bytes", 227<<10, h200, "largest shared memory of one CTA", func(c *Config) *int { return &c.Smem.MaxPerBlock })
	g.int("smem.banks", "banks", 32, h200, "shared-memory banks", func(c *Config) *int { return &c.Smem.Banks })
	g.int("smem.bank_bytes", "bytes", 4, h200, "width of one bank", func(c *Config) *int { return &c.Smem.BankBytes })
	g.int("smem.conflict_cycles", "cycles", 2, measuredSrc("probe.csv smem_load_chain (+2 cycles per extra conflicting address)"), "extra cycles per extra wavefront of an access (latency; the sub-partition's shared pipe is held this long per wavefront, at least interval.shared)", func(c *Config) *int { return &c.Smem.ConflictCycles })
	g.int("smem.wavefront_cycles", "cycles", 1, measuredSrc("smem.csv lds32/64/128 at 8-32 warps (4.00, 8.00, 16.00 cycles a warp instruction per sub-partition: the four together get one 128-byte wavefront a cycle)"), "cycles the SM's shared memory takes per 128-byte wavefront, all sub-partitions together (0: no limit)", func(c *Config) *int { return &c.Smem.WavefrontCycles })
	g.int("smem.queue", "instructions", 4, Source{Fitted, "scan: 4 best of 0, 4, 8 and 16 over every row (7.78, 7.58, 7.63, 7.64 % mean error): wspipe.csv 10.8 % with none, 5.8 % with 4; no row measures the depth alone"}, "shared-memory instructions of one sub-partition that may wait for its pipe, or for the data array to take them, before issue stops (the MIO queue)", func(c *Config) *int { return &c.Smem.Queue })
	g.int("smem.atomic_cycles", "cycles", 3, measuredSrc("pipeline.csv latency_chain atom_shared_add_u32 (26.04 cycles a link; ATOMS.ADD chained through its result in pipeline.cu's SASS) against smem_ld_chain (23.26)"), "extra latency of a shared-memory atomic over a load of the same words (the read-modify-write)", func(c *Config) *int { return &c.Smem.AtomicCycles })
	return g.ds
}

func memKeys() []decl {
	g := keyGroup{name: "memory path", kind: Hardware}
	sizes := Source{Assumed, "assumed or from the H200's documentation (line and sector sizes, L1 carve-out)"}
	l2fit := fitSrc("microbench.csv bulk_copy_latency and tensor2d_copy_latency l2hit rows")
	tlb := assumedSrc("2 MiB pages (the CUDA allocator's), 32 entries; gmem.csv pagesP_l2 shows no translation step up to 8192 pages")
	// An L1-missing load that hits L2 takes as long as one that bypasses L1
	// (calibration/h200/sassprobe.csv: seq_ca 286.36 and seq_cg 285.94
	// cycles a load, stream_ca 330.44 and stream_cg 330.29 a trip): the miss
	// path adds to the SM-to-L2 round trip what a bypassing load's pipeline
	// adds, mem.l1_hit.
	const l1Hit, l2 = 32, 257
	g.int("mem.line_bytes", "bytes", 128, sizes, "cache line", func(c *Config) *int { return &c.Mem.LineBytes })
	g.int("mem.sector_bytes", "bytes", 32, sizes, "cache sector (fill granule)", func(c *Config) *int { return &c.Mem.SectorBytes })
	g.int("mem.l1_ways", "ways", 4, sizes, "L1 associativity", func(c *Config) *int { return &c.Mem.L1Ways })
	g.int("mem.l1_hit", "cycles", l1Hit, measuredSrc("latency_chain ldg_u64_chain_l1_hit (32.04)"), "L1 hit load-to-use", func(c *Config) *int { return &c.Mem.L1HitCycles })
	g.int("mem.l1_miss", "cycles", l1Hit, measuredSrc("sassprobe.csv: an L1-allocating load that misses takes as long as one that bypasses L1 (seq_ca 286.36 against seq_cg 285.94 cycles a load, stream_ca 330.44 against stream_cg 330.29 a trip); l1cap_dyn16_fp48-fp240 (283-286, every load an L1 miss) are 245 cycles over l1cap_dyn16_fp16 (39.7, every load a hit)"), "load path added to the L2 round trip on an L1 miss", func(c *Config) *int { return &c.Mem.L1MissCycles })
	g.int("mem.l2", "cycles", l2, l2fit, "SM to L2 round trip on a hit", func(c *Config) *int { return &c.Mem.L2Cycles })
	g.int("mem.l2_bytes", "bytes", 60<<20, Source{Documented, "cudaDeviceProp.l2CacheSize on the H200: 62914560 (calibration/h200/l2near.cu's device); each of gpu.l2_partitions holds its share, and a lone SM's footprint fills its near one (l2near.csv cap rows: lines a thread read once stay near up to 16 MiB and fall out from 24-48 MiB)"}, "L2 capacity of the whole chip, split evenly between its partitions", func(c *Config) *int { return &c.Mem.L2Bytes })
	g.int("mem.l2_ways", "ways", 16, l2fit, "L2 associativity", func(c *Config) *int { return &c.Mem.L2Ways })
	g.int("mem.l2_bytes_per_cycle", "B/cycle", 108, l2fit, "SM to L2 link bandwidth", func(c *Config) *int { return &c.Mem.L2BytesPerCycle })
	g.int("mem.up_packets_per_cycle", "packets/cycle", 1, measuredSrc("stgport.csv: warp stores of whole lines, four lines, or a sector in each of eight lines all leave one 32-byte sector a cycle at 8-16 warps (3.94-3.99, 15.96-16.01, 7.98-8.21 cycles a store); bulk copies of 81.6 B/cycle alone and rows8 stores of 10.4 cycles alone, together 70.7 B/cycle (0.55 line requests a cycle) and 17.1 cycles (0.47 sectors a cycle): one packet a cycle between them; store.csv bulk stores 31.9 B/cycle"), "SM to L2 request path: packets a cycle, one a read request (a line) or a stored 32-byte sector (0: no limit)", func(c *Config) *int { return &c.Mem.UpPacketsPerCycle })
	g.int("mem.partial_sector_packets", "packets", 2, measuredSrc("stgport.csv spread: 32 four-byte stores to 32 lines a warp leave every 63.4-63.8 cycles at 4-16 warps, two cycles a line, where whole sectors take one each"), "packets the sectors of a line take on the SM to L2 request path when a store writes them only in part (one byte-masked write)", func(c *Config) *int { return &c.Mem.PartialSectorPackets })
	g.int("mem.dram", "cycles", 243, measuredSrc("fencecost.csv burst: one warp's dependent rounds of one line take 680.5 cycles from DRAM (median of three launches) against 305.4 from L2, 375 more, of which half the lines' far hop (mem.l2_far / 2) is 90 and the mean refresh wait (mem.dram_refresh_ns: 0.147 of the loads wait 284 cycles on average) 42; dramtail.csv: near lines that wait for no refresh 598 cycles (median) against 350 from L2 in l2near.csv (248 more); l2bw.csv's chase beside a lone CTA's stream 691 against 295; gmem.csv dram_pages8 664.7"), "extra latency of an L2 miss (a load) whose line's home is the near partition, its channel not refreshing", func(c *Config) *int { return &c.Mem.DRAMCycles })
	g.int("mem.stream_dram", "cycles", 0, fitSrc("microbench.csv bulk_copy_latency dram rows: a bulk read from DRAM waited 429 cycles past the L2 path (fitted with mem.dram 303 as 126, then 54 beside mem.dram 285); with DRAM refresh modelled (mem.dram_refresh_ns) the rows need nothing beyond a load's mem.dram: microbench.csv from SASS 3.64 % at 0, 3.77 % at 20, 4.01 % at 40, 4.20 % at 54"), "what a bulk read from DRAM waits beyond mem.dram", func(c *Config) *int { return &c.Mem.StreamDRAMCycles })
	g.int("mem.dram_bytes_per_cycle", "B/cycle", 86, Source{Fitted, "scan: microbench.csv copy rows with membw.csv's DRAM rows (mean error 9.18 % at 82, 9.30 at 86, 9.77 at 90; 86 is nearest the measured streaming peak of 89-91)"}, "DRAM bandwidth seen by the SM", func(c *Config) *int { return &c.Mem.DRAMBytesPerCycle })
	g.int("mem.dram_channel_bytes", "bytes", 16384, fitSrc("microbench.csv bulk_copy_latency from DRAM: each size's cycles less the last's, 1 to 4 KiB +94, 4 to 16 KiB +254 (about 49 B/cycle), 16 to 64 KiB +387 (about twice that): one channel serves a span of 16 KiB; membw.csv's DRAM rings of 16 KiB copies, not fitted, went from +7...+16 % to -5...+5 % from SASS with it"), "consecutive bytes one DRAM channel serves before the next span goes to the next channel (0: no channel limit)", func(c *Config) *int { return &c.Mem.DRAMChannelBytes })
	g.int("mem.dram_channel_bytes_per_cycle", "B/cycle", 49, fitSrc("microbench.csv bulk_copy_latency from DRAM, 4 to 16 KiB: 254 cycles for 12 KiB"), "what one DRAM channel delivers to one SM's copies", func(c *Config) *int { return &c.Mem.DRAMChannelBytesPerCycle })
	g.int("mem.dram_channels", "channels", 16, assumedSrc("no row constrains it: 8 to 64 give the same figures"), "DRAM channels the spans are interleaved across", func(c *Config) *int { return &c.Mem.DRAMChannels })
	g.int("mem.tlb_page_bytes", "bytes", 2<<20, tlb, "TLB page size", func(c *Config) *int { return &c.Mem.TLBPageBytes })
	g.int("mem.tlb_entries", "entries", 32, tlb, "TLB entries", func(c *Config) *int { return &c.Mem.TLBEntries })
	g.int("mem.write_ack", "cycles", 188, measuredSrc("fencecost.csv mode 1: a fence after one st.global a thread takes 463-477 cycles in the rounds whose lines' home is the near L2 partition (second launch, rank 0: 8 of 16 rounds), 598-633 in the others, 307 alone (mode 0)"), "a store's acknowledgement from a line whose home is the near L2 partition, after its turn on the request path", func(c *Config) *int { return &c.Mem.WriteAckCycles })
	g.int("mem.l2_far", "cycles", 180, measuredSrc("l2near.csv: one thread's chase of L2-resident lines after every SM wrote them takes 350 cycles a load (mean of the lower mode) for three lines in four and 528 for the fourth; from DRAM 619 and 802; all near on the next chase from the same side; l1tlb.csv warm: 380 cycles after a cudaMemcpy of them against 294 once read, half the lines far"), "what a read adds when its line is only in the far L2 partition (its home), and a store's acknowledgement from a far home", func(c *Config) *int { return &c.Mem.L2FarCycles })
	clockdom := func(what string) Source {
		return measuredSrc("clockdom.csv (one SM chases L2 and DRAM while other SMs' tensor cores pull the clock down: 1.98, 1.80 and 1.66 clock64 cycles a ns), " + what)
	}
	g.add("mem.l2_ns", "ns", clockdom("an L2 hit 278.5 cycles a hop at 1.98, 265.7 at 1.80, 256.0 at 1.66: 137.3 SM cycles plus 71.4 ns"),
		"of mem.l2 and mem.write_ack, the nanoseconds on the L2's own clock, which a clock_mhz below 1980 turns into fewer cycles",
		floatField{at: func(c *Config) *float64 { return &c.Mem.L2Ns }, def: 71.4, zero: true})
	g.add("mem.dram_ns", "ns", clockdom("a DRAM line 687.4 cycles a hop at 1.98, 635.4 at 1.80, 602.4 at 1.66: 147.8 SM cycles plus 272.8 ns, past an L2 hit 10.4 cycles plus 201.4 ns, 97.4 % of it at 1980 MHz; mem.dram's share taken alike (243 cycles: 119.5 ns)"),
		"of mem.dram, the nanoseconds on DRAM's and the L2's own clocks",
		floatField{at: func(c *Config) *float64 { return &c.Mem.DRAMNs }, def: 119.5, zero: true})
	refresh := measuredSrc("dramtail.csv: one thread's chase of 4096 random lines from DRAM, each load timed alone, three passes: a load takes its line's usual latency (near 598, far 776 cycles, medians) or that plus a wait spread evenly up to 568 cycles (287 ns; none longer but a few outliers), 10.4 % of far loads waiting more than 166 and 5.8 % of near ones more than 344: 0.147 of the loads wait, a channel refreshing 287 ns of every 1950 (HBM3's tREFI of 3.9 µs halved); two lines of one page loaded together wait together")
	g.add("mem.dram_refresh_ns", "ns", refresh, "how long a DRAM channel refreshes, during which a read of it waits (0: no refresh)",
		floatField{at: func(c *Config) *float64 { return &c.Mem.DRAMRefreshNs }, def: 287, zero: true})
	g.add("mem.dram_refresh_interval_ns", "ns", refresh, "how often each DRAM channel refreshes (the channels out of step)",
		floatField{at: func(c *Config) *float64 { return &c.Mem.DRAMRefreshIntervalNs }, def: 1950})
	g.int("mem.dram_refresh_span", "bytes", 16384, measuredSrc("consecutive bytes one DRAM channel serves (mem.dram_channel_bytes, from microbench.csv's bulk copies from DRAM): dramtail.csv's two lines 128 bytes apart wait together in 89 of 89 pairs; microbench.csv's bulk copies of 1 to 64 KiB from DRAM take no longer than their bytes explain (with 1 KiB spans, the slowest of 16 to 64 waits would add 200-500 cycles: +18 to +25 %), where tensor2d_copy_latency's boxes, rows 16 KiB apart, take 180-310 cycles longer, the slowest of their rows' waits; dramgran.cu measures it directly"), "consecutive bytes of DRAM that refresh together (one channel's), each span with its own phase", func(c *Config) *int { return &c.Mem.DRAMRefreshSpanBytes })
	g.add("mem.l2_far_ns", "ns", Source{Assumed, "the far hop splits as a DRAM line's time past an L2 hit does in clockdom.csv (97.4 % of 180 cycles at 1980 MHz: 89 ns)"},
		"of mem.l2_far, the nanoseconds on the L2's own clock",
		floatField{at: func(c *Config) *float64 { return &c.Mem.L2FarNs }, def: 89, zero: true})
	g.int("mem.tlb_miss", "cycles", 10, measuredSrc("gmem.csv dram_pages8192 - dram_pages8 (10.4 cycles: every load in a new page)"), "TLB miss penalty", func(c *Config) *int { return &c.Mem.TLBMissCycles })
	g.name = "constant caches"
	g.int("const.l1_5", "cycles", 70, measuredSrc("constcache.csv: a pointer chase through a __constant__ array, each hop an LDC c[0x3][R] timed alone: 36 cycles in a 64-byte line read before, 106 in a new 64-byte line of a 256-byte line read before (+70); the first read of each 64-byte parameter line (bank 0, LDC c[0x0][imm]) 95-102"), "a constant read whose 64-byte line the SM's immediate constant cache lacks, from the constant cache behind it", func(c *Config) *int { return &c.Const.L15Cycles })
	g.int("const.l2", "cycles", 276, measuredSrc("constcache.csv: the chase's first read of each 256-byte line of a __constant__ array, every launch, 295-343 cycles (median 312) against 36 for a line read before"), "a constant read whose line neither constant cache holds, from L2", func(c *Config) *int { return &c.Const.L2Cycles })
	g.int("const.uniform_lines", "lines", 4, measuredSrc("testdata/cuda/wgmma/uldc_chain.csv: one warp's uniform chase through a __constant__ table (ULDC c[0x3][UR], USHF, ULOP3 a hop) takes 19.27-19.31 cycles a hop cycling through 1, 2 or 4 of its 64-byte lines (every read a hit), 54.4 through 8 and 64.6 through 16; uldc_policy.csv: cycling through five or more lines every read misses, back and forth over five only the turns miss, as with four lines least recently used out"), "64-byte lines the uniform datapath's immediate constant cache holds (ULDC), the least recently used replaced", func(c *Config) *int { return &c.Const.UniformLines })
	g.int("const.uniform_l1_5", "cycles", 55, measuredSrc("testdata/cuda/wgmma/uldc_policy.csv: a uniform chase (ULDC c[0x3][UR], USHF, ULOP3 a hop) cycling through five, six or eight 64-byte lines, every read a miss, takes 74.3 cycles a hop against 19.3 through four, every read a hit: +55"), "a uniform read (ULDC) of a __constant__ bank whose 64-byte line the uniform immediate constant cache lacks, from the constant cache behind it (a parameter or driver line, banks 0 and 2: const.l1_5, bar_defer.cu)", func(c *Config) *int { return &c.Const.UniformL15Cycles })
	g.name = "load/store unit"
	g.int("mem.per_line", "cycles", 2, sizes, "extra cycles per extra line of one warp access", func(c *Config) *int { return &c.LSU.GlobalPerLine })
	g.int("mem.store_backlog", "cycles", 512, fitSrc("stgport.csv: a store queue deep enough that eight or more warps' stores issue at the path's rate (rows8 at 8 warps -0.4 % at 512, -2.9 % at 64, +8.3 % at 2048); beside bulk copies the LSU and the copy engine take turns on the path, so mix_both moves by 1 % between 64 and 512"), "cycles the LSU's packets on the SM→L2 request path may be booked ahead of a store before the store waits to leave the LSU (its store queue)", func(c *Config) *int { return &c.LSU.StoreBacklog })
	return g.ds
}

func tmaKeys() []decl {
	g := keyGroup{name: "TMA", kind: Hardware}
	fit := fitSrc("microbench.csv bulk_copy_latency, bulk_copy_bandwidth_one_sm, tensor2d_copy_latency")
	g.int("tma.queue_depth", "requests", 8, fit, "requests waiting for the copy engine's front end", func(c *Config) *int { return &c.TMA.QueueDepth })
	g.int("tma.issue_interval", "cycles", 44, Source{Fitted, "bounded: the engine keeps up with one thread's copies back to back (steps.csv 44 a copy, issue.csv 46.6 a 16-byte copy in a loop); no row measures the front end alone"}, "front-end occupancy per request", func(c *Config) *int { return &c.TMA.IssueInterval })
	g.int("tma.setup", "cycles", 36, fit, "request start to first memory request", func(c *Config) *int { return &c.TMA.SetupCycles })
	g.int("tma.descriptor", "cycles", 0, measuredSrc("calibration/h200/tma_swizzle.csv: a tensor copy of 64 rows of 128 bytes takes the H200 505-512 cycles, a 1-D copy of the same 8 KiB 508-513, a box of 128 rows 579-587; with no extra setup smsim gives 518 and 594 (its rows' requests are the rest), with 44 it gave 562 and 638"), "extra setup of a tensor copy (tensor map, box) beyond its rows' requests", func(c *Config) *int { return &c.TMA.DescriptorCycles })
	g.int("tma.descriptor_miss", "cycles", 46, measuredSrc("tmadesc.csv, a second tensor map's first copy 469 cycles against 423 for the next copies — one poll of the test_wait spin that times them (spin.csv: a spin polls every ~46 cycles), so anything from 1 to 92"), "extra setup of a launch's first copy through a tensor map (the unit fetches it)", func(c *Config) *int { return &c.TMA.DescriptorMissCycles })
	g.int("tma.descriptor_first", "cycles", 80, fitSrc("tmadesc.csv from PTX: a launch's first tensor copy takes 587 cycles against 423 for the next (164 = descriptor_miss 46, the PTX program's own first constant reads, and this; 80-90 give 170, the test_wait spin that times it polling on a grid). It stands for the parameter line holding the maps read for the first time through the uniform datapath's constant cache, which a SASS program's ULDCs pay through the SM's constant caches (testdata/cuda/wgmma/bar_defer*.cu): 0 for SASS programs"), "PTX programs: extra setup of the launch's first tensor-map fetch (SASS programs read the parameter line with ULDCs the constant caches time)", func(c *Config) *int { return &c.TMA.DescriptorFirstCycles })
	g.int("tma.row_cycles", "cycles", 0, fit, "least front-end time per box row", func(c *Config) *int { return &c.TMA.RowCycles })
	g.int("tma.request_bytes_per_cycle", "B/cycle", 261, fit, "rate rows become L2 requests", func(c *Config) *int { return &c.TMA.RequestBytesPerCycle })
	g.int("tma.smem_bytes_per_cycle", "B/cycle", 128, fit, "copy engine port into shared memory", func(c *Config) *int { return &c.TMA.SmemBytesPerCycle })
	g.int("tma.completion", "cycles", 20, fitSrc("microbench.csv bulk_copy_latency, bulk_copy_bandwidth_one_sm, tensor2d_copy_latency from SASS (3.41 % at 20, 4.46 % at 32) and calibration/h200/tma_swizzle.csv's L2-hit copies (1.12 % at 20, 2.26 % at 32); with it ring_hop.cu's elected producer passes its wait 108-128 cycles after the consumer's arrive, the H200 106-114"), "last byte written to complete_tx", func(c *Config) *int { return &c.TMA.CompletionLatency })
	g.int("tma.tensor_dram", "cycles", 0, measuredSrc("0: microbench.csv's tensor2d_copy_latency rows from DRAM took 180-310 cycles longer than their rows' bytes explain, which a fit of 367 stood for; each row lies in its own DRAM refresh span (mem.dram_refresh_span) and the copy waits for its slowest, which gives them (from SASS +3 to +8 %, from PTX −2 to +6 %, against +5 to +13 % and +2 to +11 % with the fit and no refresh)"), "extra latency of a tensor copy with bytes from DRAM, beyond its rows'", func(c *Config) *int { return &c.TMA.TensorDRAMCycles })
	g.int("tma.store_bytes_per_cycle", "B/cycle", 32, measuredSrc("store.csv, one thread's stream of 16 KiB bulk stores leaves every 513.9 cycles (31.9 B/cycle), of 4 KiB stores every 129.9 (31.5)"), "rate at which the unit sends a store's bytes out of the SM", func(c *Config) *int { return &c.TMA.StoreBytesPerCycle })
	g.int("tma.store_buffer", "bytes", 1024, measuredSrc("store.csv, with one buffer the read wait (wait_group.read) comes 31 cycles before the write wait (wait_group) for stores of 4 and 16 KiB: 31 cycles at 32 B/cycle"), "how far the unit reads a store's source ahead of the bytes it has sent", func(c *Config) *int { return &c.TMA.StoreBufferBytes })
	g.int("tma.store_read_bytes", "bytes", 64, measuredSrc("smemshare.csv (16 warps' 128-bit shared loads, 262,144 wavefronts at one a cycle alone, take 365.3k / 365.7k cycles while one thread's 4 / 16 KiB bulk stores stream over 236.7k / 212.9k of them: half the array while a store reads at 32 B/cycle)"), "bytes of a store's source the unit reads per cycle of the shared-memory data array the warps' accesses use (0: the reads take none of it)", func(c *Config) *int { return &c.TMA.StoreReadBytes })
	return g.ds
}

func sassKeys() []decl {
	g := keyGroup{name: "SASS control bits", kind: Hardware}
	g.int("sass.read_scoreboard", "cycles", 12, measuredSrc("latency5.csv (k_lat's parity SHF waits on the read scoreboard of the STG.E.64 before it, issued 3 cycles earlier: a global store reads its data registers ~12 cycles after it issues; calibration/h200/README.md); assumed the same for shared stores, barrier and copy operations"), "SASS programs: an instruction's issue to the release of its read scoreboard (it has read its source registers)", func(c *Config) *int { return &c.SASS.ReadScoreboard })
	g.int("sass.bsync", "cycles", 11, measuredSrc("the same wait with and without a convergence barrier closing after it, one warp: trywait.csv vecaddr_loop (a per-thread-addressed try_wait, which ptxas encloses in BSSY/BSYNC, 81 cycles a phase against 66 through a uniform address; 4 of the 15 are the pair's stall counts) and stamps.csv uniform_wake against trywait.csv wake_all (uniform waiters resume 90 cycles after the arriving thread's clock read, per-thread waiters in a region closed after the wait 101)"), "SASS programs: cycles a BSYNC holds its warp beyond its stall count, the warp whole or not (its reconvergence redirects the warp, like a taken branch)", func(c *Config) *int { return &c.SASS.Bsync })
	g.int("sass.fence_read", "cycles", 8, measuredSrc("fence.csv fence_proxy_async: 10.1 cycles a trip of MEMBAR.ALL.CTA and the FENCE.VIEW.ASYNC.S that waits on its read scoreboard, one warp, 4 trips unrolled (fence.sass)"), "SASS programs: a CTA-scope memory barrier's (MEMBAR.ALL.CTA) issue to the release of its read scoreboard, with no shared store of its warp still to be written", func(c *Config) *int { return &c.SASS.FenceRead })
	g.int("sass.smem_store_written", "cycles", 12, fitSrc("fence.csv sts128_fence_proxy_async and sts128_membar_cta (a MEMBAR.ALL.CTA after one STS.128 a lane: 33 cycles a trip, 18 without it; 11-13 put them within 4 %, 12 within 1 %), the 4-store trip -12.5 %"), "SASS programs: a shared store's issue to its data in the data array when nothing queues (a CTA-scope membar waits for it; a load's latency.shared also has the way back)", func(c *Config) *int { return &c.SASS.SmemStoreWritten })
	g.int("sass.special_read", "cycles", 33, measuredSrc("calibration/h200/sreg.csv and its SASS: a read of %smid or %warpid and the shared store whose address depends on it, clock to clock, less the stall counts between: S2R SR_VIRTUALSMID 33, S2R SR_VIRTID 31, S2UR SR_VIRTUALSMID 35"), "SASS programs: an S2R or S2UR's issue to its value written (the release of its write scoreboard)", func(c *Config) *int { return &c.SASS.SpecialRead })
	return g.ds
}

// ptxasKeys are the compiler model's costs: what a PTX program pays for
// code ptxas adds or schedules around it. A SASS program has that code.
func ptxasKeys() []decl {
	g := keyGroup{name: "compiler model", kind: CompilerModel}
	g.int("latency.pred", "cycles", 13, measuredSrc("branch.csv (ptxas's stall counts from an ISETP to the branch reading its predicate sum to 13 in every loop: the 29-cycle floor of a loop trip)"), "setp to a guard or branch that reads its predicate", func(c *Config) *int { return &c.Ptxas.PredLatency })
	g.int("branch.bsync", "cycles", 34, fitSrc("microbench.csv arrive_wait_loop with the barrier parameters (34); elect.csv: an if (lane == 0) arrive costs 90 cycles a phase without __syncwarp(), 65 with it"), "leaving a lane-dependent if-converted region (ptxas's BSSY/BSYNC)", func(c *Config) *int { return &c.Ptxas.Bsync })
	g.int("latency.window_reload", "cycles", 61, Source{Derived, "effective: prodonly.csv mask_call - mask = 184 cycles a trip (rem32_call - rem32 = 208), spread over the three S2UR SR_CgaCtaId of the trip's SASS: 61 each; the read alone is latency.window_read, so most of it is something else a loop with a call pays, not identified"}, "a barrier or copy operation in a loop with a call waits this long where ptxas reads the shared-memory window again (an effective cost: the read itself is latency.window_read)", func(c *Config) *int { return &c.Ptxas.WindowReload })
	g.int("latency.window_read", "cycles", 4, measuredSrc("window.csv: libcu++'s wait_parity on a completed phase (126.0 / 119.1 cycles a link, one S2UR / S2R a link in its SASS) and loads through a re-read window address (50.6 / 51.3): 2-4 fit; 61 gave 181 and 110"), "reading the shared-memory window again (S2UR/S2R SR_CgaCtaId) for a shared variable's address in a loop that sleeps", func(c *Config) *int { return &c.Ptxas.WindowRead })
	g.int("latency.copy_r2ur", "cycles", 38, measuredSrc("waterfall.csv (a 256 B or 4 KiB bulk load and its wait: 358.1 / 417.6 cycles with the operands in vector registers, 320.3 / 379.8 uniform: +38 both)"), "a bulk load or prefetch whose operands ptxas keeps in vector registers waits this long before it issues (ELECT, then R2UR moves to uniform registers)", func(c *Config) *int { return &c.Ptxas.CopyR2UR })
	ptxSyncs := "the PTX path's barrier answer, ptxas's stall counts around the barrier operation folded in (syncs.pad_answers overlap): "
	g.int("ptxas.poll_visibility_pad", "cycles", 15, fitSrc("keeps the PTX path's test_wait rows where syncs.poll_visibility 35 had them (microbench.csv wake_latency test_wait_spin, pingpong.csv test_wait): the spin's waiter closes a convergence region after its wait, whose BSYNC a SASS program pays (sass.bsync) and the compiler model does not place there"), "cycles a completion reaches a PTX program's test_wait polls beyond syncs.poll_visibility (the compiler model's stand-in for the BSYNC after the spin)", func(c *Config) *int { return &c.Ptxas.PollVisibilityPad })
	g.int("ptxas.copy_completion_pad", "cycles", 12, fitSrc("keeps the PTX path's copy rows where tma.completion 32 had them (tmadesc.csv, microbench.csv, the held-out ws_pipeline): the PTX path has no YIELD, so a waiting elected producer suspends there where its SASS polls (testdata/cuda/wgmma/wake_sweep.csv, docs/model.md), and its copies landing later stand in for that"), "cycles a PTX program's copies complete beyond tma.completion (the compiler model's stand-in for the polling of elected lanes' waits)", func(c *Config) *int { return &c.Ptxas.CopyCompletionPad })
	g.int("ptxas.syncs_latency_pad", "cycles", 6, fitSrc(ptxSyncs+"a PTX program's barrier update applies syncs.latency + this after issue, 42 in h200: microbench.csv arrive_wait_loop, latency single_thread, wake_latency, with elect.csv, syncwarp.csv, waitdelay.csv and trywait.csv (docs/model.md)"), "cycles a PTX program's barrier operation takes beyond syncs.latency (ptxas's stall counts folded into the answer)", func(c *Config) *int { return &c.Ptxas.SyncsLatencyPad })
	g.int("ptxas.syncs_acquire_overlap", "cycles", 9, fitSrc(ptxSyncs+"a PTX program's least true answer is syncs.acquire - this, 27 in h200: microbench.csv arrive_wait_loop and latency rows with the barrier parameters; steps.csv measures 47 cycles clock to clock from a try_wait on a completed phase to its branch. It also bounds a guarded-off hinted try_wait (its TRYWAIT's scoreboard, probe.csv hint_ns0)"), "cycles of syncs.acquire a PTX program's wait overlaps with ptxas's stall counts around it", func(c *Config) *int { return &c.Ptxas.SyncsAcquireOverlap })
	g.int("latency.copy_r2ur_loop", "cycles", 58, measuredSrc("waterfall.csv (a bulk store holds its thread from before its operands' moves to after its commit 68 cycles with vector operands, 10 uniform: +58; a 256 B store and its wait_group.read 102.3 against 46.0 cycles)"), "a bulk store or reduction whose operands ptxas keeps in vector registers waits this long before it issues (R2UR.OR moves, each checking the value is the same in every active lane, chained)", func(c *Config) *int { return &c.Ptxas.CopyR2URLoop })
	return g.ds
}

func choiceKeys() []decl {
	g := keyGroup{name: "barrier unit", kind: ModelChoice}
	g.add("syncs.pad_answers", "", Source{Derived, "SASS and measured: latency3.csv (reg_sum 57 against reg_sum_spin 47 cycles: the wait branch's stall of 10, its TRYWAIT answering 36 cycles after issue in both); 0 in h200, whose barrier answer microbench.csv's single-thread rows set (they include a register reuse after a store, latency5.csv): with 1, ptxas.syncs_latency_pad 0 and ptxas.syncs_acquire_overlap 0 all rows 7.56 % (against 7.79 %), latency4.csv 0.3 % and elected_count1_warps16 -14.9 %, but microbench.csv 5.14 % (docs/model.md)"},
		"when a warp pays the stall counts ptxas puts after a barrier wait (padding a fixed latency that spans it): overlap (0), during the wait, the default fit; after_answer (1), after the wait's answer, as in SASS; use after_answer with ptxas.syncs_latency_pad 0 and ptxas.syncs_acquire_overlap 0",
		choiceField[PadMode]{at: func(c *Config) *PadMode { return &c.Model.PadAnswers }, def: PadOverlap,
			choices: []choice[PadMode]{{name: "overlap", v: PadOverlap, aliases: []string{"0"}}, {name: "after_answer", v: PadAfterAnswer, aliases: []string{"1"}}}})
	g.add("syncs.try_wait_hold", "", measuredSrc("0 - a clock read right behind a try_wait on an open phase issues 1-2 cycles later (trywait.cu); 1 is the effective model of earlier fits (with syncs.try_wait_timeout 25: a quick re-check)"),
		"what an un-hinted try_wait on a phase open at its issue does to its warp: none (0), nothing, as on the H200; open_phase (1), holds it until the try_wait answers (an effective model)",
		choiceField[HoldMode]{at: func(c *Config) *HoldMode { return &c.Model.TryWaitHold }, def: HoldNone,
			choices: []choice[HoldMode]{{name: "none", v: HoldNone, aliases: []string{"0"}}, {name: "open_phase", v: HoldOpenPhase, aliases: []string{"1"}}}})
	return g.ds
}

func toolKeys() []decl {
	g := keyGroup{name: "watchdog", kind: ToolSetting}
	g.int("watchdog.spin_cycles", "cycles", 2_000_000, Source{Chosen, "a tool setting, not a hardware parameter"}, "livelock detector: spinning cycles without barrier progress before stopping", func(c *Config) *int { return &c.Watchdog.SpinCycles })
	return g.ds
}

func gpuKeys() []decl {
	g := keyGroup{name: "several SMs: GPCs and clusters", kind: Hardware}
	probe := func(what string) Source {
		return measuredSrc("cluster.csv (the H200's output of the probes in testdata/cuda/cluster_probe), " + what)
	}
	g.int("gpu.sms", "SMs", 132, probe("place,sms (multiProcessorCount)"),
		"SMs of the GPU a launch may use (--sms sets how many a run simulates)", func(c *Config) *int { return &c.GPU.SMs })
	g.add("gpu.gpc_sms", "SMs", probe("cudaOccupancyMaxActiveClusters at one CTA per SM: 7 clusters of 16, 15 of 8, 30 of 4, 66 of 2 fit these GPCs of whole TPCs"),
		"SMs of each GPC, in SM order: a cluster's CTAs run on distinct SMs of one GPC",
		countsField{at: func(c *Config) *[maxGPCs]int { return &c.GPU.GPCs }, def: [maxGPCs]int{18, 18, 18, 18, 18, 16, 16, 10}})
	l2bw := func(what string) Source {
		return measuredSrc("l2bw.csv (the H200's output of l2bw.cu, 256 KiB a CTA of 256 threads), " + what)
	}
	g.int("gpu.l2_partitions", "partitions", 2, Source{Documented, "the H100/H200 L2 is two partitions (NVIDIA Hopper architecture whitepaper); lines spread over them by address"},
		"parts of the L2 the SMs share, each serving its lines at gpu.l2_bytes_per_cycle / gpu.l2_partitions", func(c *Config) *int { return &c.Mem.L2Partitions })
	g.int("gpu.l2_bytes_per_cycle", "B/cycle", 6040, l2bw("stream,l2,528: 528 CTAs re-read a 16 MiB L2-resident footprint, 132 MiB in 11.6 us at 1980 MHz (6040 B/cycle; 132 CTAs reach 3450)"),
		"L2 hit bandwidth to all the SMs of the GPU together (one SM alone never reaches it), at 1980 MHz: its bytes a ns hold at other clock_mhz", func(c *Config) *int { return &c.Mem.GPUL2BytesPerCycle })
	g.int("gpu.gpc_l2_bytes_per_cycle", "B/cycle", 560, measuredSrc("gpcbw.csv: one cluster of 16 CTAs (one GPC) bulk-copying lines no other SM reads, alone on the GPU, 590 B/cycle; 2, 4 and 7 such GPCs 562, 558 and 516 each; 16 CTAs spread one a GPC pair of SMs 1281 in all (80 each, their links'); gpcmap.csv: the 16 SMs of one GPC streaming with ld.global 511 B/cycle by the slowest CTA, 533 by the median, 2 and 4 GPCs 499 and 496 each"),
		"what the L2 delivers to one GPC's SMs together, their bulk copies' and loads' lines, at 1980 MHz: its bytes a ns hold at other clock_mhz (clockbw.csv) (0: no limit; a GPC's reads of a line in flight take it once, but an L1-bypassing load is delivered on its own)", func(c *Config) *int { return &c.Mem.GPCL2BytesPerCycle })
	g.int("gpu.dram_bytes_per_cycle", "B/cycle", 2254, l2bw("stream,dram,528: 528 CTAs stream 132 MiB from DRAM in 31.0 us at 1980 MHz (4.46 TB/s, 2254 B/cycle, against 4.8 TB/s nominal; 264 CTAs reach 2117)"),
		"DRAM bandwidth to all the SMs of the GPU together (one SM alone never reaches it; mem.dram_bytes_per_cycle is one SM's), at 1980 MHz: its bytes a ns hold at other clock_mhz", func(c *Config) *int { return &c.Mem.GPUDRAMBytesPerCycle })
	g.add("gpu.cta_launch_ns", "ns", measuredSrc("ctalaunch.csv: a CTA's first %globaltimer read comes 192 or 224 ns (the median of each of 21 launches, 208 on average; 160-448 over all their refills) after the last read of the CTA before it on its SM, whatever its threads (32-1024), shared memory (120 or 200 KiB) and the stores it makes before it ends (0-128 KiB); smsim's own instructions in that span take 47 ns"),
		"from a CTA's retirement to the start of the CTA the GPU sends its SM in its place (launches of several SMs; the first wave starts at once)",
		floatField{at: func(c *Config) *float64 { return &c.GPU.CTALaunchNs }, def: 161, zero: true})
	g.int("cluster.max_ctas", "CTAs", 16, Source{Documented, "the CUDA programming guide (8 portable, 16 with cudaFuncAttributeNonPortableClusterSizeAllowed; 16 measured: cbar,c16)"},
		"most CTAs a cluster may have", func(c *Config) *int { return &c.GPU.MaxClusterCTAs })
	g.int("dsmem.latency", "cycles", 168, probe("dsmem: a dependent ld.shared::cluster chain in the peer CTA takes 190.7 cycles a hop, in the CTA's own shared memory through ld.shared 23.1"),
		"what a load from another CTA's shared memory (distributed shared memory) adds to a shared-memory load", func(c *Config) *int { return &c.GPU.DSMEMLatency })
	g.int("dsmem.self_latency", "cycles", 9, probe("dsmem: the own-CTA chain through ld.shared::cluster takes 32.1 cycles a hop, through ld.shared 23.1"),
		"what a .shared::cluster load of the CTA's own shared memory adds to a shared-memory load", func(c *Config) *int { return &c.GPU.DSMEMSelf })
	g.int("dsmem.bytes_per_cycle", "B/cycle", 19, measuredSrc("cluster.csv dsmem: 128 threads load the peer CTA's shared memory in 16-byte words in 1042 cycles; the SASS the H200 ran keeps 8 of each thread's 32 loads (their addresses repeat), 16 KiB: 19 B/cycle past the first load's 191 cycles (docs/clusters.md)"),
		"bytes an SM's loads from other CTAs' shared memory move per cycle", func(c *Config) *int { return &c.GPU.DSMEMBytesPerCycle })
	g.int("cluster.arrive_latency", "cycles", 453, probe("arrive: a remote mbarrier.arrive.release.cluster ping-pong between two CTAs, 479 cycles one way, less the waiter's wake-up and the loop the SM model charges"),
		"from the issue of an mbarrier operation on another CTA's barrier to its update there: a .release.cluster arrive's GPU membar (cluster.release, which also waits for the warp's global writes) and the SM-to-SM trip", func(c *Config) *int { return &c.GPU.ArriveLatency })
	g.int("cluster.barrier_latency", "cycles", 75, probe("cbar: barrier.cluster.arrive.relaxed + wait of one warp, 75.5 cycles a round (cluster of 1) to 82.6 (16)"),
		"from the last thread's arrival at a cluster barrier to the release of its waiters", func(c *Config) *int { return &c.GPU.BarrierLatency })
	g.int("cluster.release", "cycles", 261, probe("cbar: barrier.cluster.arrive (.release) costs 336.5 cycles a round against 75.5 for .relaxed (cluster of 1, 32 threads); fencecost.csv: fence.acq_rel.gpu holds the warp 307 cycles clock to clock, 536 after a st.global a thread, a remote release arrive 270 and 512 (the store's acknowledgement, then the membar)"),
		"a GPU-scope membar's round trip (MEMBAR.ALL.GPU: fence.acq_rel/.sc at .cluster, .gpu or .sys scope, and every .release at cluster scope), which holds the warp once L2 has acknowledged its global writes", func(c *Config) *int { return &c.GPU.Release })
	g.int("cluster.arrive_interval", "cycles", 2, probe("cbar: a relaxed round of 32 warps a CTA takes 148.1 cycles against 74.1 for one warp (cluster of 2): 2.4 cycles a further warp"),
		"cycles between two warps' arrivals at the cluster barrier from one CTA", func(c *Config) *int { return &c.GPU.ArriveInterval })
	g.int("cluster.release_interval", "cycles", 9, probe("cbar: a .release round of 32 warps a CTA takes 623.3 cycles against 337.5 for one warp (cluster of 2): 9.2 cycles a further warp"),
		"cycles between two warps' .release arrivals of one CTA: their waits for visibility follow one another", func(c *Config) *int { return &c.GPU.ReleaseInterval })
	return g.ds
}
