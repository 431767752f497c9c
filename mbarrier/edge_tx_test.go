package mbarrier

import (
	"slices"
	"testing"
)

// Edge cases C17-C26 and F55 of mbarrier-semantics.md §4 (transaction count).
// C27 (multicast slices) is owned by package tma; its barrier-visible part is
// the negative tx-count of C18.

// scripted is one operation of a scripted test and the completion it must cause.
type scripted struct {
	u    Update
	done bool
	by   Cause
}

// run applies the script, checking the completion and its cause at every step.
func run(t *testing.T, b *Barrier, script []scripted) []Result {
	t.Helper()
	var rs []Result
	for i, s := range script {
		r := mustApply(t, b, s.u)
		if r.Completed != s.done || r.CompletedBy != s.by {
			t.Fatalf("step %d (%s %d/%d): got completed %t by %v, want %t by %v",
				i+1, s.u.op(), s.u.Count, s.u.Tx, r.Completed, r.CompletedBy, s.done, s.by)
		}
		rs = append(rs, r)
	}
	return rs
}

// §4 C17: "expect_tx(B), copy of B completes, last arrival → completes at the
// later of the two events."
func TestEdge17_CompletesAtLaterOfBytesAndLastArrival(t *testing.T) {
	tests := []struct {
		name   string
		script []scripted
	}{
		{"bytes land first, last arrival completes", []scripted{
			{expectTx(128), false, NotCompleted},
			{completeTx(128), false, NotCompleted},
			{arrive(1), false, NotCompleted},
			{arrive(1), true, Arrivals},
		}},
		{"arrivals first, bytes complete", []scripted{
			{expectTx(128), false, NotCompleted},
			{arrive(2), false, NotCompleted},
			{completeTx(128), true, Bytes},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 2)
			run(t, b, tc.script)
			wantState(t, b, st(1, 2, 2, 0))
		})
	}
}

// §4 C18: "Copy completes before the expectation (Tx = −B, Pending > 0) → no
// completion; after arrive.expect_tx(B) → completes."
func TestEdge18_CopyBeforeExpectationIsLegal(t *testing.T) {
	b := newBarrier(t, 1)
	run(t, b, []scripted{{completeTx(256), false, NotCompleted}})
	wantState(t, b, st(0, 1, 1, -256))
	run(t, b, []scripted{{arriveTx(1, 256), true, Arrivals}})
	wantState(t, b, st(1, 1, 1, 0))
}

// §4 C19: "arrive.expect_tx as the final arrival with bytes outstanding → must
// not complete in that step (expect applied first)."
func TestEdge19_FinalArriveExpectTxDoesNotCompleteEarly(t *testing.T) {
	b := newBarrier(t, 1)
	run(t, b, []scripted{{arriveTx(1, 512), false, NotCompleted}})
	wantState(t, b, st(0, 0, 1, 512))
}

// §4 C20: "Two copies (B1, B2) on one barrier; expect_tx(B1); all arrivals
// done; copy 1 completes → phase completes prematurely; later expect_tx(B2) and
// copy 2 affect the next phase. The simulator must reproduce this and lint it."
func TestEdge20_SecondExpectAfterCompletionIsPrematureCompletion(t *testing.T) {
	b := newBarrier(t, 1)
	rs := run(t, b, []scripted{
		{expectTx(100), false, NotCompleted},
		{arrive(1), false, NotCompleted},
		{completeTx(100), true, Bytes}, // premature: copy 2 has not even been expected
		{expectTx(60), false, NotCompleted},
		{completeTx(60), false, NotCompleted},
	})
	if got := warningCodes(rs[3]); !slices.Equal(got, []WarningCode{TxAfterCompletion}) {
		t.Errorf("late expect_tx(B2): got warnings %v, want [tx after completion]", got)
	}
	wantState(t, b, st(1, 1, 1, 0))
}

// §4 C21: "Tx negative with all arrivals done, then expect_tx restores Tx to 0
// → completes (measured on H200, §5.1)."
func TestEdge21_ExpectTxRestoringZeroCompletes(t *testing.T) {
	b := newBarrier(t, 1)
	rs := run(t, b, []scripted{
		{completeTx(16), false, NotCompleted},
		{arrive(1), false, NotCompleted},
		{expectTx(16), true, Bytes},
	})
	if got := warningCodes(rs[2]); !slices.Equal(got, []WarningCode{ExpectAfterLastArrival}) {
		t.Errorf("expect_tx after last arrival: got warnings %v, want [expect after last arrival]", got)
	}
	wantState(t, b, st(1, 1, 1, 0))
}

// §4 C22: "Expectation too small → phase completes before all bytes land; the
// leftover complete-tx drives the next phase's Tx negative; the next phase then
// completes early or late accordingly."
func TestEdge22_TooSmallExpectationLeaksIntoNextPhase(t *testing.T) {
	leak := []scripted{
		{arriveTx(1, 32), false, NotCompleted},
		{completeTx(32), true, Bytes}, // first 32 of 48 bytes: phase 0 completes early
		{completeTx(16), false, NotCompleted},
	}
	tests := []struct {
		name string
		next []scripted
		want State
	}{
		{"next phase completes early", []scripted{
			{arriveTx(1, 32), false, NotCompleted},
			{completeTx(16), true, Bytes}, // only half of phase 1's own bytes landed
		}, st(2, 1, 1, 0)},
		{"next phase never sees tx 0", []scripted{
			{arriveTx(1, 32), false, NotCompleted},
			{completeTx(32), false, NotCompleted},
		}, st(1, 0, 1, -16)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 1)
			rs := run(t, b, leak)
			if got := warningCodes(rs[2]); !slices.Equal(got, []WarningCode{TxAfterCompletion}) {
				t.Errorf("leftover complete_tx: got warnings %v, want [tx after completion]", got)
			}
			wantState(t, b, st(1, 1, 1, -16))
			run(t, b, tc.next)
			wantState(t, b, tc.want)
		})
	}
}

// §4 C23: "Expectation too large → never completes → deadlock report." The
// barrier part: the phase stays open with tx-count > 0; the report is sm's.
func TestEdge23_TooLargeExpectationNeverCompletes(t *testing.T) {
	b := newBarrier(t, 1)
	run(t, b, []scripted{
		{arriveTx(1, 100), false, NotCompleted},
		{completeTx(60), false, NotCompleted},
	})
	wantState(t, b, st(0, 0, 1, 40))
	wantParity(t, b, 0, false)
}

// §4 C24: "Whole converged warp executes arrive.expect_tx(B) on init(32) →
// Pending 0, Tx = 32·B, only B arrives → hang; on init(1) → over-arrival UB."
func TestEdge24_WarpArriveExpectTxSumsBytes(t *testing.T) {
	warp := Update{Kind: Arrive, Count: 32, Tx: 32 * 64, Lanes: 32}
	b := newBarrier(t, 32)
	run(t, b, []scripted{{warp, false, NotCompleted}, {completeTx(64), false, NotCompleted}})
	wantState(t, b, st(0, 0, 32, 31*64))

	one := newBarrier(t, 1)
	wantCode(t, one, warp, OverArrival)
}

// §4 C25: "Expectations summing beyond 2^20−1 in one phase → UB diagnostic."
func TestEdge25_ExpectationsBeyondLimitAreError(t *testing.T) {
	tests := []struct {
		name   string
		before Update
		last   Update
	}{
		{"expect_tx sum passes +limit", expectTx(MaxCount), expectTx(1)},
		{"arrive.expect_tx sum passes +limit", expectTx(MaxCount - 8), arriveTx(1, 9)},
		{"complete_tx sum passes -limit", completeTx(MaxCount), completeTx(1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 2)
			mustApply(t, b, tc.before)
			wantCode(t, b, tc.last, TxRange)
		})
	}
}

// §4 C26: "expect_tx(0) → no change; complete_tx with no async op behaves
// exactly like a copy completion of that many bytes." Both completions are
// CompleteTx here, so the second half is C17-C22 themselves.
func TestEdge26_ExpectTxZeroChangesNothing(t *testing.T) {
	tests := []struct {
		name  string
		setup []Update
	}{
		{"fresh barrier", nil},
		{"bytes outstanding, pending 0", []Update{arriveTx(2, 64)}},
		{"tx negative", []Update{completeTx(64)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 2)
			for _, u := range tc.setup {
				mustApply(t, b, u)
			}
			want := b.State()
			wantCompleted(t, mustApply(t, b, expectTx(0)), false)
			wantState(t, b, want)
		})
	}
}

// §4 F55: "One phase expecting more than 2^20−1 bytes (e.g. a 2 MiB bulk copy)
// → UB diagnostic; splitting across phases/barriers is required."
func TestEdge55_PhaseExpectingOverLimitIsError(t *testing.T) {
	const twoMiB = 2 << 20
	for _, u := range []Update{expectTx(twoMiB), arriveTx(1, twoMiB), completeTx(twoMiB)} {
		t.Run(u.op()+" of 2 MiB", func(t *testing.T) {
			b := newBarrier(t, 1)
			wantCode(t, b, u, TxRange)
			wantState(t, b, st(0, 1, 1, 0))
		})
	}
}
