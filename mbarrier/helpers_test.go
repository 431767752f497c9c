package mbarrier

import (
	"errors"
	"testing"
)

// Short constructors for updates, named after the PTX forms.
func arrive(n uint32) Update       { return Update{Kind: Arrive, Count: n, Lanes: int(n)} }
func arriveTx(n, tx uint32) Update { return Update{Kind: Arrive, Count: n, Tx: tx, Lanes: int(n)} }
func arriveNC(n uint32) Update     { return Update{Kind: Arrive, Count: n, NoComplete: true, Lanes: 1} }
func drop(n uint32) Update         { return Update{Kind: ArriveDrop, Count: n, Lanes: int(n)} }
func dropNC(n uint32) Update       { return Update{Kind: ArriveDrop, Count: n, NoComplete: true, Lanes: 1} }
func expectTx(tx uint32) Update    { return Update{Kind: ExpectTx, Tx: tx} }
func completeTx(tx uint32) Update  { return Update{Kind: CompleteTx, Tx: tx} }
func asyncInc(n uint32) Update     { return Update{Kind: AsyncArriveInc, Count: n, Lanes: int(n)} }
func st(ph uint64, p, e, tx int32) State {
	return State{Valid: true, Phase: ph, Pending: p, Expected: e, Tx: tx}
}

// newBarrier returns a barrier initialised with count, failing the test otherwise.
func newBarrier(t *testing.T, count uint32) *Barrier {
	t.Helper()
	var b Barrier
	if err := b.Init(count); err != nil {
		t.Fatalf("Init(%d): got error %v, want nil", count, err)
	}
	return &b
}

// mustApply applies u and fails the test on an error.
func mustApply(t *testing.T, b *Barrier, u Update) Result {
	t.Helper()
	r, err := b.Apply(u)
	if err != nil {
		t.Fatalf("Apply(%s count %d tx %d): got error %v, want nil", u.op(), u.Count, u.Tx, err)
	}
	return r
}

// wantCode applies u, wants an *Error with code c, and checks that the barrier
// did not change.
func wantCode(t *testing.T, b *Barrier, u Update, c Code) *Error {
	t.Helper()
	before := *b
	_, err := b.Apply(u)
	if *b != before {
		t.Errorf("Apply(%s) with error changed the barrier: got %+v, want %+v", u.op(), b.State(), before.State())
	}
	return checkCode(t, err, c)
}

// checkCode wants err to be an *Error with code c.
func checkCode(t *testing.T, err error, c Code) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got error %v, want *Error with code %v", err, c)
	}
	if e.Code != c {
		t.Fatalf("got code %v (%v), want %v", e.Code, e, c)
	}
	return e
}

func wantState(t *testing.T, b *Barrier, want State) {
	t.Helper()
	if got := b.State(); got != want {
		t.Errorf("state: got %+v, want %+v", got, want)
	}
}

func wantCompleted(t *testing.T, r Result, want bool) {
	t.Helper()
	if r.Completed != want {
		t.Errorf("Completed: got %t, want %t (result %+v)", r.Completed, want, r)
	}
}

func wantParity(t *testing.T, b *Barrier, p uint32, want bool) {
	t.Helper()
	got, err := b.TestParity(p, Strict)
	if err != nil || got != want {
		t.Errorf("TestParity(%d): got %t, %v; want %t, nil", p, got, err, want)
	}
}

func wantToken(t *testing.T, b *Barrier, tok Token, m Mode, want bool) {
	t.Helper()
	got, err := b.TestToken(tok, m)
	if err != nil || got != want {
		t.Errorf("TestToken(phase %d, %v) at phase %d: got %t, %v; want %t, nil", tok.Phase(), m, b.phase, got, err, want)
	}
}

func warningCodes(r Result) []WarningCode {
	var c []WarningCode
	for _, w := range r.Warnings {
		c = append(c, w.Code)
	}
	return c
}
