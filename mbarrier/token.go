package mbarrier

import "fmt"

// Mode selects how waits react to undefined behaviour that real hardware
// resolves in a known way.
type Mode uint8

// The modes.
const (
	// Strict reports undefined behaviour as an *Error (the checking default).
	Strict Mode = iota
	// Faithful does what the H200 does where the spec records it: waits
	// compare parity only (§5.9), and a parity operand uses only its low bit.
	Faithful
)

// String returns "strict" or "faithful".
func (m Mode) String() string {
	switch m {
	case Strict:
		return "strict"
	case Faithful:
		return "faithful"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// Token is the opaque 64-bit state value an arrive returns in a register
// (PTX §9.7.13.15.13: its contents are implementation specific). Layout:
//
//	bits  0..39  phase that was open before the arrive, modulo 2^40
//	bits 40..59  pending count before the arrive (what mbarrier.pending_count returns)
//	bit  60      set iff the arrive was .noComplete
//	bits 61..63  zero
//
// 40 phase bits are enough to tell stale tokens apart: at the measured 2 cycles
// per update a barrier needs hours of simulated time to wrap them.
type Token uint64

const (
	phaseBits     = 40
	phaseMask     = 1<<phaseBits - 1
	pendingShift  = phaseBits
	noCompleteBit = 1 << 60
)

func makeToken(phase uint64, pendingBefore int32, noComplete bool) Token {
	t := Token(phase&phaseMask) | Token(pendingBefore)<<pendingShift
	if noComplete {
		t |= noCompleteBit
	}
	return t
}

// Phase returns the phase number (modulo 2^40) that was open when the token's
// arrive was applied.
func (t Token) Phase() uint64 { return uint64(t) & phaseMask }

// PendingCount models mbarrier.pending_count (PTX §9.7.13.15.17): the pending
// count before the arrive that produced t (measured, §5.8). Only tokens of a
// .noComplete arrive or arrive_drop qualify (§1.9 #12).
func PendingCount(t Token) (uint32, error) {
	if t&noCompleteBit == 0 {
		return 0, newError(BadPendingCountToken, "token %#x (phase %d) did not come from a .noComplete arrive or arrive_drop",
			uint64(t), t.Phase())
	}
	return uint32(t>>pendingShift) & MaxCount, nil
}

// TestToken models mbarrier.test_wait / try_wait with a token (PTX
// §9.7.13.15.16): true iff the token's phase has completed. The token must be
// from the open phase (-> false) or the immediately preceding one (-> true).
// Strict mode reports any other token as StaleWait (§1.9 #8, §4 #32); Faithful
// compares parity only, as the H200 does (§5.9), so a token two phases old
// reads false. A true result records that the completed phase was observed
// (for the §1.9 #7 lint).
func (b *Barrier) TestToken(t Token, m Mode) (bool, error) {
	if !b.valid {
		return false, errUninit("test_wait")
	}
	tp, cur := t.Phase(), b.phase&phaseMask
	if d := (cur - tp) & phaseMask; m != Faithful && d >= 2 {
		return false, staleToken(tp, cur, d)
	}
	return b.observe(tp&1 != cur&1), nil
}

func staleToken(tp, cur, d uint64) *Error {
	if d >= 1<<(phaseBits-1) {
		return newError(StaleWait, "token of phase %d is newer than the open phase %d", tp, cur)
	}
	return newError(StaleWait, "token of phase %d is %d phases older than the open phase %d; "+
		"only the open and the immediately preceding phase may be waited on", tp, d, cur)
}

// TestParity models mbarrier.test_wait.parity / try_wait.parity (PTX
// §9.7.13.15.16): true iff p != phase&1, i.e. p names the completed phase just
// before the open one. On a fresh barrier parity 1 is true and parity 0 false
// (measured, §5.7). Strict mode rejects p > 1; Faithful uses p&1. Parity
// cannot reveal a stale wait: that is the hazard of §4 #33. A true result
// records that the completed phase was observed (for the §1.9 #7 lint).
func (b *Barrier) TestParity(p uint32, m Mode) (bool, error) {
	if !b.valid {
		return false, errUninit("test_wait.parity")
	}
	if p > 1 && m != Faithful {
		return false, newError(BadParity, "parity operand %d is not 0 or 1 (phase %d)", p, b.phase)
	}
	return b.observe(p&1 != uint32(b.phase&1)), nil
}

func (b *Barrier) observe(done bool) bool {
	if done {
		b.observedDone = true
	}
	return done
}
