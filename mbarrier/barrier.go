package mbarrier

// MaxCount is the largest arrival count (init, arrive, pending, expected) and
// the largest |tx-count| an mbarrier holds: 2^20-1 (PTX ISA §9.7.13.15.2).
const MaxCount = 1<<20 - 1

// Barrier is one mbarrier object. The zero value is uninitialised memory: every
// operation except Init fails on it with Uninitialized. Barrier is a plain value
// with no pointers, so copying it snapshots the whole object (the exhaustive
// test relies on that).
//
// Invariant between operations of a valid barrier: 1 <= expected <= MaxCount,
// 0 <= pending <= MaxCount, |tx| <= MaxCount, and never pending == 0 && tx == 0
// (that state completes the phase inside the update that reaches it).
type Barrier struct {
	valid    bool
	phase    uint64 // number of completed phases = number of the open phase; parity is phase&1
	expected int32  // pending is reloaded with this at each phase completion
	pending  int32  // arrivals still missing in the open phase
	tx       int32  // signed tx-count: bytes expected minus bytes completed

	// Simulator-only bookkeeping, not architectural state.
	observedDone    bool       // a wait returned true since the last completion (§1.9 #7 lint)
	warned          bool       // a phase-order warning was already given in the open phase
	lastCompletedBy Cause      // how the previous phase completed, for warning messages
	stats           PhaseStats // counters of the open phase
}

// State is a snapshot of the architectural state of a barrier (§1.2). An
// invalid barrier reports the zero State.
type State struct {
	Valid    bool
	Phase    uint64 // number of the open (incomplete) phase; phases 0..Phase-1 are complete
	Pending  int32  // arrivals still missing in the open phase
	Expected int32  // reload value of Pending at each completion
	Tx       int32  // signed tx-count
}

// State returns a snapshot of the barrier's architectural state.
func (b *Barrier) State() State {
	return State{Valid: b.valid, Phase: b.phase, Pending: b.pending, Expected: b.expected, Tx: b.tx}
}

// Valid reports whether the barrier has been initialised and not invalidated.
func (b *Barrier) Valid() bool { return b.valid }

// PhaseStats returns the running counters of the open phase. When an Apply
// completes a phase, Result.Stats holds the finished phase's final counters.
func (b *Barrier) PhaseStats() PhaseStats { return b.stats }

// Init models mbarrier.init (PTX §9.7.13.15.9): phase 0, pending = expected =
// count, tx-count 0. The memory must not already hold a valid barrier (§1.9 #2)
// and count must be in 1..MaxCount (§1.9 #4).
func (b *Barrier) Init(count uint32) error {
	if b.valid {
		return newError(DoubleInit, "init(%d) on a valid barrier (phase %d, expected %d); inval it first",
			count, b.phase, b.expected)
	}
	if count < 1 || count > MaxCount {
		return newError(BadCount, "init count %d outside 1..%d", count, MaxCount)
	}
	*b = Barrier{valid: true, expected: int32(count), pending: int32(count)}
	return nil
}

// Inval models mbarrier.inval (PTX §9.7.13.15.10): the memory stops being a
// barrier and may be initialised again, starting over at phase 0.
func (b *Barrier) Inval() error {
	if !b.valid {
		return errUninit("inval")
	}
	*b = Barrier{}
	return nil
}
