package warp

import (
	"math"
	"math/rand/v2"
)

// Operand generators: each returns the bits of one operand of a format.
type bitsGen func(rng *rand.Rand) uint64

// f32Edges are f32 values where rounding, flushing, saturation and NaN
// handling change: zeros, subnormals, the normal range's ends, one,
// infinities, quiet and signalling NaNs with payloads, integer boundaries.
var f32Edges = []uint32{
	0, 1, 2, 3, 0x7fffff, 0x400000, 0x800000, 0x800001, 0x3f800000, 0x3f800001, 0x3f7fffff, 0x3f000000,
	0x3fc00000, 0x40200000, 0x3f400000, 0x7f7fffff, 0x7f7ffffe, 0x7f000000, 0x7f800000, 0x7fc00000,
	0x7f800001, 0x7fbfffff, 0x7fffffff, 0x7fc00123, 0x4f000000, 0x4effffff, 0x4f800000, 0x4f7fffff,
	0x5f000000, 0x5f800000, 0x5effffff, 0x4b000000, 0x4b7fffff, 0x33800000, 0x33800001, 0x0c800000,
}

// f16Edges and bf16Edges are the same for the 16-bit formats.
var (
	f16Edges = []uint16{0, 1, 2, 0x3ff, 0x200, 0x400, 0x401, 0x3c00, 0x3c01, 0x3bff, 0x3800, 0x7bff, 0x7bfe,
		0x7c00, 0x7e00, 0x7c01, 0x7dff, 0x7fff, 0x1400, 0x0c00, 0x6800}
	bf16Edges = []uint16{0, 1, 2, 0x7f, 0x40, 0x80, 0x81, 0x3f80, 0x3f81, 0x3f7f, 0x3f00, 0x7f7f, 0x7f7e,
		0x7f80, 0x7fc0, 0x7f81, 0x7fbf, 0x7fff, 0x4b00, 0x3400, 0x0080}
)

// f32Gen mixes uniformly random bits, tame values (exponents near 1),
// subnormals and edges, each with either sign.
func f32Gen(rng *rand.Rand) uint64 {
	sign := uint32(rng.IntN(2)) << 31
	switch rng.IntN(8) {
	case 0, 1:
		return uint64(rng.Uint32())
	case 2:
		return uint64(sign | rng.Uint32N(0x800000)) // subnormal (or zero)
	case 3:
		return uint64(sign | f32Edges[rng.IntN(len(f32Edges))])
	case 4: // few significant bits: exact sums and products, ties
		return uint64(sign | (127-8+rng.Uint32N(16))<<23 | rng.Uint32N(8)<<20)
	}
	return uint64(sign | (127-20+rng.Uint32N(40))<<23 | rng.Uint32N(1<<23))
}

// halfGen returns a generator of the 16-bit format with the given edges.
func halfGen(edges []uint16, bias, mant uint32) bitsGen {
	return func(rng *rand.Rand) uint64 {
		sign := uint32(rng.IntN(2)) << 15
		switch rng.IntN(8) {
		case 0, 1:
			return uint64(rng.Uint32N(1 << 16))
		case 2:
			return uint64(sign | rng.Uint32N(1<<mant))
		case 3:
			return uint64(sign | uint32(edges[rng.IntN(len(edges))]))
		case 4:
			return uint64(sign | (bias-3+rng.Uint32N(6))<<mant | rng.Uint32N(4)<<(mant-2))
		}
		return uint64(sign | (bias-6+rng.Uint32N(12))<<mant | rng.Uint32N(1<<mant))
	}
}

var (
	f16Gen  = halfGen(f16Edges, 15, 10)
	bf16Gen = halfGen(bf16Edges, 127, 7)
)

// pairGen packs two halves.
func pairGen(g bitsGen) bitsGen {
	return func(rng *rand.Rand) uint64 { return g(rng) | g(rng)<<16 }
}

// intGen returns integers of n bits, edges (0, ±1, extremes) or random.
func intGen(n uint) bitsGen {
	return func(rng *rand.Rand) uint64 {
		m := uint64(1)<<n - 1
		switch rng.IntN(4) {
		case 0:
			return []uint64{0, 1, m, m >> 1, m>>1 + 1, 1 << 24, 1<<24 + 1, m - 1}[rng.IntN(8)] & m
		case 1:
			return rng.Uint64N(1 << 12)
		}
		return rng.Uint64() & m
	}
}

func f32Of(v float64) uint64 { return uint64(math.Float32bits(float32(v))) }

func bf16Of(v float64) uint64 { return uint64(math.Float32bits(float32(v)) >> 16) }

// signed negates v half of the time.
func signed(rng *rand.Rand, v float64) float64 {
	if rng.IntN(2) == 0 {
		return -v
	}
	return v
}

// randomFloat64 draws float64 values around every range a rounding to f
// meets: normal, subnormal in f, just below half its smallest subnormal,
// near its overflow threshold, with few or many significant bits.
func randomFloat64(rng *rand.Rand, f *ffmt) float64 {
	maxExp := int(math.Floor(math.Log2(f.max)))
	var e int
	switch rng.IntN(4) {
	case 0:
		e = f.emin - f.mant - 3 + rng.IntN(f.mant+6) // subnormal in f, and below
	case 1:
		e = maxExp - 2 + rng.IntN(4) // at overflow
	default:
		e = f.emin + rng.IntN(maxExp-f.emin)
	}
	m := 1 + rng.Float64()
	switch rng.IntN(3) {
	case 0: // f's precision plus one bit: exact ties
		m = 1 + float64(rng.IntN(1<<(f.mant+1)))/float64(int(1)<<(f.mant+1))
	case 1: // just beside a tie
		m = 1 + (float64(2*rng.IntN(1<<f.mant)+1)+float64(rng.IntN(3)-1)*0x1p-20)/float64(int(1)<<(f.mant+1))
	}
	return signed(rng, math.Ldexp(m, e))
}
