package mbarrier

import "testing"

// BenchmarkApply measures one TMA handshake per iteration: arrive.expect_tx,
// complete_tx (phase flip) and the consumer's parity wait. It must report 0
// allocs/op.
func BenchmarkApply(b *testing.B) {
	var bar Barrier
	if err := bar.Init(1); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := bar.Apply(Update{Kind: Arrive, Count: 1, Tx: 1024, Lanes: 1}); err != nil {
			b.Fatal(err)
		}
		if _, err := bar.Apply(Update{Kind: CompleteTx, Tx: 1024}); err != nil {
			b.Fatal(err)
		}
		if ok, _ := bar.TestParity(uint32(bar.phase&1)^1, Strict); !ok {
			b.Fatal("phase did not complete")
		}
	}
}
