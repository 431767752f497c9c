package warp

import (
	"math/rand/v2"
	"testing"
)

// lut64 (lop3's truth table as minterm masks) gives, for every truth table, bit a_k<<2 | b_k<<1 | c_k of the table
// at every bit k (LOP3's definition, bit by bit).
func TestLop3MatchesTheTruthTableBitByBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for lut := uint64(0); lut < 256; lut++ {
		for n := 0; n < 64; n++ {
			a, b, c := rng.Uint64(), rng.Uint64(), rng.Uint64()
			var want uint64
			for k := 0; k < 64; k++ {
				idx := (a>>k&1)<<2 | (b>>k&1)<<1 | c>>k&1
				want |= (lut >> idx & 1) << k
			}
			if got := lut64(uint8(lut), a, b, c); got != want {
				t.Fatalf("lut64(%#x, %#x, %#x, table %#02x) = %#x, want %#x", a, b, c, lut, got, want)
			}
		}
	}
}
