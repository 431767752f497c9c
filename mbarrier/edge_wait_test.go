package mbarrier

import "testing"

// Edge cases D28-D36 and E37-E41 of mbarrier-semantics.md §4 (waiting, SIMT),
// as far as the barrier can see them. D31 (wake latency), D33-D35 (parity ABA
// across warps, wrong parity bookkeeping, acquire visibility), E39 (lanes on
// two barriers) and E42 (divergent waits) are owned by packages sm and warp;
// the barrier-level half of D33 is D32's faithful case.

// §4 D28: "test_wait(tokenOfCurrentPhase) → false, never blocks; after
// completion → true."
func TestEdge28_TestWaitTokenFalseUntilComplete(t *testing.T) {
	for _, m := range []Mode{Strict, Faithful} {
		t.Run(m.String(), func(t *testing.T) {
			b := newBarrier(t, 2)
			tok := mustApply(t, b, arrive(1)).Token
			wantToken(t, b, tok, m, false)
			mustApply(t, b, arrive(1))
			wantToken(t, b, tok, m, true)
		})
	}
}

// §4 D29: "try_wait_parity(1) on a fresh barrier → true immediately;
// try_wait_parity(0) → false until phase 0 completes."
func TestEdge29_FreshBarrierParityOneTrue(t *testing.T) {
	b := newBarrier(t, 1)
	wantParity(t, b, 1, true)
	wantParity(t, b, 0, false)
	mustApply(t, b, arrive(1))
	wantParity(t, b, 0, true)
	wantParity(t, b, 1, false)
}

// §4 D30: "try_wait on a phase that never completes → returns false ...; the
// same warp can then arrive (no simulator deadlock)." The barrier part: a
// false wait changes nothing, and the later arrive completes the phase.
func TestEdge30_FalseWaitLeavesStateSoSameWarpCanArrive(t *testing.T) {
	b := newBarrier(t, 1)
	before := *b
	wantParity(t, b, 0, false)
	if *b != before {
		t.Errorf("false wait changed the barrier: got %+v, want %+v", b.State(), before.State())
	}
	wantCompleted(t, mustApply(t, b, arrive(1)), true)
	wantParity(t, b, 0, true)
}

// §4 D32: "Stale token (two phases old): strict mode → UB diagnostic; faithful
// mode → returns false (parity alias) and the waiter may hang."
func TestEdge32_StaleTokenStrictErrorFaithfulFalse(t *testing.T) {
	b := newBarrier(t, 1)
	tok := mustApply(t, b, arrive(1)).Token // phase 0
	mustApply(t, b, arrive(1))              // phase 1 completes, phase 2 open
	before := *b
	_, err := b.TestToken(tok, Strict)
	e := checkCode(t, err, StaleWait)
	if e.Catalogue != 8 {
		t.Errorf("Catalogue: got %d, want 8", e.Catalogue)
	}
	if *b != before {
		t.Errorf("stale wait changed the barrier")
	}
	wantToken(t, b, tok, Faithful, false)

	three := newBarrier(t, 1)
	for range 3 {
		mustApply(t, three, arrive(1))
	}
	newer := mustApply(t, three, arrive(1)).Token // phase 3, newer than b's phase 2
	_, err = b.TestToken(newer, Strict)
	checkCode(t, err, StaleWait)
	wantToken(t, b, newer, Faithful, true) // parity 1 != parity 0: hardware answers "complete"
}

// §4 D36: "Any wait on an invalidated barrier → UB diagnostic."
func TestEdge36_WaitOnInvalidatedBarrierIsError(t *testing.T) {
	b := newBarrier(t, 1)
	tok := mustApply(t, b, arrive(1)).Token
	if err := b.Inval(); err != nil {
		t.Fatalf("Inval: got %v, want nil", err)
	}
	for _, m := range []Mode{Strict, Faithful} {
		_, err := b.TestToken(tok, m)
		checkCode(t, err, Uninitialized)
		_, err = b.TestParity(0, m)
		checkCode(t, err, Uninitialized)
	}
}

// §4 E37: "Converged 32-lane arrive on init(32) → one atomic update, completes,
// all lanes get the same token; SYNCS transaction count 1."
func TestEdge37_ConvergedWarpArriveIsOneUpdate(t *testing.T) {
	b := newBarrier(t, 32)
	r := mustApply(t, b, arrive(32))
	wantCompleted(t, r, true)
	if r.Token.Phase() != 0 {
		t.Errorf("token phase: got %d, want 0", r.Token.Phase())
	}
	if r.Stats.Updates != 1 || r.Stats.Arrivals != 32 || r.Stats.Lanes != 32 {
		t.Errorf("stats: got %+v, want 1 update, 32 arrivals, 32 lanes", r.Stats)
	}
}

// §4 E38: "Same warp split by a branch into two 16-lane paths, both arrive →
// two updates; completes on the second; both paths' tokens refer to phase 0;
// SYNCS transactions 2."
func TestEdge38_SplitWarpArrivesAsTwoUpdates(t *testing.T) {
	b := newBarrier(t, 32)
	r1 := mustApply(t, b, arrive(16))
	r2 := mustApply(t, b, arrive(16))
	wantCompleted(t, r1, false)
	wantCompleted(t, r2, true)
	if r1.Token.Phase() != 0 || r2.Token.Phase() != 0 {
		t.Errorf("token phases: got %d and %d, want 0 and 0", r1.Token.Phase(), r2.Token.Phase())
	}
	if r2.Stats.Updates != 2 || r2.Stats.Arrivals != 32 {
		t.Errorf("stats: got %+v, want 2 updates, 32 arrivals", r2.Stats)
	}
}

// §4 E40: "elect.sync leader does arrive.expect_tx, the other 31 lanes arrive,
// barrier init(32) → correct completion only after the bytes land." The two
// PTX ops are two issues, hence two updates, in either order.
func TestEdge40_LeaderExpectTxOthersArriveCompletesAfterBytes(t *testing.T) {
	leader := arriveTx(1, 4096)
	others := Update{Kind: Arrive, Count: 31, Lanes: 31}
	for _, tc := range []struct {
		name  string
		order []Update
	}{
		{"leader first", []Update{leader, others}},
		{"others first", []Update{others, leader}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 32)
			run(t, b, []scripted{
				{tc.order[0], false, NotCompleted},
				{tc.order[1], false, NotCompleted},
				{completeTx(4096), true, Bytes},
			})
		})
	}
}

// §4 E41: "Aggregated decrement larger than Pending (e.g. 32 lanes arrive on
// init(16)) → UB diagnostic (over-arrival), never silently split across phases."
func TestEdge41_AggregatedOverArrivalIsError(t *testing.T) {
	b := newBarrier(t, 16)
	e := wantCode(t, b, arrive(32), OverArrival)
	const want = "over-arrival: arrive count 32 exceeds pending 16 (phase 0, expected 16)"
	if e.Msg != want {
		t.Errorf("message: got %q, want %q", e.Msg, want)
	}
	wantState(t, b, st(0, 16, 16, 0))
}
