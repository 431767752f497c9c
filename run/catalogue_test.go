package run_test

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// One test per row of the undefined-behaviour catalogue
// (mbarrier-semantics.md §1.9): each shows the diagnostic a user needs —
// the source line, the barrier and phase, the warp and lanes. Rows 3, 5, 8,
// 9 and 15 are also edge cases (edge_test.go); row 11 needs cp.async, which
// the .sms language does not spell (sm/cpasync_test.go).

func TestCatalogue01_OperationOnUninitialisedBarrier(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\narrive bar\n")
	wantDiag(t, err, sm.DiagMisuse, "uninitialized-barrier", "k.sms:4:1", "[UB #1]", "warp 0 lanes 0-31")
}

func TestCatalogue01_OperationOnInvalidatedBarrier(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\ninval bar\nlet ok = test_wait bar parity 0\n")
	wantDiag(t, err, sm.DiagMisuse, "uninitialized-barrier", "k.sms:6:", "[UB #1]")
}

func TestCatalogue02_InitOfALiveBarrier(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\ninit bar, 32\n")
	wantDiag(t, err, sm.DiagMisuse, "double-init", "k.sms:5:1", "[UB #2]", "barrier bar")
}

func TestCatalogue03_LoadOverlappingALiveBarrier(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\ndelay 100\nlet v = ld.shared [4]\n")
	wantDiag(t, err, sm.DiagMisuse, "access-to-live-barrier", "k.sms:6:", "[UB #3]", "barrier bar")
}

func TestCatalogue04_InitCountZero(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 0\n")
	wantDiag(t, err, sm.DiagMisuse, "bad-count", "k.sms:4:1", "[UB #4]")
}

func TestCatalogue04_ArriveCountBeyondLimit(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 1\nif lane == 0 {\n    arrive bar, 2097152\n}\n")
	wantDiag(t, err, sm.DiagMisuse, "", "k.sms:6:", "barrier bar")
}

func TestCatalogue05_ArriveWhenOnlyBytesArePending(t *testing.T) {
	_, err := simulate(t, `kernel c
block 32
barrier bar
init bar, 1
if lane == 0 {
    arrive.expect_tx bar, 64
    arrive bar
}
`)
	wantDiag(t, err, sm.DiagMisuse, "over-arrival", "k.sms:7:", "[UB #5]", "barrier bar phase 0", "warp 0 lanes 0")
}

func TestCatalogue06_NoCompleteArriveThatWouldComplete(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 3\nif lane == 0 {\n    arrive.noComplete bar, 3\n}\n")
	wantDiag(t, err, sm.DiagMisuse, "noComplete-would-complete", "k.sms:6:", "[UB #6]")
}

func TestCatalogue07_ArriveOnNextPhaseBeforeAnyWaitWarns(t *testing.T) {
	r := mustSim(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\narrive bar\narrive bar\n")
	if len(r.Warnings) == 0 || !strings.Contains(strings.Join(r.Warnings, "\n"), "k.sms:6:") {
		t.Errorf("got warnings %q, want one at k.sms:6", r.Warnings)
	}
}

func TestCatalogue08_WaitOnATokenTwoPhasesOld(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\nlet t = arrive bar\narrive bar\nlet ok = test_wait bar token t\n")
	wantDiag(t, err, sm.DiagMisuse, "stale-wait", "k.sms:7:", "[UB #8]", "barrier bar phase 2")
}

func TestCatalogue09_TxCountOutOfRange(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 1\nif lane == 0 {\n    expect_tx bar, 600000\n    expect_tx bar, 600000\n}\n")
	wantDiag(t, err, sm.DiagMisuse, "tx-count-out-of-range", "k.sms:7:", "[UB #9]")
}

func TestCatalogue10_ArriveDropBelowOneExpected(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 32\narrive_drop bar\n")
	wantDiag(t, err, sm.DiagMisuse, "expected-below-one", "k.sms:5:1", "[UB #10]")
}

func TestCatalogue12_PendingCountOfAnOrdinaryToken(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit bar, 64\nlet t = arrive bar\nlet n = pending_count t\n")
	wantDiag(t, err, sm.DiagMisuse, "bad-pending_count-token", "k.sms:6:", "[UB #12]")
}

func TestCatalogue13_BarrierOutsideTheSharedWindow(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar\ninit [65536], 32\n")
	wantDiag(t, err, sm.DiagMisuse, "shared-out-of-bounds", "k.sms:4:1", "outside the block's")
}

func TestCatalogue13_MisalignedBarrier(t *testing.T) {
	_, err := simulate(t, "kernel c\nblock 32\nbarrier bar[2]\ninit [4], 32\n")
	wantDiag(t, err, sm.DiagMisuse, "misaligned", "k.sms:4:1", "not 8-byte aligned")
}

// Row 14: a CTA exits while a bulk copy still writes into its shared memory
// and completes on its barrier.
func TestCatalogue14_CTAExitsWithACopyInFlight(t *testing.T) {
	_, err := simulate(t, `kernel c
block 32
barrier bar
shared buf[4096]
global src[4096] seq
if lane == 0 {
    init bar, 1
    arrive.expect_tx bar, 4096
    copy.bulk [buf], [src], 4096, bar
}
`)
	wantDiag(t, err, sm.DiagMisuse, "cta-exited", "[UB #14]", "which has exited")
}

func TestCatalogue15_UseOfABarrierBeforeItsInitIsOrdered(t *testing.T) {
	TestEdge05_UseBeforeInitIsOrderedWarns(t)
	TestEdge05_UseBeforeInitExecutesIsMisuse(t)
}
