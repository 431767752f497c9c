package mbarrier

import "testing"

// Bounds of the exhaustive walk: every state with expected <= 4, |tx| <= 8,
// pending <= 5 (the cp.async increment can lift pending above expected) and
// phases 0..3 (enough for both parities and the two-phase token window).
const (
	walkMaxCount = 4
	walkMaxTx    = 8
	walkMaxPend  = 5
	walkMaxPhase = 3
)

// walkOps is every operation of the walk: arrive and arrive_drop with counts
// 0..5 (0 and 5 exercise the count and over-arrival errors), with and without
// .noComplete, with expect bytes 0..8; expect_tx and complete_tx of 0..8
// bytes; the cp.async increment.
func walkOps() []Update {
	var ops []Update
	for n := uint32(0); n <= walkMaxCount+1; n++ {
		for _, k := range []Kind{Arrive, ArriveDrop} {
			for _, nc := range []bool{false, true} {
				for tx := uint32(0); tx <= walkMaxTx; tx++ {
					ops = append(ops, Update{Kind: k, Count: n, Tx: tx, NoComplete: nc, Lanes: int(n)})
				}
			}
		}
	}
	for tx := uint32(0); tx <= walkMaxTx; tx++ {
		ops = append(ops, expectTx(tx), completeTx(tx))
	}
	return append(ops, asyncInc(1))
}

func inWalkBounds(s State) bool {
	return s.Phase <= walkMaxPhase && s.Pending <= walkMaxPend && s.Tx >= -walkMaxTx && s.Tx <= walkMaxTx
}

// TestExhaustiveWalk runs a breadth-first search over the barrier states
// reachable from init(1..4) and checks every transition's invariants.
func TestExhaustiveWalk(t *testing.T) {
	seen := map[State]bool{}
	var queue []Barrier
	for n := uint32(1); n <= walkMaxCount; n++ {
		queue = append(queue, *newBarrier(t, n))
		seen[queue[len(queue)-1].State()] = true
	}
	ops, transitions := walkOps(), 0
	for len(queue) > 0 {
		from := queue[0]
		queue = queue[1:]
		for _, u := range ops {
			b := from
			r, err := b.Apply(u)
			transitions++
			checkTransition(t, from, b, u, r, err)
			if s := b.State(); err == nil && inWalkBounds(s) && !seen[s] {
				seen[s] = true
				queue = append(queue, b)
			}
		}
	}
	checkCoverage(t, seen)
	t.Logf("%d states, %d transitions", len(seen), transitions)
}

// mid is the state an update reaches before its completion check, and whether
// the update is legal, computed from the operation table (§1.4) and the UB
// catalogue (§1.9) independently of the package.
type mid struct {
	pending, expected, tx int32
	legal                 bool
}

func expectMid(f State, u Update) mid {
	m := mid{pending: f.Pending, expected: f.Expected, tx: f.Tx, legal: true}
	switch u.Kind {
	case Arrive, ArriveDrop:
		m.tx += int32(u.Tx)
		if u.Kind == ArriveDrop {
			m.expected -= int32(u.Count)
		}
		m.pending -= int32(u.Count)
		m.legal = u.Count >= 1 && m.pending >= 0 && m.expected >= 1 && !(u.NoComplete && m.pending == 0 && m.tx == 0)
	case ExpectTx:
		m.tx += int32(u.Tx)
	case CompleteTx:
		m.tx -= int32(u.Tx)
	case AsyncArriveInc:
		m.pending += int32(u.Count)
	}
	m.legal = m.legal && m.tx >= -MaxCount && m.tx <= MaxCount
	return m
}

// checkTransition checks one Apply from state `from` that produced `to`.
func checkTransition(t *testing.T, from, to Barrier, u Update, r Result, err error) {
	t.Helper()
	f, s, m := from.State(), to.State(), expectMid(from.State(), u)
	if (err == nil) != m.legal || (err != nil && to != from) {
		t.Fatalf("%+v %s(%d,%d): got error %v and state %+v, want legal %t and errors to change nothing",
			f, u.op(), u.Count, u.Tx, err, s, m.legal)
	}
	if err != nil {
		return
	}
	if s.Pending < 0 || s.Pending > MaxCount || s.Expected < 1 || s.Tx < -MaxCount || s.Tx > MaxCount {
		t.Fatalf("%+v %s(%d,%d): got out-of-range state %+v", f, u.op(), u.Count, u.Tx, s)
	}
	flips := m.pending == 0 && m.tx == 0
	if r.Completed != flips || s.Phase != f.Phase+boolToUint(flips) {
		t.Fatalf("%+v %s(%d,%d): got %+v completed %t, want phase flip %t", f, u.op(), u.Count, u.Tx, s, r.Completed, flips)
	}
	want := State{Valid: true, Phase: s.Phase, Pending: m.pending, Expected: m.expected, Tx: m.tx}
	if flips {
		want.Pending = m.expected // reloaded; tx is 0 already
	}
	if s != want {
		t.Fatalf("%+v %s(%d,%d): got %+v, want %+v", f, u.op(), u.Count, u.Tx, s, want)
	}
	if u.Kind.arrives() && (r.Token.Phase() != f.Phase || r.Phase != f.Phase) {
		t.Fatalf("%+v %s: token phase %d, result phase %d, want %d", f, u.op(), r.Token.Phase(), r.Phase, f.Phase)
	}
}

// checkCoverage makes sure the walk reached the interesting corners.
func checkCoverage(t *testing.T, seen map[State]bool) {
	t.Helper()
	var negTx, posTxPendZero, overExpected bool
	phases := map[uint64]bool{}
	for s := range seen {
		phases[s.Phase] = true
		negTx = negTx || s.Tx < 0
		posTxPendZero = posTxPendZero || (s.Pending == 0 && s.Tx > 0)
		overExpected = overExpected || s.Pending > s.Expected
	}
	if len(phases) != walkMaxPhase+1 || !negTx || !posTxPendZero || !overExpected || len(seen) < 1000 {
		t.Errorf("coverage: got %d states, phases %v, negative tx %t, bytes-only wait %t, pending > expected %t; want all",
			len(seen), phases, negTx, posTxPendZero, overExpected)
	}
}

func boolToUint(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
