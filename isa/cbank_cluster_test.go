package isa

import "testing"

// TestClusterReciprocal: ptxas computes %clusterid as trunc(ctaid *
// 1/cluster) in f32 from constant bank 0; the word must give the exact
// quotient for every cluster size the hardware allows and every CTA index
// of a grid dimension up to 2^16.
func TestClusterReciprocal(t *testing.T) {
	for n := 1; n <= 16; n++ {
		r := recipUp(n)
		for k := 0; k < 1<<16; k++ {
			if got := int(float32(k) * r); got != k/n {
				t.Fatalf("cluster %d, CTA %d: trunc(%d * %g) = %d, want %d", n, k, k, r, got, k/n)
			}
		}
	}
}
