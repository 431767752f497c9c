package mbarrier_test

import (
	"errors"
	"fmt"

	"github.com/smsim/smsim/mbarrier"
)

// The TMA handshake of a CUTLASS "full" barrier (spec §3.1 b): one producer
// thread registers the tile's bytes and arrives; the copy's completion
// signals the bytes; the phase flips and a consumer's parity wait passes.
func ExampleBarrier_Apply() {
	var full mbarrier.Barrier
	_ = full.Init(1)

	r, _ := full.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 1, Tx: 8192, Lanes: 1}) // arrive.expect_tx
	fmt.Printf("arrive.expect_tx: completed=%t state=%+v\n", r.Completed, full.State())
	ready, _ := full.TestParity(0, mbarrier.Strict)
	fmt.Println("consumer wait(parity 0):", ready)

	r, _ = full.Apply(mbarrier.Update{Kind: mbarrier.CompleteTx, Tx: 8192}) // the TMA copy lands
	fmt.Printf("complete_tx: completed=%t by %v, phase %d: %d arrivals, %d bytes\n",
		r.Completed, r.CompletedBy, r.Stats.Phase, r.Stats.Arrivals, r.Stats.TxCompleted)
	ready, _ = full.TestParity(0, mbarrier.Strict)
	fmt.Println("consumer wait(parity 0):", ready)
	fmt.Printf("state: %+v\n", full.State())
	// Output:
	// arrive.expect_tx: completed=false state={Valid:true Phase:0 Pending:0 Expected:1 Tx:8192}
	// consumer wait(parity 0): false
	// complete_tx: completed=true by bytes, phase 0: 1 arrivals, 8192 bytes
	// consumer wait(parity 0): true
	// state: {Valid:true Phase:1 Pending:1 Expected:1 Tx:0}
}

// Tokens carry the phase of their arrive; parity waits name the phase to wait
// for by its low bit. A fresh barrier passes parity 1 (spec §5.7), and a token
// two phases old is an error in strict mode but aliases in faithful mode (§5.9).
func ExampleBarrier_TestToken() {
	var b mbarrier.Barrier
	_ = b.Init(2)
	p1, _ := b.TestParity(1, mbarrier.Strict)
	fmt.Println("fresh barrier, parity 1:", p1)

	r, _ := b.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 1, Lanes: 1})
	tok := r.Token
	done, _ := b.TestToken(tok, mbarrier.Strict)
	fmt.Printf("token of phase %d after 1 of 2 arrivals: %t\n", tok.Phase(), done)

	_, _ = b.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 1, Lanes: 1})
	done, _ = b.TestToken(tok, mbarrier.Strict)
	fmt.Printf("after 2 of 2: %t\n", done)

	_, _ = b.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 2, Lanes: 2}) // phase 1 completes too
	_, err := b.TestToken(tok, mbarrier.Strict)
	var e *mbarrier.Error
	fmt.Println("strict, two phases later:", errors.As(err, &e), e.Code)
	done, _ = b.TestToken(tok, mbarrier.Faithful)
	fmt.Println("faithful, two phases later:", done)
	// Output:
	// fresh barrier, parity 1: true
	// token of phase 0 after 1 of 2 arrivals: false
	// after 2 of 2: true
	// strict, two phases later: true stale wait
	// faithful, two phases later: false
}

// pending_count decodes the token of a .noComplete arrive (spec §5.8).
func ExamplePendingCount() {
	var b mbarrier.Barrier
	_ = b.Init(3)
	r, _ := b.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 2, NoComplete: true, Lanes: 1})
	n, _ := mbarrier.PendingCount(r.Token)
	fmt.Println("pending before the arrive:", n)
	_, err := b.Apply(mbarrier.Update{Kind: mbarrier.Arrive, Count: 2, Lanes: 1})
	fmt.Println(err)
	// Output:
	// pending before the arrive: 3
	// mbarrier: over-arrival: arrive count 2 exceeds pending 1 (phase 0, expected 3) [UB #5]
}
