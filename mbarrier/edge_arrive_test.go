package mbarrier

import (
	"slices"
	"strings"
	"testing"
)

// Edge cases A1-A3 and B7-B14 of mbarrier-semantics.md §4 (lifecycle, arrivals
// and phases). A4-A6, B15 and B16 need addresses, memory or a deadlock
// detector and are owned by package sm.

// §4 A1: "init(count=0) or init(2^20) → UB diagnostic."
func TestEdge01_InitCountOutOfRangeIsError(t *testing.T) {
	tests := []struct {
		name  string
		count uint32
		ok    bool
	}{
		{"count 0 is rejected", 0, false},
		{"count 2^20 is rejected", MaxCount + 1, false},
		{"count 1 is accepted", 1, true},
		{"count 2^20-1 is accepted", MaxCount, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b Barrier
			err := b.Init(tc.count)
			if tc.ok {
				if err != nil {
					t.Fatalf("Init(%d): got %v, want nil", tc.count, err)
				}
				wantState(t, &b, st(0, int32(tc.count), int32(tc.count), 0))
				return
			}
			checkCode(t, err, BadCount)
			wantState(t, &b, State{})
		})
	}
}

// §4 A2: "init twice at the same address without inval → UB diagnostic. After
// inval, re-init works and starts at phase 0 with new count."
func TestEdge02_DoubleInitIsErrorReinitAfterInvalStartsOver(t *testing.T) {
	b := newBarrier(t, 2)
	mustApply(t, b, arrive(2))
	before := *b
	checkCode(t, b.Init(5), DoubleInit)
	if *b != before {
		t.Errorf("failed Init changed the barrier: got %+v, want %+v", b.State(), before.State())
	}
	if err := b.Inval(); err != nil {
		t.Fatalf("Inval: got %v, want nil", err)
	}
	if err := b.Init(5); err != nil {
		t.Fatalf("Init after Inval: got %v, want nil", err)
	}
	wantState(t, b, st(0, 5, 5, 0))
}

// §4 A3: "arrive/try_wait on never-initialised memory → UB diagnostic."
func TestEdge03_UseOfUninitializedBarrierIsError(t *testing.T) {
	ops := []struct {
		name string
		do   func(b *Barrier) error
	}{
		{"arrive", func(b *Barrier) error { _, err := b.Apply(arrive(1)); return err }},
		{"arrive_drop", func(b *Barrier) error { _, err := b.Apply(drop(1)); return err }},
		{"expect_tx", func(b *Barrier) error { _, err := b.Apply(expectTx(16)); return err }},
		{"complete_tx", func(b *Barrier) error { _, err := b.Apply(completeTx(16)); return err }},
		{"cp.async arrive increment", func(b *Barrier) error { _, err := b.Apply(asyncInc(1)); return err }},
		{"test_wait token strict", func(b *Barrier) error { _, err := b.TestToken(0, Strict); return err }},
		{"try_wait token faithful", func(b *Barrier) error { _, err := b.TestToken(0, Faithful); return err }},
		{"try_wait parity", func(b *Barrier) error { _, err := b.TestParity(1, Faithful); return err }},
		{"inval", func(b *Barrier) error { return b.Inval() }},
	}
	for _, op := range ops {
		t.Run(op.name+" on never-initialised memory", func(t *testing.T) {
			var b Barrier
			checkCode(t, op.do(&b), Uninitialized)
			if b != (Barrier{}) {
				t.Errorf("got changed barrier %+v, want zero value", b.State())
			}
		})
	}
}

// §4 B7: "init(3), three single arrivals → completes exactly at the 3rd;
// Phase=1, Pending=3, parity 1; tokens from phase 0 now test true."
func TestEdge07_InitThreeCompletesOnThirdArrival(t *testing.T) {
	b := newBarrier(t, 3)
	var toks []Token
	for i, want := range []bool{false, false, true} {
		r := mustApply(t, b, arrive(1))
		if r.Completed != want {
			t.Fatalf("arrival %d: Completed got %t, want %t", i+1, r.Completed, want)
		}
		toks = append(toks, r.Token)
	}
	wantState(t, b, st(1, 3, 3, 0))
	wantParity(t, b, 0, true)
	wantParity(t, b, 1, false)
	for _, tok := range toks {
		wantToken(t, b, tok, Strict, true)
	}
}

// §4 B8: "arrive(count=3) on init(3) (sm_90) → immediate completion."
func TestEdge08_ArriveCountThreeCompletesAtOnce(t *testing.T) {
	b := newBarrier(t, 3)
	r := mustApply(t, b, arrive(3))
	wantCompleted(t, r, true)
	if r.CompletedBy != Arrivals {
		t.Errorf("CompletedBy: got %v, want arrivals", r.CompletedBy)
	}
	wantState(t, b, st(1, 3, 3, 0))
}

// §4 B9: "arrive.noComplete(count=3) on init(3) → UB diagnostic;
// arrive.noComplete(2) then pending_count(token) → 3."
func TestEdge09_NoCompleteThatWouldCompleteIsError(t *testing.T) {
	b := newBarrier(t, 3)
	e := wantCode(t, b, arriveNC(3), NoCompleteWouldComplete)
	if e.Catalogue != 6 {
		t.Errorf("Catalogue: got %d, want 6", e.Catalogue)
	}
	r := mustApply(t, b, arriveNC(2))
	if n, err := PendingCount(r.Token); err != nil || n != 3 {
		t.Errorf("PendingCount: got %d, %v; want 3, nil", n, err)
	}
	wantState(t, b, st(0, 1, 3, 0))
	wantCode(t, b, dropNC(1), NoCompleteWouldComplete)
}

// §4 B10: "Over-arrival: init(1) with arrive.expect_tx(B) outstanding bytes,
// then a second arrive → UB diagnostic (Pending already 0)."
func TestEdge10_ArriveWithPendingZeroIsOverArrival(t *testing.T) {
	b := newBarrier(t, 1)
	mustApply(t, b, arriveTx(1, 64))
	e := wantCode(t, b, arrive(1), OverArrival)
	if want := "pending 0"; !strings.Contains(e.Msg, want) {
		t.Errorf("message %q: want it to contain %q", e.Msg, want)
	}
	wantState(t, b, st(0, 0, 1, 64))
}

// §4 B11: "Arrival for phase k+1 before any successful wait of phase k → lint
// warning only."
func TestEdge11_ArriveBeforeWaitOnPreviousPhaseWarns(t *testing.T) {
	tests := []struct {
		name string
		wait func(b *Barrier, tok Token)
		want []WarningCode
	}{
		{"no wait on phase 0 warns", func(*Barrier, Token) {}, []WarningCode{EarlyArrive}},
		{"true parity wait silences", func(b *Barrier, _ Token) { _, _ = b.TestParity(0, Strict) }, nil},
		{"true token wait silences", func(b *Barrier, tok Token) { _, _ = b.TestToken(tok, Strict) }, nil},
		{"false parity wait still warns", func(b *Barrier, _ Token) { _, _ = b.TestParity(1, Strict) }, []WarningCode{EarlyArrive}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 2)
			if r := mustApply(t, b, arrive(1)); r.Warnings != nil {
				t.Fatalf("phase 0 arrive: got warnings %v, want none", r.Warnings)
			}
			tok := mustApply(t, b, arrive(1)).Token
			tc.wait(b, tok)
			if got := warningCodes(mustApply(t, b, arrive(1))); !slices.Equal(got, tc.want) {
				t.Errorf("phase 1 first arrive: got warnings %v, want %v", got, tc.want)
			}
			if r := mustApply(t, b, arrive(1)); r.Warnings != nil {
				t.Errorf("phase 1 second arrive: got warnings %v, want none (once per phase)", r.Warnings)
			}
			wantState(t, b, st(2, 2, 2, 0))
		})
	}
}

// §4 B12: "arrive_drop by 1 of 4 threads in phase 0 → phase 0 completes after
// the other 3 arrive; phase 1 needs 3." (§3.4 trace: E 4→3, P 4→3.)
func TestEdge12_DropByOneOfFourShrinksNextPhase(t *testing.T) {
	b := newBarrier(t, 4)
	mustApply(t, b, drop(1))
	wantState(t, b, st(0, 3, 3, 0))
	for i, want := range []bool{false, false, true} {
		if r := mustApply(t, b, arrive(1)); r.Completed != want {
			t.Fatalf("arrival %d: Completed got %t, want %t", i+1, r.Completed, want)
		}
	}
	wantState(t, b, st(1, 3, 3, 0))
}

// §4 B13: "arrive_drop that is itself the completing arrival → the reloaded
// Pending is already the reduced Expected."
func TestEdge13_CompletingDropReloadsReducedExpected(t *testing.T) {
	b := newBarrier(t, 4)
	mustApply(t, b, arrive(2))
	r := mustApply(t, b, drop(2))
	wantCompleted(t, r, true)
	wantState(t, b, st(1, 2, 2, 0))
}

// §4 B14: "All participants arrive_drop → Expected would reach 0 → UB diagnostic (D)."
func TestEdge14_DroppingExpectedToZeroIsError(t *testing.T) {
	tests := []struct {
		name   string
		before []Update
		last   Update
	}{
		{"four single drops on init(4)", []Update{drop(1), drop(1), drop(1)}, drop(1)},
		{"one drop of all four on init(4)", nil, drop(4)},
		{"drop of five on init(4)", nil, drop(5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 4)
			for _, u := range tc.before {
				mustApply(t, b, u)
			}
			wantCode(t, b, tc.last, ExpectedBelowOne)
		})
	}
}
