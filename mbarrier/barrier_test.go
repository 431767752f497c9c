package mbarrier

import (
	"errors"
	"strings"
	"testing"
)

// TestApplyTable lists starting count, operations, final state and the phase
// flips they must cause (house style item 10).
func TestApplyTable(t *testing.T) {
	tests := []struct {
		name  string
		init  uint32
		ops   []Update
		want  State
		flips int
	}{
		{"arrive on last pending flips phase", 1, []Update{arrive(1)}, st(1, 1, 1, 0), 1},
		{"partial arrivals keep phase open", 4, []Update{arrive(1), arrive(2)}, st(0, 1, 4, 0), 0},
		{"tma completion before expect_tx is legal", 1, []Update{completeTx(64), arriveTx(1, 64)}, st(1, 1, 1, 0), 1},
		{"tma handshake completes by bytes", 1, []Update{arriveTx(1, 64), completeTx(64)}, st(1, 1, 1, 0), 1},
		{"three phases in a row", 2, []Update{arrive(2), arrive(1), arrive(1), arrive(2)}, st(3, 2, 2, 0), 3},
		{"drop shrinks every later phase", 3, []Update{drop(1), arrive(2), arrive(2)}, st(2, 2, 2, 0), 2},
		{"async increment is net zero", 1, []Update{asyncInc(1), arrive(1), arrive(1)}, st(1, 1, 1, 0), 1},
		{"expect_tx zero is a no-op", 2, []Update{expectTx(0), arrive(1)}, st(0, 1, 2, 0), 0},
		{"noComplete leaves the last arrival to others", 3, []Update{arriveNC(2), arrive(1)}, st(1, 3, 3, 0), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, tc.init)
			flips := 0
			for _, u := range tc.ops {
				if mustApply(t, b, u).Completed {
					flips++
				}
			}
			wantState(t, b, tc.want)
			if flips != tc.flips {
				t.Errorf("phase flips: got %d, want %d", flips, tc.flips)
			}
		})
	}
}

// §1.9 #11: the cp.async.mbarrier.arrive increment may not push pending above 2^20-1.
func TestCatalogue11_AsyncArriveIncrementOverflowIsError(t *testing.T) {
	b := newBarrier(t, MaxCount)
	wantCode(t, b, asyncInc(1), PendingOverflow)
	mustApply(t, b, arrive(1))
	mustApply(t, b, asyncInc(1))
	wantState(t, b, st(0, MaxCount, MaxCount, 0))
}

// §1.9 #12: pending_count only decodes tokens of a .noComplete arrive or arrive_drop.
func TestCatalogue12_PendingCountNeedsNoCompleteToken(t *testing.T) {
	b := newBarrier(t, 8)
	plain := mustApply(t, b, arrive(1)).Token
	_, err := PendingCount(plain)
	checkCode(t, err, BadPendingCountToken)
	nc := mustApply(t, b, dropNC(2)).Token
	if n, err := PendingCount(nc); err != nil || n != 7 {
		t.Errorf("PendingCount(arrive_drop.noComplete): got %d, %v; want 7, nil", n, err)
	}
	wantState(t, b, st(0, 5, 6, 0))
}

// §1.9 #4 for arrivals, and malformed Update values (caller bugs).
func TestMalformedUpdatesAreErrors(t *testing.T) {
	tests := []struct {
		name string
		u    Update
		want Code
	}{
		{"arrive count 0", arrive(0), BadCount},
		{"arrive count 2^20", arrive(MaxCount + 1), BadCount},
		{"arrive_drop count 0", drop(0), BadCount},
		{"async increment count 0", asyncInc(0), BadCount},
		{"expect_tx with a count", Update{Kind: ExpectTx, Count: 1}, BadUpdate},
		{"complete_tx with noComplete", Update{Kind: CompleteTx, NoComplete: true}, BadUpdate},
		{"async increment with tx", Update{Kind: AsyncArriveInc, Count: 1, Tx: 4}, BadUpdate},
		{"negative lanes", Update{Kind: Arrive, Count: 1, Lanes: -1}, BadUpdate},
		{"unknown kind", Update{Kind: Kind(99), Count: 1}, BadUpdate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			wantCode(t, newBarrier(t, 4), tc.u, tc.want)
		})
	}
}

func TestStrictParityOperandMustBeZeroOrOne(t *testing.T) {
	b := newBarrier(t, 1)
	_, err := b.TestParity(2, Strict)
	checkCode(t, err, BadParity)
	if got, err := b.TestParity(3, Faithful); err != nil || !got {
		t.Errorf("faithful parity 3 on phase 0: got %t, %v; want true (low bit 1), nil", got, err)
	}
}

func TestErrorWorksWithErrorsAsAndIs(t *testing.T) {
	b := newBarrier(t, 3)
	_, err := b.Apply(arrive(5))
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("errors.As: got false for %v, want true", err)
	}
	if !errors.Is(err, &Error{Code: OverArrival}) || errors.Is(err, &Error{Code: TxRange}) {
		t.Errorf("errors.Is: want a match on OverArrival only")
	}
	const want = "mbarrier: over-arrival: arrive count 5 exceeds pending 3 (phase 0, expected 3) [UB #5]"
	if err.Error() != want {
		t.Errorf("Error(): got %q, want %q", err.Error(), want)
	}
	if e.Catalogue != 5 {
		t.Errorf("Catalogue: got %d, want 5", e.Catalogue)
	}
}

// Every Code has a distinct name, and the catalogue rows are the ones of §1.9.
func TestCodeNamesAndCatalogueRows(t *testing.T) {
	rows := map[Code]int{Uninitialized: 1, DoubleInit: 2, BadCount: 4, OverArrival: 5, NoCompleteWouldComplete: 6,
		StaleWait: 8, TxRange: 9, ExpectedBelowOne: 10, PendingOverflow: 11, BadPendingCountToken: 12, BadParity: 0, BadUpdate: 0}
	seen := map[string]bool{}
	for c, row := range rows {
		if c.Catalogue() != row {
			t.Errorf("%v.Catalogue(): got %d, want %d", c, c.Catalogue(), row)
		}
		if s := c.String(); seen[s] || strings.HasPrefix(s, "Code(") {
			t.Errorf("code %d: got name %q, want a distinct name", uint8(c), s)
		}
		seen[c.String()] = true
	}
}

func TestStringers(t *testing.T) {
	tests := []struct{ got, want string }{
		{Arrive.String(), "arrive"}, {ArriveDrop.String(), "arrive_drop"}, {ExpectTx.String(), "expect_tx"},
		{CompleteTx.String(), "complete_tx"}, {AsyncArriveInc.String(), "cp.async.mbarrier.arrive"}, {Kind(9).String(), "Kind(9)"},
		{Arrivals.String(), "arrivals"}, {Bytes.String(), "bytes"}, {NotCompleted.String(), "none"}, {Cause(7).String(), "Cause(7)"},
		{Strict.String(), "strict"}, {Faithful.String(), "faithful"}, {Mode(5).String(), "Mode(5)"},
		{EarlyArrive.String(), "early arrive"}, {TxAfterCompletion.String(), "tx after completion"},
		{ExpectAfterLastArrival.String(), "expect after last arrival"}, {WarningCode(0).String(), "WarningCode(0)"},
		{Code(0).String(), "Code(0)"}, {arriveTx(1, 8).op(), "arrive.expect_tx"}, {dropNC(1).op(), "arrive_drop.noComplete"},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The token layout documented on Token: phase bits 0..39, pending-before bits 40..59, noComplete bit 60.
func TestTokenLayout(t *testing.T) {
	tok := makeToken(1<<40+5, 1234, true)
	if tok.Phase() != 5 {
		t.Errorf("Phase(): got %d, want 5 (phase modulo 2^40)", tok.Phase())
	}
	if want := Token(5 | 1234<<40 | 1<<60); tok != want {
		t.Errorf("token: got %#x, want %#x", uint64(tok), uint64(want))
	}
	if n, err := PendingCount(makeToken(0, MaxCount, true)); err != nil || n != MaxCount {
		t.Errorf("PendingCount at the limit: got %d, %v; want %d, nil", n, err, MaxCount)
	}
}

func TestPhaseStatsOfFinishedPhase(t *testing.T) {
	b := newBarrier(t, 3)
	mustApply(t, b, Update{Kind: Arrive, Count: 2, Tx: 96, Lanes: 32})
	mustApply(t, b, completeTx(32))
	if got, want := b.PhaseStats(), (PhaseStats{Arrivals: 2, Lanes: 32, Updates: 1, TxExpected: 96, TxCompleted: 32}); got != want {
		t.Errorf("running stats: got %+v, want %+v", got, want)
	}
	mustApply(t, b, arrive(1))
	r := mustApply(t, b, completeTx(64))
	want := PhaseStats{Phase: 0, Arrivals: 3, Lanes: 33, Updates: 2, TxExpected: 96, TxCompleted: 96, CompletedBy: Bytes}
	if r.Stats != want {
		t.Errorf("finished stats: got %+v, want %+v", r.Stats, want)
	}
	if got := b.PhaseStats(); got != (PhaseStats{Phase: 1}) {
		t.Errorf("new phase stats: got %+v, want only Phase 1", got)
	}
}

// The common path (arrive.expect_tx, complete_tx, parity wait) must not allocate.
func TestApplyDoesNotAllocate(t *testing.T) {
	b := newBarrier(t, 1)
	allocs := testing.AllocsPerRun(1000, func() {
		_, _ = b.Apply(arriveTx(1, 1024))
		_, _ = b.Apply(completeTx(1024))
		_, _ = b.TestParity(uint32(b.phase&1)^1, Strict)
	})
	if allocs != 0 {
		t.Errorf("allocations per handshake: got %v, want 0", allocs)
	}
}

// A pipeline that waits on every phase before touching the next one, in both
// the CUTLASS order (expect, then copy) and the Programming Guide order (copy,
// then arrive.expect_tx), produces no warnings.
func TestWellOrderedPipelineHasNoWarnings(t *testing.T) {
	tests := []struct {
		name  string
		round []Update
	}{
		{"expect then copy", []Update{arriveTx(1, 256), completeTx(256)}},
		{"copy then arrive.expect_tx", []Update{completeTx(256), arriveTx(1, 256)}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := newBarrier(t, 1)
			for phase := uint32(0); phase < 4; phase++ {
				for _, u := range tc.round {
					if r := mustApply(t, b, u); r.Warnings != nil {
						t.Fatalf("phase %d %s: got warnings %v, want none", phase, u.op(), r.Warnings)
					}
				}
				wantParity(t, b, phase&1, true)
			}
		})
	}
}
