package mbarrier

import "fmt"

// Kind says which PTX operation an Update performs.
type Kind uint8

// The update kinds. The .expect_tx forms of arrive and arrive_drop are Arrive
// and ArriveDrop with a non-zero Update.Tx.
const (
	Arrive         Kind = iota // mbarrier.arrive{.expect_tx}{.noComplete} (PTX §9.7.13.15.13)
	ArriveDrop                 // mbarrier.arrive_drop{.expect_tx}{.noComplete} (PTX §9.7.13.15.14)
	ExpectTx                   // mbarrier.expect_tx (PTX §9.7.13.15.11)
	CompleteTx                 // mbarrier.complete_tx, and the implicit one of a bulk copy (PTX §9.7.13.15.12)
	AsyncArriveInc             // the immediate pending += 1 of cp.async.mbarrier.arrive without .noinc (PTX §9.7.13.15.15)
)

// String returns the PTX name of the operation.
func (k Kind) String() string {
	switch k {
	case Arrive:
		return "arrive"
	case ArriveDrop:
		return "arrive_drop"
	case ExpectTx:
		return "expect_tx"
	case CompleteTx:
		return "complete_tx"
	case AsyncArriveInc:
		return "cp.async.mbarrier.arrive"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

func (k Kind) arrives() bool { return k == Arrive || k == ArriveDrop }

// Cause says which counter reached zero last when a phase completed.
type Cause uint8

// The completion causes. NotCompleted is the zero value.
const (
	NotCompleted Cause = iota
	Arrivals           // the update's arrivals took pending to 0 (tx-count was or became 0)
	Bytes              // expect_tx/complete_tx took tx-count to 0 while pending was already 0
)

// String returns "arrivals", "bytes" or "none".
func (c Cause) String() string {
	switch c {
	case Arrivals:
		return "arrivals"
	case Bytes:
		return "bytes"
	case NotCompleted:
		return "none"
	}
	return fmt.Sprintf("Cause(%d)", uint8(c))
}

// Update is one atomic barrier update: what one warp-instruction issue does
// for the group of its active lanes that address this barrier. The caller sums
// counts and tx bytes over the lanes (§1.8); two divergent paths are two
// Updates.
type Update struct {
	Kind       Kind
	Count      uint32 // arrivals (Arrive, ArriveDrop) or increments (AsyncArriveInc), 1..MaxCount; 0 for tx kinds
	Tx         uint32 // bytes: added by arrive.expect_tx / expect_tx, subtracted by complete_tx
	NoComplete bool   // .noComplete: the update must not complete the phase (§1.9 #6)
	Lanes      int    // thread-arrivals aggregated into this update, for statistics only
}

// op names the PTX form of u for messages, e.g. "arrive_drop.expect_tx".
func (u Update) op() string {
	s := u.Kind.String()
	if u.Kind.arrives() && u.Tx != 0 {
		s += ".expect_tx"
	}
	if u.NoComplete {
		s += ".noComplete"
	}
	return s
}

// PhaseStats are the counters of one phase, for the report's per-phase table.
type PhaseStats struct {
	Phase       uint64 // phase the counters belong to
	Arrivals    uint64 // thread arrivals: sum of Count over arrive updates
	Lanes       uint64 // sum of Update.Lanes over arrive updates
	Updates     uint64 // arrive updates, i.e. SYNCS transactions that arrived
	TxExpected  uint64 // bytes added by expect_tx and arrive.expect_tx
	TxCompleted uint64 // bytes subtracted by complete_tx
	CompletedBy Cause  // set in Result.Stats of the completing update
}

// Result reports what one Apply did.
type Result struct {
	Token       Token      // arrive kinds: the phase before the update, pending before it, .noComplete; else 0
	Completed   bool       // this update completed the phase
	CompletedBy Cause      // which counter reached zero last; NotCompleted if !Completed
	Phase       uint64     // the phase that was open when the update was applied
	Stats       PhaseStats // the finished phase's counters when Completed, else zero
	Warnings    []Warning  // lint findings; nil when there are none (the common path allocates nothing)
}

// Apply performs one atomic update (PTX §9.7.13.15.5-7, §9.7.13.15.11-15). In
// the order the PTX ISA gives: tx-count += expect bytes (or -= complete bytes),
// then expected -= count for arrive_drop, then pending -= count (or += count
// for AsyncArriveInc), then ONE completion check: pending == 0 && tx-count == 0
// advances the phase and reloads pending from expected. expect_tx and
// complete_tx run the completion check too (measured on H200, §5.1).
//
// All preconditions are checked before anything changes, so an error leaves the
// barrier exactly as it was. Apply takes no Mode because each of its errors is
// an error in both modes: over-arrival traps on the H200 (§5.6), and for the
// other rows no hardware behaviour is known to emulate.
func (b *Barrier) Apply(u Update) (Result, error) {
	s, err := b.precondition(u)
	if err != nil {
		return Result{}, err
	}
	return b.action(u, s), nil
}

// step is the state an update leaves before its completion check.
type step struct{ tx, expected, pending int32 }

// precondition computes the update's effect without touching b, or the error.
func (b *Barrier) precondition(u Update) (step, error) {
	if !b.valid {
		return step{}, errUninit(u.op())
	}
	if err := u.validate(); err != nil {
		return step{}, err
	}
	tx, err := b.nextTx(u)
	if err != nil {
		return step{}, err
	}
	s := step{tx: tx, expected: b.expected, pending: b.pending}
	switch u.Kind {
	case AsyncArriveInc:
		return b.increment(u, s)
	case Arrive, ArriveDrop:
		return b.arrive(u, s)
	case ExpectTx, CompleteTx:
	}
	return s, nil
}

// validate rejects counts outside the ISA range and malformed Update values.
func (u Update) validate() error {
	switch u.Kind {
	case Arrive, ArriveDrop, AsyncArriveInc:
		if u.Count < 1 || u.Count > MaxCount {
			return newError(BadCount, "%s count %d outside 1..%d", u.op(), u.Count, MaxCount)
		}
	case ExpectTx, CompleteTx:
		if u.Count != 0 || u.NoComplete {
			return newError(BadUpdate, "%s takes no arrival count and no .noComplete (got count %d, noComplete %t)",
				u.Kind, u.Count, u.NoComplete)
		}
	default:
		return newError(BadUpdate, "unknown update kind %d", uint8(u.Kind))
	}
	if u.Kind == AsyncArriveInc && (u.Tx != 0 || u.NoComplete) {
		return newError(BadUpdate, "%s takes no tx bytes and no .noComplete (got tx %d, noComplete %t)",
			u.Kind, u.Tx, u.NoComplete)
	}
	if u.Lanes < 0 {
		return newError(BadUpdate, "%s with negative lane count %d", u.op(), u.Lanes)
	}
	return nil
}

// nextTx is the tx-count after the update's expect or complete step (§1.9 #9).
func (b *Barrier) nextTx(u Update) (int32, error) {
	v := int64(b.tx)
	switch u.Kind {
	case CompleteTx:
		v -= int64(u.Tx)
	case Arrive, ArriveDrop, ExpectTx:
		v += int64(u.Tx)
	case AsyncArriveInc:
	}
	if v < -MaxCount || v > MaxCount {
		return 0, newError(TxRange, "%s of %d bytes takes tx-count from %d to %d, outside ±%d (phase %d)",
			u.op(), u.Tx, b.tx, v, MaxCount, b.phase)
	}
	return int32(v), nil
}

// increment is the immediate pending += count of cp.async.mbarrier.arrive (§1.9 #11).
func (b *Barrier) increment(u Update, s step) (step, error) {
	p := int64(s.pending) + int64(u.Count)
	if p > MaxCount {
		return step{}, newError(PendingOverflow, "%s increment %d takes pending from %d to %d, above %d (phase %d)",
			u.Kind, u.Count, s.pending, p, MaxCount, b.phase)
	}
	s.pending = int32(p)
	return s, nil
}

// arrive applies the drop and the arrival of an arrive-on (§1.9 #5, #6, #10).
func (b *Barrier) arrive(u Update, s step) (step, error) {
	n := int32(u.Count) // validate bounded it by MaxCount
	if u.Kind == ArriveDrop {
		if s.expected-n < 1 {
			return step{}, newError(ExpectedBelowOne, "%s count %d would take expected from %d to %d (phase %d)",
				u.op(), n, s.expected, s.expected-n, b.phase)
		}
		s.expected -= n
	}
	if n > s.pending {
		return step{}, b.overArrival(u, n)
	}
	s.pending -= n
	if u.NoComplete && s.pending == 0 && s.tx == 0 {
		return step{}, newError(NoCompleteWouldComplete,
			"%s count %d takes pending from %d to 0 with tx-count 0, which would complete phase %d",
			u.op(), n, b.pending, b.phase)
	}
	return s, nil
}

func (b *Barrier) overArrival(u Update, n int32) *Error {
	if b.pending == 0 {
		return newError(OverArrival, "%s count %d exceeds pending 0 (phase %d, expected %d; the phase waits only for tx-count %d)",
			u.op(), n, b.phase, b.expected, b.tx)
	}
	return newError(OverArrival, "%s count %d exceeds pending %d (phase %d, expected %d)",
		u.op(), n, b.pending, b.phase, b.expected)
}

// action commits a checked update and runs the single completion check.
func (b *Barrier) action(u Update, s step) Result {
	r := Result{Phase: b.phase}
	if u.Kind.arrives() {
		r.Token = makeToken(b.phase, b.pending, u.NoComplete)
	}
	r.Warnings = b.lint(u)
	b.count(u)
	b.tx, b.expected, b.pending = s.tx, s.expected, s.pending
	if b.pending == 0 && b.tx == 0 {
		cause := Bytes
		if u.Kind.arrives() {
			cause = Arrivals // pending was > 0 before (else over-arrival), so it reached 0 now
		}
		r.Completed, r.CompletedBy, r.Stats = true, cause, b.complete(cause)
	}
	return r
}

// complete advances the phase (PTX §9.7.13.15.6) and returns the finished phase's stats.
func (b *Barrier) complete(cause Cause) PhaseStats {
	done := b.stats
	done.CompletedBy = cause
	b.phase++
	b.pending = b.expected
	b.observedDone, b.warned, b.lastCompletedBy = false, false, cause
	b.stats = PhaseStats{Phase: b.phase}
	return done
}

// count adds the update to the open phase's counters.
func (b *Barrier) count(u Update) {
	switch u.Kind {
	case Arrive, ArriveDrop:
		b.stats.Arrivals += uint64(u.Count)
		b.stats.Lanes += uint64(u.Lanes)
		b.stats.Updates++
		b.stats.TxExpected += uint64(u.Tx)
	case ExpectTx:
		b.stats.TxExpected += uint64(u.Tx)
	case CompleteTx:
		b.stats.TxCompleted += uint64(u.Tx)
	case AsyncArriveInc:
	}
}
