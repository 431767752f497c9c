package mbarrier

import "testing"

// Facts measured on an H200 (mbarrier-semantics.md §5) that the barrier alone
// can show. §5.2 (OOB boxes) is tma's, §5.3-5.5 (timing) are sm's.

// §5.1: "complete_tx(16) → arrive (pending 0, tx −16: not complete) →
// expect_tx(16) (tx 0): the phase completes. The mirror order (expect_tx,
// arrive, then complete_tx) also completes at the complete_tx."
func TestMeasured5_1_LateExpectTxCompletesPhase(t *testing.T) {
	tests := []struct {
		name   string
		script []scripted
	}{
		{"complete, arrive, expect", []scripted{
			{completeTx(16), false, NotCompleted},
			{arrive(1), false, NotCompleted},
			{expectTx(16), true, Bytes},
		}},
		{"expect, arrive, complete", []scripted{
			{expectTx(16), false, NotCompleted},
			{arrive(1), false, NotCompleted},
			{completeTx(16), true, Bytes},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 1)
			run(t, b, tc.script)
			wantState(t, b, st(1, 1, 1, 0))
		})
	}
}

// §5.6: "An arrive whose count exceeds the pending count (count 5 on a fresh
// init(3)), and a converged 32-lane arrive on an init(16) barrier, both ended
// the kernel with 'unspecified launch failure'." Apply has no mode: it is an
// error whatever mode the waits use.
func TestMeasured5_6_OverArrivalIsErrorInBothModes(t *testing.T) {
	tests := []struct {
		name  string
		init  uint32
		count uint32
	}{
		{"count 5 on init(3)", 3, 5},
		{"converged warp on init(16)", 16, 32},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, tc.init)
			wantCode(t, b, arrive(tc.count), OverArrival)
		})
	}
}

// §5.7: "On a freshly initialised barrier, test_wait/try_wait with parity 1
// return true at once and parity 0 returns false."
func TestMeasured5_7_FreshBarrierParity(t *testing.T) {
	for _, m := range []Mode{Strict, Faithful} {
		t.Run(m.String(), func(t *testing.T) {
			b := newBarrier(t, 3)
			for p, want := range []bool{false, true} {
				if got, err := b.TestParity(uint32(p), m); err != nil || got != want {
					t.Errorf("parity %d: got %t, %v; want %t, nil", p, got, err, want)
				}
			}
		})
	}
}

// §5.8: "init(3), arrive.noComplete(2) → pending_count(token) = 3; init(5),
// arrive.noComplete(1) → 5, a second one → 4."
func TestMeasured5_8_PendingCountReadsCountBeforeArrive(t *testing.T) {
	tests := []struct {
		name   string
		init   uint32
		counts []uint32
		want   []uint32
	}{
		{"init(3) noComplete(2)", 3, []uint32{2}, []uint32{3}},
		{"init(5) noComplete(1) twice", 5, []uint32{1, 1}, []uint32{5, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, tc.init)
			for i, n := range tc.counts {
				got, err := PendingCount(mustApply(t, b, arriveNC(n)).Token)
				if err != nil || got != tc.want[i] {
					t.Errorf("arrive %d: got %d, %v; want %d, nil", i+1, got, err, tc.want[i])
				}
			}
		})
	}
}

// §5.9: "With phases 0 and 1 complete (phase 2 open), test_wait parity 0 →
// false, parity 1 → true, and test_wait with the token returned in phase 0 →
// false: the hardware compares parity only."
func TestMeasured5_9_ParityAliasesAfterTwoPhases(t *testing.T) {
	b := newBarrier(t, 1)
	tok := mustApply(t, b, arrive(1)).Token
	mustApply(t, b, arrive(1))
	wantParity(t, b, 0, false)
	wantParity(t, b, 1, true)
	wantToken(t, b, tok, Faithful, false)
	_, err := b.TestToken(tok, Strict)
	checkCode(t, err, StaleWait)
}

// §5.10: "32 lanes each doing arrive.expect_tx(16) on init(32): not complete
// after 16 bytes, complete after 512."
func TestMeasured5_10_WarpExpectTxAddsUp(t *testing.T) {
	b := newBarrier(t, 32)
	run(t, b, []scripted{
		{Update{Kind: Arrive, Count: 32, Tx: 32 * 16, Lanes: 32}, false, NotCompleted},
		{completeTx(16), false, NotCompleted},
		{completeTx(512 - 16), true, Bytes},
	})
}
