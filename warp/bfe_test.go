package warp

import (
	"math/rand/v2"
	"testing"
)

// bfeBitwise is bfe as PTX's ISA describes it, bit by bit: result bit i is
// a's bit pos+i for i < len where pos+i < n, else the sign bit (the
// field's top bit, or bit n-1 where the field reaches past it) for a
// signed extraction and zero for an unsigned one.
func bfeBitwise(a, pos, ln uint64, n int, signed bool) uint64 {
	if ln == 0 {
		return 0
	}
	var sbit uint64
	if signed {
		if pos+ln-1 >= uint64(n) {
			sbit = a >> uint(n-1) & 1
		} else {
			sbit = a >> (pos + ln - 1) & 1
		}
	}
	var v uint64
	for i := uint64(0); i < uint64(n); i++ {
		bit := sbit
		if i < ln && pos+i < uint64(n) {
			bit = a >> (pos + i) & 1
		}
		v |= bit << i
	}
	return v
}

// bfe's closed form gives the bitwise definition's bits for every
// position and length an instruction can give (0-255), 32 and 64 bits,
// signed and unsigned, over values with the sign bit set and clear.
func TestBfeIsTheBitwiseDefinition(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{32, 64} {
		for _, signed := range []bool{false, true} {
			for pos := uint64(0); pos < 256; pos++ {
				for ln := uint64(0); ln < 256; ln++ {
					a := rng.Uint64()
					if n == 32 {
						a &= 0xffffffff
					}
					for _, x := range []uint64{a, a | 1<<uint(n-1), a &^ (1 << uint(n-1))} {
						if got, want := bfe(x, pos, ln, n, signed), bfeBitwise(x, pos, ln, n, signed); got != want {
							t.Fatalf("bfe(%#x, %d, %d, %d bits, signed %v) = %#x, want %#x", x, pos, ln, n, signed, got, want)
						}
					}
				}
			}
		}
	}
}
