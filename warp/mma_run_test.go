package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// TestWgmmaColumnsMatchTheGeneralSum: a warp's share of D computed four
// columns at a time (fusedCols4, packed and in Go) is bit for bit what the
// general sum (dotExp) gives each element, for every input type and
// accumulator, with operands across their whole range: zeros of both signs,
// subnormals, the largest values, and NaNs and infinities in some rows and
// columns and accumulators.
func TestWgmmaColumnsMatchTheGeneralSum(t *testing.T) {
	m := H200MMAModel()
	rng := rand.New(rand.NewPCG(3, 4))
	type shape struct {
		a   isa.MMAType
		acc isa.Type
	}
	shapes := []shape{{isa.MMAF16, isa.F32}, {isa.MMAF16, isa.F16}, {isa.MMABF16, isa.F32}, {isa.MMATF32, isa.F32},
		{isa.MMAE4M3, isa.F32}, {isa.MMAE5M2, isa.F16}}
	saved := hasAVX2
	defer func() { hasAVX2 = saved }()
	fused := 0
	for n := 0; n < 240; n++ {
		sh := shapes[n%len(shapes)]
		g := &Wgmma{A: sh.a, B: sh.a, N: 8 << rng.IntN(6), K: sh.a.K(), Acc: sh.acc, ScaleD: rng.IntN(4) != 0}
		value := func(special bool) float64 {
			x := m.MMAValue(sh.a, randBits(rng, sh.a))
			for !special && isSpecial(x) {
				x = m.MMAValue(sh.a, randBits(rng, sh.a))
			}
			switch rng.IntN(8) {
			case 0:
				return 0
			case 1:
				return math.Copysign(0, -1)
			}
			return x
		}
		specialA, specialB := rng.IntN(16) == 0, rng.IntN(3) == 0 // a few rows, some columns
		for r := 0; r < 16; r++ {
			sp := specialA && rng.IntN(4) == 0
			for k := 0; k < g.K; k++ {
				g.a[32*r+k] = value(sp)
			}
		}
		for col := 0; col < g.N; col++ {
			sp := specialB && rng.IntN(8) == 0
			for k := 0; k < g.K; k++ {
				g.bT[256*k+col] = value(sp)
			}
		}
		for l := 0; l < Lanes; l++ {
			for j := range g.Regs {
				g.Regs[j][l] = rng.Uint32()
				if rng.IntN(64) != 0 { // mostly finite accumulators
					g.Regs[j][l] &^= 0x40004000
				}
			}
		}
		old := g.Regs
		want := *g
		var ref [16][256]uint32
		for r := 0; r < 16; r++ {
			for col := 0; col < g.N; col++ {
				want.exponents()
				want.setAcc(&m, r, col, want.general(&m, r, col))
				ref[r][col] = want.bitsAt(r, col)
			}
		}
		for _, packed := range []bool{false, true} {
			hasAVX2 = packed && saved
			g.Regs = old
			g.Compute(&m)
			for r := 0; r < 16; r++ {
				for col := 0; col < g.N; col++ {
					if got := g.bitsAt(r, col); got != ref[r][col] {
						t.Fatalf("%v·%v → %v, n%d, scale-d %v, packed %v: row %d column %d: %#x, want %#x",
							sh.a, sh.a, sh.acc, g.N, g.ScaleD, hasAVX2, r, col, got, ref[r][col])
					}
				}
			}
		}
		for r := 0; r < 16; r++ {
			for col := 0; col < g.N; col++ {
				if !g.aSpecial[r] && !g.bSpecial[col] {
					fused++
				}
			}
		}
	}
	if fused < 100_000 {
		t.Fatalf("only %d elements took the fused sum: the test no longer exercises it", fused)
	}
}

// randBits is a random bit pattern of an element of type t.
func randBits(rng *rand.Rand, t isa.MMAType) uint64 {
	switch t {
	case isa.MMATF32:
		return uint64(rng.Uint32())
	case isa.MMAE4M3, isa.MMAE5M2:
		return uint64(rng.IntN(256))
	}
	return uint64(rng.IntN(1 << 16))
}

// bitsAt is the bits of element (r, col) of the warp's share of D: its
// register, or its half of one for f16.
func (g *Wgmma) bitsAt(r, col int) uint32 {
	l, i := AccSlot(r, col)
	if g.Acc == isa.F16 {
		return g.Regs[i/2][l] >> (16 * (i % 2)) & 0xffff
	}
	return g.Regs[i][l]
}

// An f16 or bf16 operand's rows decode to decodeChunk's values, negated or
// not: random halves with zeros of both signs, subnormals, infinities and
// NaNs of any payload in some rows, through the packed widening and the
// per-half fall-back (hasF16C off), along K and along M or N.
func TestDecodeHalvesIsDecodeChunk(t *testing.T) {
	packed := hasF16C
	defer func() { hasF16C = packed }()
	for _, hasF16C = range []bool{packed, false} {
		decodeHalvesAgainstDecodeChunk(t)
	}
}

func decodeHalvesAgainstDecodeChunk(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 16))
	specials := []uint16{0, 0x8000, 1, 0x8001, 0x3ff, 0x7bff, 0x7c00, 0xfc00, 0x7c01, 0x7e00, 0xfe01, 0xff80, 0x7f81}
	m := &MMAModel{}
	for _, typ := range []isa.MMAType{isa.MMAF16, isa.MMABF16} {
		for _, neg := range []bool{false, true} {
			for _, mnMajor := range []bool{false, true} {
				g := &Wgmma{K: 16}
				o := operand{typ: typ, neg: neg, mnMajor: mnMajor}
				const n = 16
				raw := make([]byte, 16*n*g.K/8)
				for i := 0; i < len(raw); i += 2 {
					h := uint16(rng.Uint32())
					if rng.IntN(6) == 0 {
						h = specials[rng.IntN(len(specials))]
					}
					raw[i], raw[i+1] = byte(h), byte(h>>8)
				}
				got := make([]float64, 32*n)
				g.decodeHalves(o, n, raw, view{got, 32, 1})
				want := make([]float64, 32*n)
				next := 0
				row := func() []float64 {
					g.chunk = [16]byte(raw[next : next+16])
					next += 16
					return g.decodeChunk(m, o)
				}
				if !mnMajor {
					for i := 0; i < n; i++ {
						for k0 := 0; k0 < g.K; k0 += 8 {
							for e, x := range row() {
								want[32*i+k0+e] = x
							}
						}
					}
				} else {
					for i0 := 0; i0 < n; i0 += 8 {
						for k := 0; k < g.K; k++ {
							for e, x := range row() {
								want[32*(i0+e)+k] = x
							}
						}
					}
				}
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%v neg %v mnMajor %v (packed %v) element %d: %#x, want %#x", typ, neg, mnMajor,
							hasF16C, i, math.Float64bits(got[i]), math.Float64bits(want[i]))
					}
				}
			}
		}
	}
}
