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

// The packed steps of an f32 accumulator (f32Group) give the general sum's
// bits where results leave f32's normal range: products and accumulators
// near the least normal f32 (results cut to subnormals and zeros) and near
// the largest (results cut to the largest finite f32), besides NaNs,
// infinities and zeros of both signs, with and without scale-d.
func TestF32GroupAtTheEndsOfTheRange(t *testing.T) {
	m := H200MMAModel()
	rng := rand.New(rand.NewPCG(8, 9))
	accs := []uint32{0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000, 0x00800001,
		0x01000000, 0x7f7fffff, 0xff7fffff, 0x7f000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x3f800000}
	// element of type t with a biased exponent near lo or hi of its field
	element := func(t isa.MMAType, kind int) float64 {
		var bits uint64
		switch t {
		case isa.MMATF32:
			e := []uint64{1, 2, 127, 253, 254}[kind]
			bits = rng.Uint64()&0x807fffff | e<<23
		case isa.MMABF16:
			e := []uint64{1, 2, 127, 253, 254}[kind]
			bits = rng.Uint64()&0x807f | e<<7
		default:
			e := []uint64{0, 1, 15, 29, 30}[kind]
			bits = rng.Uint64()&0x83ff | e<<10
		}
		if rng.IntN(6) == 0 {
			return 0
		}
		return m.MMAValue(t, bits)
	}
	saved := hasAVX2
	defer func() { hasAVX2 = saved }()
	var tiny, huge int
	for n := 0; n < 300; n++ {
		typ := []isa.MMAType{isa.MMABF16, isa.MMATF32, isa.MMAF16}[n%3]
		g := &Wgmma{A: typ, B: typ, N: 64, K: typ.K(), Acc: isa.F32, ScaleD: n%5 != 0}
		for r := 0; r < 16; r++ {
			kind := rng.IntN(5)
			for k := 0; k < g.K; k++ {
				g.a[32*r+k] = element(typ, kind)
			}
		}
		for col := 0; col < g.N; col++ {
			kind := rng.IntN(5)
			for k := 0; k < g.K; k++ {
				g.bT[256*k+col] = element(typ, kind)
			}
		}
		for j := range g.Regs {
			for l := range g.Regs[j] {
				g.Regs[j][l] = accs[rng.IntN(len(accs))]
				if rng.IntN(3) == 0 {
					g.Regs[j][l] ^= rng.Uint32() & 0xff // a neighbour
				}
			}
		}
		old := g.Regs
		want := *g
		want.exponents()
		var ref [16][64]uint32
		for r := 0; r < 16; r++ {
			for col := 0; col < g.N; col++ {
				want.setAcc(&m, r, col, want.general(&m, r, col))
				ref[r][col] = want.bitsAt(r, col)
				switch v := ref[r][col] &^ f32Sign; {
				case v != 0 && v < 0x00800000:
					tiny++
				case v == 0x7f7fffff:
					huge++
				}
			}
		}
		for _, packed := range []bool{false, true} {
			hasAVX2 = packed && saved
			g.Regs = old
			g.Compute(&m)
			for r := 0; r < 16; r++ {
				for col := 0; col < g.N; col++ {
					if got := g.bitsAt(r, col); got != ref[r][col] {
						l, i := AccSlot(r, col)
						t.Fatalf("%v, scale-d %v, packed %v: row %d column %d (accumulator %#x): %#x, want %#x",
							typ, g.ScaleD, hasAVX2, r, col, old[i][l], got, ref[r][col])
					}
				}
			}
		}
	}
	if tiny < 100 || huge < 100 {
		t.Fatalf("%d subnormal and %d largest results: the test no longer reaches the ends of the range", tiny, huge)
	}
}

// A result below f32's least normal is cut toward zero as a subnormal
// (finish), not rounded to nearest by the host's conversion: 1.5·2^-127 +
// 1.5·2^-149 is 0x600001, packed or not.
func TestF32GroupCutsSubnormalResultsTowardZero(t *testing.T) {
	m := H200MMAModel()
	saved := hasAVX2
	defer func() { hasAVX2 = saved }()
	for _, packed := range []bool{false, true} {
		hasAVX2 = packed && saved
		g := &Wgmma{A: isa.MMABF16, B: isa.MMABF16, N: 8, K: 16, Acc: isa.F32}
		g.a[0], g.bT[0] = 1.5*0x1p-126, 0.5
		g.a[1], g.bT[256] = 0x1p-126, 1.5*0x1p-23
		g.Compute(&m)
		if got := g.bitsAt(0, 0); got != 0x600001 {
			t.Errorf("packed %v: %#x, want 0x600001", hasAVX2, got)
		}
	}
}

// exponents (four at a time where the host has AVX2, the rest one at a
// time) gives each value's exponent field less 1023, at least emin, noExp
// for zeros, subnormals, infinities and NaNs, and reports the last two.
func TestExponentsAreTheFields(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 7))
	edge := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 0x1p-1074, 0x1p-1022, 1, -3,
		0x1p-149, 0x1p-126, 0x1p127, 65504}
	for i := 0; i < 5000; i++ {
		n := rng.IntN(41)
		v := make([]float64, n)
		for k := range v {
			if rng.IntN(4) == 0 {
				v[k] = edge[rng.IntN(len(edge))]
			} else {
				v[k] = math.Ldexp(rng.Float64()+0.5, rng.IntN(300)-150)
			}
		}
		emin := []int{-126, -14, -6, -1022}[i%4]
		e := make([]int32, n)
		got := exponents(v, emin, e)
		want := false
		for k, x := range v {
			f := int(math.Float64bits(x) >> 52 & 0x7ff)
			w := int32(noExp)
			if f != 0 && f != 0x7ff {
				w = int32(max(f-1023, emin))
			}
			want = want || f == 0x7ff
			if e[k] != w {
				t.Fatalf("value %d of %d, %v (emin %d): exponent %d, want %d", k, n, x, emin, e[k], w)
			}
		}
		if got != want {
			t.Fatalf("%v: special %v, want %v", v, got, want)
		}
	}
}
