package run_test

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// Edge cases of mbarrier-semantics.md §4 that need the whole SM (warps,
// scheduling, shared memory, deadlock detection). Barrier-local cases are
// tested in package mbarrier, TMA geometry in package tma.

const initHeader = `kernel edge
block 64
barrier bar
if tid == 0 {
    init bar, ntid
}
syncthreads
`

// §4 A4: st.shared into a live barrier's 8 bytes is undefined behaviour.
func TestEdge04_StoreIntoLiveBarrierIsMisuse(t *testing.T) {
	_, err := simulate(t, initHeader+"if tid == 5 {\n    st.shared [0], 7\n}\n")
	wantDiag(t, err, sm.DiagMisuse, "access-to-live-barrier", "k.sms:9:5", "overlaps the live mbarrier bar", "[UB #3]", "warp 0 lanes 5")
}

// §4 A5: a use of the barrier by another warp before the init is ordered
// before it (no bar.sync) is reported; real hardware may hang.
func TestEdge05_UseBeforeInitIsOrderedWarns(t *testing.T) {
	r := mustSim(t, `kernel edge
block 64
barrier bar
if tid == 0 {
    init bar, 2
}
if tid == 32 {
    delay 500
    arrive bar
}
if tid == 0 {
    arrive bar
}
`)
	if len(r.Warnings) == 0 || !strings.Contains(r.Warnings[0], "[UB #15]") {
		t.Errorf("got warnings %q, want one naming UB #15", r.Warnings)
	}
}

// §4 A5 (the init has not executed at all): a hard error.
func TestEdge05_UseBeforeInitExecutesIsMisuse(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 64
barrier bar
if tid == 0 {
    delay 500
    init bar, 2
}
if tid == 32 {
    arrive bar
}
`)
	wantDiag(t, err, sm.DiagMisuse, "uninitialized-barrier", "k.sms:9:", "not an mbarrier", "[UB #1]", "warp 1")
}

// §4 A6: a barrier address that is not 8-byte aligned.
func TestEdge06_MisalignedBarrierAddressIsMisuse(t *testing.T) {
	_, err := simulate(t, "kernel edge\nblock 32\nbarrier bar\ninit [12], 1\n")
	wantDiag(t, err, sm.DiagMisuse, "misaligned", "k.sms:4:", "not 8-byte aligned")
}

// §4 B15: a participant exits without arrive_drop: the phase never
// completes and the others are reported waiting on it.
func TestEdge15_ExitWithoutArriveDropDeadlocks(t *testing.T) {
	_, err := simulate(t, initHeader+`if warp == 1 {
    exit
}
arrive bar
wait bar parity 0
`, "--set", "watchdog.spin_cycles=20000")
	d := wantDiag(t, err, sm.DiagLivelock, "livelock", "barrier bar phase 0", "missing 32 of 64 arrivals")
	if !strings.Contains(strings.Join(d.Detail, "\n"), "warp 0") {
		t.Errorf("detail does not name the waiting warp: %q", d.Detail)
	}
}

// §4 D29: on a fresh barrier parity 1 passes at once, parity 0 waits.
func TestEdge29_FreshBarrierParityOnePassesParityZeroWaits(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier bar
global out[16] zero
init bar, 1
let a = test_wait bar parity 1
let b = test_wait bar parity 0
st.global.u64 [out], a
st.global.u64 [out + 8], b
`, "--dump", "out:i64:2")
	if got := r.Dumps["out"]; len(got) != 2 || got[0] != int64(1) || got[1] != int64(0) {
		t.Errorf("got %v, want [1 0]", got)
	}
}

// §4 D30: try_wait on a phase that never completes returns false after the
// time limit; the same warp can then arrive and complete it (no simulator
// deadlock, unlike a simulator that blocks forever).
func TestEdge30_TryWaitTimesOutAndSameWarpCanArrive(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier bar
global out[16] zero
init bar, 32
let ok = try_wait bar parity 0
arrive bar
let ok2 = try_wait bar parity 0
st.global.u64 [out], ok
st.global.u64 [out + 8], ok2
`, "--dump", "out:i64:2")
	if got := r.Dumps["out"]; got[0] != int64(0) || got[1] != int64(1) {
		t.Errorf("got %v, want [0 1]", got)
	}
}

// §4 D31: a try_wait suspended when the phase completes wakes and returns true.
func TestEdge31_SuspendedTryWaitWakesOnCompletion(t *testing.T) {
	r := mustSim(t, `kernel edge
block 64
barrier bar
global out[8] zero
if tid == 0 {
    init bar, 1
}
syncthreads
if warp == 1 {
    delay 20
    if lane == 0 {
        arrive bar
    }
}
if warp == 0 {
    let ok = try_wait bar parity 0 hint 100000
    if lane == 0 {
        st.global.u64 [out], ok
    }
}
`, "--dump", "out:i64:1")
	if got := r.Dumps["out"]; got[0] != int64(1) {
		t.Errorf("got %v, want [1]: the suspended try_wait should wake with true", got)
	}
	if r.Cycles > 2000 {
		t.Errorf("took %d cycles: the waiter was not woken by the completion", r.Cycles)
	}
}

// §4 D32 / §5.9: a token two phases old — strict mode reports it,
// lenient (hardware-faithful) mode compares parity and returns false.
func TestEdge32_StaleTokenStrictErrorLenientFalse(t *testing.T) {
	src := `kernel edge
block 32
barrier bar
global out[8] zero
init bar, 32
let t0 = arrive bar
arrive bar
let ok = test_wait bar token t0
st.global.u64 [out], ok
`
	_, err := simulate(t, src)
	wantDiag(t, err, sm.DiagMisuse, "stale-wait", "k.sms:8:", "barrier bar phase 2")
	r := mustSim(t, src, "--lenient", "--dump", "out:i64:1")
	if got := r.Dumps["out"]; got[0] != int64(0) {
		t.Errorf("lenient: got %v, want [0]", got)
	}
	if !strings.Contains(strings.Join(r.Warnings, "\n"), "compared by parity only") {
		t.Errorf("lenient: got warnings %q, want one about the parity comparison", r.Warnings)
	}
}

// §4 D33: parity ABA — the barrier advances twice before a slow warp polls
// with its old parity; the slow warp sees "incomplete" and hangs (reported).
func TestEdge33_ParityABASlowWarpHangsAndIsReported(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 64
barrier bar
if tid == 0 {
    init bar, 32
}
syncthreads
if warp == 0 {
    arrive bar
    wait bar parity 0
    arrive bar
    wait bar parity 1
}
if warp == 1 {
    delay 2000
    wait bar parity 0
}
`, "--set", "watchdog.spin_cycles=20000")
	wantDiag(t, err, sm.DiagLivelock, "livelock", "barrier bar phase 2", "warp 1")
}

// §4 D34: parity from the loop counter instead of the barrier's use count:
// with the barrier used twice per iteration, the second wait of iteration 0
// asks for parity 0 while phase 2 (parity 0) is open — it hangs, and the
// report names the phase.
func TestEdge34_ParityFromLoopCounterHangsAndIsReported(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 32
barrier bar
init bar, 32
for i in 0..2 {
    arrive bar
    wait bar parity i & 1
    arrive bar
    wait bar parity i & 1
}
`, "--set", "watchdog.spin_cycles=20000")
	wantDiag(t, err, sm.DiagLivelock, "livelock", "k.sms:9:", "barrier bar phase 2")
}

// §4 E37/E38 and §5.5: one barrier update per converged warp, two for a warp
// split in halves, 32 for lane-serial arrives; and the divergent forms take
// longer.
func TestEdge37_38_EntanglementExampleUpdatesPerWarp(t *testing.T) {
	var cycles []uint64
	for _, tc := range []struct {
		file string
		want float64
	}{{"entangle_converged.sms", 1}, {"entangle_half.sms", 2}, {"entangle_lanes.sms", 32}} {
		r := runExample(t, tc.file)
		b := barrierNamed(t, r, "bar")
		for _, p := range b.Phases {
			if p.UpdatesPerWarp != tc.want {
				t.Fatalf("%s phase %d: got %.1f updates per warp, want %.0f", tc.file, p.Phase, p.UpdatesPerWarp, tc.want)
			}
		}
		cycles = append(cycles, r.Cycles)
	}
	if !(cycles[0] < cycles[1] && cycles[1] < cycles[2]) {
		t.Errorf("got cycles %v, want converged < half < lanes", cycles)
	}
}

// §4 E39: one instruction whose lanes address two barriers makes one update per barrier.
func TestEdge39_LanesOnTwoBarriersMakeOneUpdateEach(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier b[2]
init b[0], 16
init b[1], 16
arrive b[lane / 16]
`)
	for _, n := range []string{"b[0]", "b[1]"} {
		b := barrierNamed(t, r, n)
		if len(b.Phases) == 0 || b.Phases[0].Updates != 1 || b.Phases[0].Arrivals != 16 {
			t.Errorf("%s: got phases %+v, want one update of 16 arrivals", n, b.Phases)
		}
	}
}

// §4 E41: 32 converged lanes arriving on init(16) is over-arrival (measured:
// the hardware traps, §5.6), never split across phases.
func TestEdge41_ConvergedOverArrivalIsMisuse(t *testing.T) {
	_, err := simulate(t, "kernel edge\nblock 32\nbarrier bar\ninit bar, 16\narrive bar\n")
	wantDiag(t, err, sm.DiagMisuse, "over-arrival", "k.sms:5:", "exceeds pending 16", "barrier bar phase 0", "warp 0 lanes 0-31")
}

// §4 E42: lanes of one try_wait with different parities get per-lane answers.
func TestEdge42_DivergentParitiesGetPerLanePredicates(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier bar
global out[32 * 8] zero
init bar, 32
arrive bar
let ok = test_wait bar parity lane & 1
st.global.u64 [out + lane * 8], ok
`, "--dump", "out:i64:4")
	got := r.Dumps["out"]
	want := []any{int64(1), int64(0), int64(1), int64(0)}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// §4 F43: a bulk copy whose size is not a multiple of 16 is rejected at issue.
func TestEdge43_BulkCopyOfTwentyFourBytesIsMisuse(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 32
barrier bar
shared buf[256]
global src[256] seq
if lane == 0 {
    init bar, 1
    arrive.expect_tx bar, 24
    copy.bulk [buf], [src], 24, bar
}
`)
	wantDiag(t, err, sm.DiagMisuse, "bulk-copy", "k.sms:9:", "multiple of 16", "warp 0 lanes 0")
}

// §4 F44 / §5.2: a tensor box partly out of bounds completes the phase with
// the full box bytes and zero-fills the out-of-bounds part.
func TestEdge44_PartlyOutOfBoundsBoxCreditsFullBoxAndZeroFills(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier bar
shared tile[64 * 64 * 2] align 128
global src[64 * 64 * 2] "byte:0x11"
global out[64 * 64 * 2] zero
tensormap A "f16,64x64,box=64x64,buf=src"
if lane == 0 {
    init bar, 1
    arrive.expect_tx bar, 8192
    copy.tensor [tile], A[32, 32], bar
}
wait bar parity 0
for i in 0..64 {
    let v = ld.shared [tile + i * 128 + lane * 4]
    st.global [out + i * 128 + lane * 4], v
}
`, "--dump", "out:hex:2048")
	b := barrierNamed(t, r, "bar")
	if len(b.Phases) != 1 || b.Phases[0].TxBytes != 8192 || b.Phases[0].CompletedBy != "bytes" {
		t.Fatalf("got phases %+v, want one phase completed by 8192 bytes", b.Phases)
	}
	out := r.Dumps["out"]
	// Row 0 of the box is tensor row 32: columns 32..63 in bounds (words 0..15), 64.. out (16..31).
	if out[0] != "0x11111111" || out[15] != "0x11111111" || out[16] != "0x00000000" {
		t.Errorf("row 0: got %v %v %v, want in-bounds 0x11111111 then zero fill", out[0], out[15], out[16])
	}
	// Box row 32 is tensor row 64: fully out of bounds.
	if out[32*32] != "0x00000000" {
		t.Errorf("row 32: got %v, want zero fill", out[32*32])
	}
}

// §4 F45: a tensor store with a negative origin is invalid.
func TestEdge45_TensorStoreWithNegativeOriginIsMisuse(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 32
shared tile[64 * 64 * 2] align 128
global dst[64 * 64 * 2] zero
tensormap A "f16,64x64,box=64x64,buf=dst"
if lane == 0 {
    fence.proxy.async
    store.tensor A[-8, 0], [tile]
    commit_group
    wait_group 0
}
`)
	wantDiag(t, err, sm.DiagMisuse, "bulk-copy", "k.sms:8:", "negative")
}

// §4 F55: one phase expecting more than 2^20-1 bytes is undefined behaviour.
func TestEdge55_PhaseExpectingTwoMiBIsMisuse(t *testing.T) {
	_, err := simulate(t, "kernel edge\nblock 32\nbarrier bar\nif lane == 0 {\n    init bar, 1\n    arrive.expect_tx bar, 2097152\n}\n")
	wantDiag(t, err, sm.DiagMisuse, "tx-count-out-of-range", "k.sms:6:", "barrier bar phase 0")
}

// §4 C27: slices of a stage landing before the local producer's expectation
// leave the tx-count negative; the phase completes only when every slice and
// the local arrival (with the whole stage's bytes) are in. (Peers' multicast
// slices are modelled as copies issued before the expectation: smsim runs one
// CTA per cluster.)
func TestEdge27_SlicesBeforeTheExpectationCompleteOnlyWhenAllAreIn(t *testing.T) {
	r := mustSim(t, `kernel edge
block 32
barrier bar
shared buf[8192] align 128
global src[8192] seq
if lane == 0 {
    init bar, 1
    copy.bulk [buf], [src], 4096, bar
    copy.bulk [buf + 4096], [src + 4096], 4096, bar
    delay 3000
    arrive.expect_tx bar, 8192
}
wait bar parity 0
`)
	b := barrierNamed(t, r, "bar")
	if len(b.Phases) != 1 || b.Phases[0].TxBytes != 8192 || b.Phases[0].CompletedBy != "arrivals" {
		t.Fatalf("got %+v, want one phase of 8192 bytes completed by the late arrival", b.Phases)
	}
	if b.Phases[0].Completed < 3000 {
		t.Errorf("phase completed at %d, before the expectation", b.Phases[0].Completed)
	}
}

// §4 F48: reading a bulk copy's destination before its barrier phase
// completed sees stale data: reported.
func TestEdge48_ReadOfACopyDestinationBeforeTheWaitIsReported(t *testing.T) {
	_, err := simulate(t, `kernel edge
block 32
barrier bar
shared buf[4096]
global src[4096] seq
if lane == 0 {
    init bar, 1
    arrive.expect_tx bar, 4096
    copy.bulk [buf], [src], 4096, bar
}
let v = ld.shared [buf + lane * 4]
wait bar parity 0
`)
	wantDiag(t, err, sm.DiagMisuse, "read-during-copy", "k.sms:11:", "[§4 #48]")
}

// §4 F49: ordinary stores into shared memory, then a bulk store of it without
// fence.proxy.async: reported; with the fence it runs.
func TestEdge49_BulkStoreWithoutProxyFenceIsReported(t *testing.T) {
	src := `kernel edge
block 32
shared buf[128] align 128
global dst[128] zero
st.shared [buf + lane * 4], lane
FENCE
syncwarp
if lane == 0 {
    store.bulk [dst], [buf], 128
    commit_group
    wait_group 0
}
`
	_, err := simulate(t, strings.Replace(src, "FENCE", "", 1))
	wantDiag(t, err, sm.DiagMisuse, "store-without-proxy-fence", "k.sms:9:", "[§4 #49]")
	r := mustSim(t, strings.Replace(src, "FENCE", "fence.proxy.async", 1), "--dump", "dst:u32:4")
	if got := r.Dumps["dst"]; got[3] != uint32(3) {
		t.Errorf("with the fence: got %v, want the lanes' values", got)
	}
}

// §4 F54: a CTA exits while a copy still lands in its shared memory and on
// its barrier (catalogue row 14, the single-CTA form of a peer multicasting
// into an exited CTA).
func TestEdge54_CTAExitWithACopyStillLandingIsMisuse(t *testing.T) {
	TestCatalogue14_CTAExitsWithACopyInFlight(t)
}

// §4 D35: writes made before a releasing arrive are visible after the
// acquire wait that sees the phase complete. (smsim performs every access in
// one order, so release/acquire hold; flagging reads after a .relaxed wait,
// the spec's optional checker, is not modelled.)
func TestEdge35_WritesBeforeTheArriveAreVisibleAfterTheWait(t *testing.T) {
	r := mustSim(t, `kernel edge
block 64
barrier bar
shared data[4]
global out[4] zero
if tid == 0 {
    init bar, 64
}
syncthreads
if warp == 0 {
    if lane == 0 {
        st.shared [data], 1234
    }
}
arrive bar
wait bar parity 0
if tid == 63 {
    let v = ld.shared [data]
    st.global [out], v
}
`, "--dump", "out:u32:1")
	if got := r.Dumps["out"]; got[0] != uint32(1234) {
		t.Errorf("got %v, want [1234]", got)
	}
}

// §4 F50: overwriting a bulk store's source before wait_group.read covers
// it is reported; after the wait it is fine.
func TestEdge50_OverwritingAStoreSourceBeforeWaitGroupReadIsReported(t *testing.T) {
	src := `kernel edge
block 32
shared buf[128] align 128
global dst[128] zero
st.shared [buf + lane * 4], lane
fence.proxy.async
syncwarp
if lane == 0 {
    store.bulk [dst], [buf], 128
    commit_group
    WAIT
    st.shared [buf], 99
}
`
	_, err := simulate(t, strings.Replace(src, "WAIT", "", 1))
	wantDiag(t, err, sm.DiagMisuse, "overwrite-store-source", "k.sms:12:", "[§4 #50]")
	mustSim(t, strings.Replace(src, "WAIT", "wait_group.read 0", 1))
}
