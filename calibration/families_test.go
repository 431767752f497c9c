package calibration

import (
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// repoCalibration runs validate on this repository's calibration/h200 rows
// that match only, and returns them by "bench,config,metric".
func repoCalibration(t *testing.T, cfg sm.Config, only string) map[string]Row {
	t.Helper()
	return rowsOf(t, "h200", cfg, Options{Only: only})
}

// One thread's back-to-back bulk copies (issue.csv bulk_copy_16B: 256 in a
// loop, 46.6 cycles a trip on the H200) are bound by the thread: a copy holds
// it latency.tma cycles (steps.csv: 44 a copy). When the engine is slower than
// that, its queue fills and from then on each copy holds the warp until the
// engine takes a request, one per tma.issue_interval.
func TestBackToBackBulkCopiesAreBoundByTheThreadOrTheEngine(t *testing.T) {
	const key = "issue_steps,bulk_copy_16B,cycles_per_trip"
	trip := func(cfg sm.Config) float64 {
		r, ok := repoCalibration(t, cfg, `issue\.csv:issue_steps,bulk_copy_16B,`)[key]
		if !ok {
			t.Fatal("no issue_steps bulk_copy_16B row")
		}
		return r.Predicted
	}
	cfg := sm.DefaultConfig()
	base := trip(cfg)
	hold := float64(cfg.Pipes.Latency[isa.ClassTMA])
	if base < hold || base > hold+10 {
		t.Errorf("%.1f cycles per copy trip, want the copy's hold latency.tma (%v) plus a few", base, hold)
	}
	slowEngine := cfg
	slowEngine.TMA.IssueInterval = 2 * cfg.Pipes.Latency[isa.ClassTMA]
	if got, lo := trip(slowEngine), 0.95*float64(slowEngine.TMA.IssueInterval); got < lo {
		t.Errorf("tma.issue_interval %d: %.1f cycles per trip, want at least %.1f (the engine binds)", slowEngine.TMA.IssueInterval, got, lo)
	}
}

// The division classes reach the rows that measure them: a dependent
// div.u32 chain and a rem.u32 by a loop-invariant divisor (latency2.csv).
func TestDivisionChainsMatchTheH200(t *testing.T) {
	rows := repoCalibration(t, sm.DefaultConfig(), `latency2\.csv:latency_chain2,(div_u32|rem_u32|rem_u64_32bit_values|div_rn_f32|div_rn_f64),`)
	for _, k := range []string{"div_u32", "rem_u32", "rem_u64_32bit_values", "div_rn_f32", "div_rn_f64"} {
		r, ok := rows["latency_chain2,"+k+",cycles_per_op"]
		if !ok {
			t.Fatalf("no latency_chain2 %s row", k)
		}
		if r.ErrorPct > 5 || r.ErrorPct < -5 {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
}

// TestGlobalLoadChasesMatchTheH200 runs gmem.csv: L2 hits that bypass L1,
// DRAM latency with and without a new page per load, and the footprint sweep
// that sets the L2's effective capacity. Every row is within 7 %.
func TestGlobalLoadChasesMatchTheH200(t *testing.T) {
	rows := repoCalibration(t, sm.DefaultConfig(), `gmem\.csv:`)
	if len(rows) != 33 {
		t.Fatalf("%d gmem.csv rows, want 33", len(rows))
	}
	for k, r := range rows {
		if r.ErrorPct > 7 || r.ErrorPct < -7 {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	// The pieces, not just the fit: an L1-bypassing L2 hit is cheaper than an
	// L1-allocating one, and a DRAM load costs about 300 cycles more.
	cg, ca := rows["gload,pages8_l2,cycles_per_load"].Predicted, rows["gload,footprint_16384KiB,cycles_per_load"].Predicted
	if cg >= ca-40 {
		t.Errorf("ld.global.cg L2 hit %.0f, ld.global L2 hit %.0f: bypassing L1 should save ~70 cycles", cg, ca)
	}
	if d := rows["gload,dram_pages8,cycles_per_load"].Predicted - ca; d < 280 || d > 330 {
		t.Errorf("DRAM load minus L2-hit load = %.0f, want ~303", d)
	}
}

// divcode.csv: one thread's producer steps cost the same in uniform code and
// under `if (threadIdx.x == 0)` on the H200, and so they do in smsim; a loop
// of arrive.expect_tx runs at the barrier unit's issue interval (6.8 cycles
// an arrive), which needs the unread tokens dropped and the loop unrolled as
// ptxas does.
func TestDivcodeStepsAreTheSameInDivergentCode(t *testing.T) {
	rows := repoCalibration(t, sm.DefaultConfig(), `divcode\.csv:`)
	if len(rows) != 12 {
		t.Fatalf("%d divcode rows, want 12", len(rows))
	}
	for k, r := range rows {
		if !strings.HasSuffix(k, "_uniform,cycles_per_trip") {
			continue
		}
		d, ok := rows[strings.Replace(k, "_uniform,", "_divergent,", 1)]
		if !ok {
			t.Fatalf("no divergent row for %s", k)
		}
		if d.Predicted != r.Predicted {
			t.Errorf("%s: %.2f uniform, %.2f divergent; want the same", k, r.Predicted, d.Predicted)
		}
	}
	a := rows["divcode_steps,arrive_expect_tx_uniform,cycles_per_trip"]
	if e := math.Abs(a.Predicted-a.Measured) / a.Measured; e > 0.15 {
		t.Errorf("arrive.expect_tx loop: %.2f cycles an arrive, measured %.2f", a.Predicted, a.Measured)
	}
}

// prodonly.csv: a 64-bit remainder in the producer loop costs the loop a
// reload of the shared window before each barrier and copy operation, even
// when the remainder never runs (mask_call: 184 cycles a trip more than mask
// on the H200, three reloads in its SASS). latency.window_reload is what
// each costs: doubling it must add three more a trip, and the call rows stay
// within 10 % of the H200.
func TestCallInLoopReloadsTheSharedWindow(t *testing.T) {
	cfg := sm.DefaultConfig()
	only := `prodonly\.csv:producer_only,(mask|mask_call|rem|rem32_call)_chunk4096_stages4,`
	rows := repoCalibration(t, cfg, only)
	for _, k := range []string{"mask_call", "rem", "rem32_call"} {
		r := rows["producer_only,"+k+"_chunk4096_stages4,cycles_per_tile"]
		if e := math.Abs(r.ErrorPct); e > 10 {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	base := rows["producer_only,mask_call_chunk4096_stages4,cycles_per_tile"].Predicted
	cfg.Ptxas.WindowReload *= 2
	more := repoCalibration(t, cfg, only)["producer_only,mask_call_chunk4096_stages4,cycles_per_tile"].Predicted
	if d, want := more-base, 3*float64(sm.DefaultConfig().Ptxas.WindowReload); math.Abs(d-want) > 10 {
		t.Errorf("doubling latency.window_reload added %.1f cycles a trip, want about %.0f (three reloads)", d, want)
	}
	plain := repoCalibration(t, cfg, only)["producer_only,mask_chunk4096_stages4,cycles_per_tile"].Predicted
	if plain != rows["producer_only,mask_chunk4096_stages4,cycles_per_tile"].Predicted {
		t.Errorf("mask (no call in the loop) changed with latency.window_reload")
	}
}

// window.csv: where ptxas forms a shared address again in a loop that
// sleeps (libcu++'s waits), the read of the CTA's window is short: libcu++'s
// wait_parity on a completed phase (one S2UR or S2R a link in its SASS) and
// a chain of loads through a re-read address stay within 10 % of the H200 at
// latency.window_read, and charging the call loops' effective 61 cycles
// there instead puts them more than 30 % over.
func TestWindowReadInSleepLoopsIsShort(t *testing.T) {
	cfg := sm.DefaultConfig()
	only := `window\.csv:window,(vector|uniform)_(inside_sleep|lib_wait_parity),|window\.csv:window,lib_wait_parity,`
	names := []string{"vector_inside_sleep", "uniform_inside_sleep", "lib_wait_parity", "vector_lib_wait_parity"}
	rows := repoCalibration(t, cfg, only)
	for _, n := range names {
		r, ok := rows["window,"+n+",cycles_per_link"]
		if !ok {
			t.Fatalf("no row %s", n)
		}
		if e := math.Abs(r.ErrorPct); e > 10 {
			t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", n, r.Predicted, r.Measured, r.ErrorPct)
		}
	}
	cfg.Ptxas.WindowRead = cfg.Ptxas.WindowReload
	slow := repoCalibration(t, cfg, only)
	for _, n := range names {
		if r := slow["window,"+n+",cycles_per_link"]; r.ErrorPct < 30 {
			t.Errorf("%s with latency.window_read = %d: %+.1f %%, want over +30 %%", n, cfg.Ptxas.WindowRead, r.ErrorPct)
		}
	}
}

// stamps.csv: waiters whose wait names the barrier through a uniform register
// resume 90 cycles after the arriving thread's clock read on the H200, and
// each scheduler's about 11 cycles apart after that (k_uwake). The model stays
// within 17 % of each row (the worst, 31 waiters' last exit at +16.1 %, starts
// from a first exit 10 cycles late: the convergence barrier the model wrongly
// charges these waits, docs/model.md; the 16-lane integer pipe adds 3 cycles
// to it, syncs.try_wait_wake 13 one more, trywait.csv's wake_all having the
// same path 2 cycles short), and every row of the stamped loops is simulated.
func TestStampsRowsMatchTheH200(t *testing.T) {
	rows := repoCalibration(t, sm.DefaultConfig(), `stamps\.csv:`)
	wake, loops := 0, 0
	for k, r := range rows {
		switch {
		case strings.HasPrefix(k, "uniform_wake,"):
			wake++
			if math.Abs(r.ErrorPct) > 17 {
				t.Errorf("%s: predicted %.1f, measured %.1f (%+.1f %%)", k, r.Predicted, r.Measured, r.ErrorPct)
			}
		case strings.HasPrefix(k, "stamped_loop,"):
			loops++
			if r.Predicted <= 0 {
				t.Errorf("%s: predicted %.1f", k, r.Predicted)
			}
		}
	}
	if wake != 18 || loops != 30 {
		t.Errorf("%d uniform_wake and %d stamped_loop rows, want 18 and 30", wake, loops)
	}
}

// throughput.csv: a scheduler issues an IMAD every 2 cycles, a LOP3 every 2
// and an FFMA every cycle on the H200, because the integer and FMA datapaths
// are 16-lane halves (sm/pipes.go). The model follows the single-pipe rows
// within 6 % at every warp count, the alternating IMAD and FFMA within 8 %
// from two warps a scheduler. ptxas splits integer adds 2:1 between
// IMAD.IADD and IADD3 where the model takes whichever pipe is free, so the
// add rows run up to 16 % fast; with interval.imad 1 (a 32-lane IMAD) the
// imad rows would be 40 % fast.
func TestThroughputRowsMatchTheH200(t *testing.T) {
	rowsWithin(t, "throughput.csv", 30, func(k string) float64 {
		switch {
		case strings.Contains(k, "iadd"):
			return 16
		case strings.Contains(k, "imad_ffma_warps1,") || strings.Contains(k, "imad_ffma_warps4,"):
			return 27 // one warp a scheduler alternating the two: 1.85 a warp instruction on the H200, 1.38 in smsim
		case strings.Contains(k, "imad_ffma"):
			return 8
		}
		return 6
	})
	cfg := sm.DefaultConfig()
	cfg.Pipes.Interval[isa.ClassIMAD] = 1
	rowBelow(t, cfg, "throughput.csv", "issue_rate,imad_warps32,cycles_per_instr", -30, "with interval.imad 1")
}

// TestConvertRowsMatchTheH200: conversions take the pipes convert.csv
// measured — I2FP on the integer pipe (4 cycles, 2 a warp instruction), F2I
// and I2F.U16 on the MUFU unit (17 cycles, 8 a warp instruction, shared with
// MUFU.EX2) — once register copies cost nothing (compiler.ElideMoves) and a loop
// trip of arithmetic is scheduled as ptxas does (compiler.ScheduleLoads: the
// eight chains' conversions interleaved; before it f2h_pair's eight chains
// were +119 % and i2f_u16's +31 %). Known misses keep wider limits:
// f2h_pair's single chain (-19 %: ptxas's F2FP.PACK_AB and HADD2.F32 take
// 10.2 cycles a pair, smsim's two fma-class conversions 8.25); I2FP
// alternating with IMAD from 8 warps (-8 %); sum16_loop's 16-element trips
// are 13 % fast at 1-4 warps, its 128-element ones 11 and 23 % slow at 8
// and 16 warps (the H200 keeps the data array busy, 0.98 wavefronts a
// cycle at 16 warps, where smsim's shared pipes, and the MIO queues that
// stop issue while the array is booked ahead, leave it idle a fifth of the
// time).
func TestConvertRowsMatchTheH200(t *testing.T) {
	rowsWithin(t, "convert.csv", 59, func(k string) float64 {
		switch {
		case strings.Contains(k, "sum16_loop"):
			return 25
		case strings.Contains(k, "f2h_pair_chains1_"):
			return 20
		case strings.Contains(k, "i2f_imad_"):
			return 9
		}
		return 6
	})
	// With conversions in the integer pipe's class but MUFU's interval the
	// F2I rows would be a quarter of the H200's.
	cfg := sm.DefaultConfig()
	cfg.Pipes.Interval[isa.ClassSFU] = 2
	rowBelow(t, cfg, "convert.csv", "convert_rate,f2i_s32_chains8_warps32,cycles_per_instr", -50, "with interval.sfu 2")
}

// TestSmemRowsMatchTheH200: a sub-partition starts a shared load every
// interval.shared = 4 cycles and the SM's shared memory serves one 128-byte
// wavefront a cycle for all four (smem.csv). Without the SM-wide limit the
// 128-bit loads of 32 warps would run at the sub-partition's rate, twice the
// H200's.
func TestSmemRowsMatchTheH200(t *testing.T) {
	rowsWithin(t, "smem.csv", 21, func(string) float64 { return 7 })
	cfg := sm.DefaultConfig()
	cfg.Smem.WavefrontCycles = 0
	rowBelow(t, cfg, "smem.csv", "smem_rate,lds128_chains8_warps32,cycles_per_instr", -40, "with no SM-wide wavefront limit")
}

// TestLdgRowsMatchTheH200: shuffles run in the shared-memory pipe (24
// cycles, one every 4 cycles a sub-partition), and L1-hit global loads hold
// the LSU pipe interval.global and pass the SM's data array a line a cycle
// (ldg.csv). Known misses: 128-bit loads from one or two warps (+24 %),
// 32-bit ones from 8 warps (-21 %).
func TestLdgRowsMatchTheH200(t *testing.T) {
	rowsWithin(t, "ldg.csv", 21, func(k string) float64 {
		switch {
		case strings.Contains(k, "ldg128_chains8_warps1,") || strings.Contains(k, "ldg128_chains8_warps2,"):
			return 25
		case strings.Contains(k, "ldg32_chains8_warps8,"):
			return 22
		}
		return 9
	})
}

// TestExitwaitRowsMatchTheH200: arrive/wait loops after a branch on the
// warp index (exitwait.csv). After `@P EXIT` the loop stays uniform; after
// a branch around the extra warp's own code, or inside a region that
// closes after the whole loop, the wait is vector-addressed but its retry
// loop has no convergence region of its own (exitwait.sass), so with one
// to four warps a phase costs what the uniform loop's does. Charging the
// BSYNC there, as smsim did before, made these rows 22-53 % slow. Known
// misses: the layouts ptxas gives the loops from 12 to 31 warps (up to
// -21 %, as elect_sweep.csv), the __syncwarp() loops after a branch
// with one or two warps (-16 %: a BRA.DIV and its NOP in the trip), and
// the four-warp loops (+14 %: smsim's woken waiters resume ~10 cycles after
// the last arriver's own answer, the H200's 5-8, docs/model.md).
func TestExitwaitRowsMatchTheH200(t *testing.T) {
	rows := rowsWithin(t, "exitwait.csv", 63, func(k string) float64 {
		for _, w := range []string{"_warps1,", "_warps2,", "_warps4,"} {
			if strings.Contains(k, w) {
				if strings.Contains(k, "syncwarp_branch") {
					return 17
				}
				return 15
			}
		}
		return 22
	})
	mapeAtMost(t, "exitwait.csv", rows, 8.5)
}

// TestAlignRowsMatchTheH200: elect.cu's converged and lane0_syncwarp loops
// at ten places in the code (align.csv; align.sass: the same instructions
// and control bits at every place). smsim does not see code addresses, so
// its value for a loop is one number where the H200 spreads: the converged
// loop at 16 warps costs 125-127 cycles a phase at seven places and 143.5 at
// three. The lane0_syncwarp loop costs 10-27 cycles more than the converged
// one from 8 to 24 warps at every place (ptxas's trip: ARRIVE; NOP; UIADD3;
// TRYWAIT three cycles apart), which smsim does not reproduce: those rows
// are its known miss (up to -18.4 %, microbench.csv's elected_count1_warps16
// among them). The converged loop at 8 warps is +12.9 % at six places (the
// woken waiters' lag, as exitwait.csv's four-warp rows).
func TestAlignRowsMatchTheH200(t *testing.T) {
	rows := rowsWithin(t, "align.csv", 100, func(k string) float64 {
		if strings.HasPrefix(k, "align,lane0_syncwarp_") {
			return 19
		}
		return 13.5
	})
	mapeAtMost(t, "align.csv", rows, 9.5)
}

// TestTmadescRowsMatchTheH200: the TMA unit fetches a tensor map on a
// launch's first copy through it (tma.descriptor_miss, and
// tma.descriptor_first for the launch's first fetch), and a box wholly out
// of bounds takes as long as one in L2 (tmadesc.csv). Known miss: the
// in-bounds copies are 12-16 % slow (the model's L2-hit tensor path, as
// microbench.csv's box64x64_fp16_l2hit, +8 %).
func TestTmadescRowsMatchTheH200(t *testing.T) {
	rows := rowsWithin(t, "tmadesc.csv", 12, func(k string) float64 {
		if strings.Contains(k, "_in,") || strings.Contains(k, "_in_in,") {
			return 17
		}
		return 7
	})
	first, second := rows["tma_desc,same_map_oob_oob,first_cycles"], rows["tma_desc,same_map_oob_oob,second_cycles"]
	if d := first.Predicted - second.Predicted; d < 150 || d > 180 {
		t.Errorf("a launch's first copy costs %.0f cycles more than the next, want the H200's 164", d)
	}
}

// rowBelow runs one row of file under cfg (a counterfactual configuration,
// described by what) and wants its error under limit percent: the
// mechanism cfg removes is what brings the row to the H200.
func rowBelow(t *testing.T, cfg sm.Config, file, key string, limit float64, what string) {
	t.Helper()
	rows := repoCalibration(t, cfg, regexp.QuoteMeta(file+":"+key))
	r, ok := rows[key]
	if !ok {
		t.Fatalf("%s: no row %s", file, key)
	}
	if r.ErrorPct > limit {
		t.Errorf("%s the row %s is %+.1f %% (predicted %.2f, the H200 %.2f), want under %.0f %%",
			what, key, r.ErrorPct, r.Predicted, r.Measured, limit)
	}
}

// mapeAtMost fails t when rows' mean absolute percentage error exceeds limit.
func mapeAtMost(t *testing.T, file string, rows map[string]Row, limit float64) {
	t.Helper()
	var sum float64
	for _, r := range rows {
		sum += math.Abs(r.ErrorPct)
	}
	if m := sum / float64(len(rows)); m > limit {
		t.Errorf("%s MAPE %.2f %%, want at most %.1f", file, m, limit)
	}
}

// rowsWithin runs file's rows of the repository's calibration suite, wants
// n of them, and holds each within limit(key) percent of the H200; it
// returns the rows for further checks.
func rowsWithin(t *testing.T, file string, n int, limit func(key string) float64) map[string]Row {
	t.Helper()
	rows := repoCalibration(t, sm.DefaultConfig(), regexp.QuoteMeta(file)+":")
	if len(rows) != n {
		t.Fatalf("got %d %s rows, want %d", len(rows), file, n)
	}
	for k, r := range rows {
		if l := limit(k); math.Abs(r.ErrorPct) > l {
			t.Errorf("%s: predicted %.2f, measured %.2f (%+.1f %%, limit %.0f)", k, r.Predicted, r.Measured, r.ErrorPct, l)
		}
	}
	return rows
}

// TestPatchLoopsSitWithinTheSpreadOfTheirSchedules: calibration/h200
// patch.csv times 17 SASS schedules of two PTX loops (patch.cu's kconv and
// kelect: the same instructions reordered, or other stall counts and yield
// bits), 8-32 warps. At 16 warps the H200's phase runs from 125 to 152
// cycles over them, so a model that runs PTX can only aim at the middle:
// each loop's value must lie within 15 % of the median of all 17 schedules
// at every warp count (the model sits at the fast end at 16 warps: 129.0
// and 125.0 against a median of 144.9).
func TestPatchLoopsSitWithinTheSpreadOfTheirSchedules(t *testing.T) {
	dir := "h200"
	measured, err := readCSV(filepath.Join(dir, "patch.csv"))
	if err != nil {
		t.Fatal(err)
	}
	byWarps := map[int][]float64{}
	for _, m := range measured {
		var variant string
		var rep, w int
		if _, err := fmt.Sscanf(strings.ReplaceAll(m.config, "_", " "), "%s r%d warps%d", &variant, &rep, &w); err != nil {
			t.Fatalf("patch.csv config %q: %v", m.config, err)
		}
		if rep == 1 {
			byWarps[w] = append(byWarps[w], m.value)
		}
	}
	sources := &sourceCache{dir: dir, m: map[string]*run.Source{}}
	const iters = 2000
	for _, w := range []int{8, 12, 16, 24, 32} {
		v := byWarps[w]
		if len(v) != 17 {
			t.Fatalf("patch.csv: %d schedules at %d warps, want 17", len(v), w)
		}
		sort.Float64s(v)
		med := v[len(v)/2]
		for _, k := range []string{"kconv", "kelect"} {
			r := recipe{file: "patch.ptx", kernel: k, block: 32 * w, args: []string{fmt.Sprint(iters), "buf:8"}, outLen: 1,
				rows: []rowFn{{"patch", k, "cycles_per_phase", func(o []int64) float64 { return float64(o[0]) / iters }}}}
			got, _, err := runRecipe(sources, r, sm.DefaultConfig())
			if err != nil {
				t.Fatal(err)
			}
			if e := relErr(got[0], med); math.Abs(e) > 15 {
				t.Errorf("%s, %d warps: %.1f cycles a phase, %+.1f %% from the median of the H200's 17 schedules (%.1f; %.1f to %.1f)",
					k, w, got[0], e, med, v[0], v[len(v)-1])
			}
		}
	}
}

// TestLatencyChainsOfPtxasRewritesMatchTheH200: pipeline.csv's dependent
// chains that depend on what ptxas makes of the PTX — three-input adds
// (compiler.FuseAdds), a narrowing cvt that is no instruction
// (compiler.ElideNarrowingCvts) and packed-half FMAs alternating between HFMA2
// and HFMA2.MMA (compiler.Half2Pipes) — next to the plain FFMA chain and the
// f32/f16 conversion pair (F2FP and HADD2.F32, 5 cycles each:
// isa.ClassCvtFloat), the chains through the MUFU unit and back
// (latency.mufu_forward) and a chain of shared-memory atomics
// (smem.atomic_cycles), each within 10 % of the H200.
func TestLatencyChainsOfPtxasRewritesMatchTheH200(t *testing.T) {
	rows := repoCalibration(t, sm.DefaultConfig(), `pipeline\.csv:latency_chain,(iadd_u32|iadd_u64|imad_wide_u32|hfma2_f16x2|ffma_f32|f2f_f16_f32_pair|mufu_rcp_ffma_pair|f2i_i2f_pair|atom_shared_add_u32),`)
	for _, k := range []string{"iadd_u32", "iadd_u64", "imad_wide_u32", "hfma2_f16x2", "ffma_f32", "f2f_f16_f32_pair", "mufu_rcp_ffma_pair", "f2i_i2f_pair", "atom_shared_add_u32"} {
		within(t, rows, "latency_chain,"+k+",cycles_per_op", 10)
	}
}

// A chain of shared loads whose address adds a uniform base to the last
// value loaded costs what a bare LDS chain costs on the H200: ptxas folds
// the add into the address ([R+UR], compiler.FoldSharedAddressAdds). hwprobe.cu's
// `shl; add; ld` chain (probe.csv smem_load_chain) and window.cu's `add; ld`
// chain (window.csv vector_outside) stay within 3 and 10 %; charged the
// add's four cycles they were 5–8 % and 18 % slow.
func TestSharedAddressAddsFoldIntoTheAccess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs calibration rows")
	}
	probe := rowsOf(t, "h200", sm.DefaultConfig(),
		Options{Quick: true, Only: `probe\.csv:smem_load_chain,`})
	if len(probe) != 8 {
		t.Fatalf("%d smem_load_chain rows, want 8", len(probe))
	}
	for k := range probe {
		within(t, probe, k, 3)
	}
	window := repoCalibration(t, sm.DefaultConfig(), `window\.csv:window,vector_outside,`)
	within(t, window, "window,vector_outside,cycles_per_link", 10)
}

// store.csv: one thread's bulk stores leave the SM at 32 B/cycle, the read
// wait comes a kilobyte's sending before the write wait, and the write wait
// has no L2 round trip (tma.store_bytes_per_cycle, tma.store_buffer). Every
// row of 4 and 16 KiB stores stays within 7 % and every store waited for
// alone within 15 %; small stores with a ring of buffers are bound by the
// loop's address arithmetic, which the model runs slower than the uniform
// datapath does (docs/model.md, known misses). The first run of the model
// before the store path was 146.5 %.
func TestBulkStoresMatchTheH200(t *testing.T) {
	if testing.Short() {
		t.Skip("runs calibration rows")
	}
	rows := repoCalibration(t, sm.DefaultConfig(), `store\.csv:`)
	if len(rows) != 24 {
		t.Fatalf("%d store.csv rows, want 24", len(rows))
	}
	sum := 0.0
	for k, r := range rows {
		sum += math.Abs(r.ErrorPct)
		switch {
		case strings.Contains(k, "_size4096_") || strings.Contains(k, "_size16384_"):
			within(t, rows, k, 7)
		case strings.Contains(k, "_depth1,"):
			within(t, rows, k, 15)
		}
	}
	if m := sum / float64(len(rows)); m > 11 {
		t.Errorf("store.csv MAPE %.1f %% > 11 %%", m)
	}
}

// waterfall.csv: a bulk copy whose operands ptxas keeps in vector registers
// waits for their moves to uniform registers (compiler.MoveCopyOperandsToUniform):
// a store and its wait_group.read 56 cycles more than from uniform operands
// at 256 bytes (73 at 4 KiB), a load and its wait 38 more. The model charges
// the difference and nothing else; a region only one thread enters stays
// uniform, as after the other threads' return.
func TestVectorCopyOperandsCostWhatTheH200Charges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs calibration rows")
	}
	rows := repoCalibration(t, sm.DefaultConfig(), `waterfall\.csv:`)
	if len(rows) != 48 {
		t.Fatalf("%d waterfall.csv rows, want 48", len(rows))
	}
	get := func(name string, size int) Row {
		k := fmt.Sprintf("waterfall,%s_size%d,cycles_per_copy", name, size)
		r, ok := rows[k]
		if !ok {
			t.Fatalf("no row %s", k)
		}
		return r
	}
	for _, size := range []int{256, 4096} {
		for _, c := range []struct{ uniform, vector string }{
			{"store_uniform", "store_vector"}, {"load_uniform", "load_vector"},
			{"store_region", "store_region_vector"}, {"load_region", "load_region_vector"},
		} {
			u, v := get(c.uniform, size), get(c.vector, size)
			hw, model := v.Measured-u.Measured, v.Predicted-u.Predicted
			if math.Abs(model-hw) > 0.3*hw {
				t.Errorf("%s - %s at %d B: %.1f cycles, the H200 %.1f", c.vector, c.uniform, size, model, hw)
			}
		}
		for _, name := range []string{"store", "load"} {
			region, after := get(name+"_region", size), get(name+"_uniform", size)
			if math.Abs(region.Predicted-after.Predicted) > 1 {
				t.Errorf("%s_region at %d B: %.1f cycles, after a return %.1f: a one-thread region is uniform code",
					name, size, region.Predicted, after.Predicted)
			}
		}
		within(t, rows, fmt.Sprintf("waterfall,store_vector_size%d,cycles_per_copy", size), 12)
	}
}

// smemshare.csv: 4 or 16 warps streaming 128-bit shared loads slow down by
// half while one thread's bulk stores stream (their source reads take the
// shared-memory array's cycles: tma.store_read_bytes), and barely while its
// bulk loads land. Without the share the store rows are 22-28 % fast.
func TestBulkStoresShareTheSharedMemoryArray(t *testing.T) {
	if testing.Short() {
		t.Skip("runs calibration rows")
	}
	rows := repoCalibration(t, sm.DefaultConfig(), `smemshare\.csv:`)
	if len(rows) != 28 {
		t.Fatalf("%d smemshare.csv rows, want 28", len(rows))
	}
	sum := 0.0
	for k, r := range rows {
		sum += math.Abs(r.ErrorPct)
		if strings.Contains(k, "lds_stores") {
			within(t, rows, k, 10)
		}
	}
	if m := sum / float64(len(rows)); m > 5 {
		t.Errorf("smemshare.csv MAPE %.1f %% > 5 %%", m)
	}
	none := sm.DefaultConfig()
	none.TMA.StoreReadBytes = 0
	const key = "smem_share,lds_stores_chunk4096_warps16,lds_cycles"
	without := repoCalibration(t, none, `smemshare\.csv:smem_share,lds_stores_chunk4096_warps16,`)[key]
	if with := rows[key]; with.Predicted < 1.25*without.Predicted {
		t.Errorf("%s: %.0f cycles with the stores' share, %.0f without: want at least 25 %% more", key, with.Predicted, without.Predicted)
	}
}

// reqcost.csv and bulkbw.csv: one thread's streams of bulk copies. The H200
// issues a copy every 61 cycles up to 8 KiB (57 from one source) and streams
// 8 and 16 KiB copies at ~96 B/cycle; microbench.cu's bandwidth kernel and its
// variants cost 77.6 / 90.7 cycles a 1 / 4 KiB copy, 59.9 / 73.0 without the
// source offset's wrap. The model's known misses here (calibration/h200
// README): its PTX loop issues a copy every 69 cycles, its
// 8-copy bursts complete 7-16 % late, and 16 KiB streams run on a faster L2
// link. The bounds hold today's level.
func TestCopyStreamsHoldTheirLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("runs calibration rows")
	}
	for _, c := range []struct {
		file string
		rows int
		mape float64
	}{{"reqcost", 80, 9.5}, {"bulkbw", 35, 7.5}} {
		rows := repoCalibration(t, sm.DefaultConfig(), c.file+`\.csv:`)
		if len(rows) != c.rows {
			t.Fatalf("%d %s.csv rows, want %d", len(rows), c.file, c.rows)
		}
		sum := 0.0
		for _, r := range rows {
			sum += math.Abs(r.ErrorPct)
		}
		if m := sum / float64(len(rows)); m > c.mape {
			t.Errorf("%s.csv MAPE %.1f %% > %.1f %%", c.file, m, c.mape)
		}
	}
	rows := repoCalibration(t, sm.DefaultConfig(), `bulkbw\.csv:`)
	for _, k := range []string{"microbench_chunk1024_batches200", "microbench_chunk4096_batches200",
		"nowait_chunk1024_batches16", "nowait_chunk4096_batches16", "slots8_chunk4096_batches200"} {
		within(t, rows, "bulkbw,"+k+",cycles_per_copy", 10)
	}
	// A batch's own work (its wait, arm and loop set-up) is spread over its
	// copies: per copy, a batch of 4 costs more than one of 16, which costs
	// more than one of 64, and 16 copies of 1 KiB cost what 16 of 4 KiB do,
	// as on the H200 (125.5, 73.0, 59.9 and 73.0).
	per := func(k string) float64 { return rows["bulkbw,"+k+",cycles_per_copy"].Predicted }
	k4, k16, k64 := per("nowrap_chunk1024_k4_batches200"), per("nowrap_chunk1024_k16_batches200"), per("nowrap_chunk1024_batches200")
	if !(k4 > k16+20 && k16 > k64+5) {
		t.Errorf("1 KiB copies in batches of 4, 16, 64: %.1f, %.1f, %.1f cycles a copy; want the batch's work spread over its copies", k4, k16, k64)
	}
	if big := per("nowrap_chunk4096_batches200"); math.Abs(big-k16) > 0.02*k16 {
		t.Errorf("batches of 16 copies: %.1f cycles a 1 KiB copy, %.1f a 4 KiB one; want the same", k16, big)
	}
	// The thread issues small copies at one rate whatever their size.
	rc := repoCalibration(t, sm.DefaultConfig(), `reqcost\.csv:`)
	a, b := rc["reqcost,distinct_size16_n40,issue_cycles"], rc["reqcost,distinct_size4096_n40,issue_cycles"]
	if a.Predicted != b.Predicted {
		t.Errorf("40 copies of 16 B issue in %.0f cycles, of 4 KiB in %.0f: want the same, as on the H200 (%.0f, %.0f)",
			a.Predicted, b.Predicted, a.Measured, b.Measured)
	}
}
