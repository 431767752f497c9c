package warp

import (
	"math"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// MMANumerics is how a tensor core computes one element of D = A·B + C for
// one input type: not a chain of IEEE fused multiply-adds, but one fused
// sum, as Fasi, Higham, Mikaitis and Pranesh described for earlier tensor
// cores ("Numerical behavior of NVIDIA tensor cores", PeerJ CS 2021). What
// the H200 does, measured bit for bit by wgmma_probe.cu (docs/wgmma.md,
// TestWgmmaMatchesH200 over 180 warpgroup MMAs of every type):
//
//  1. every product a_k·b_k is exact;
//  2. the K products and C are aligned to the largest exponent among them
//     (a product's exponent is the sum of its factors' exponents, a
//     subnormal factor counting as its format's least exponent, so that
//     the product's significand lies in [1, 4)); each term keeps FracBits
//     bits below that exponent and loses the rest toward zero;
//  3. the aligned terms are added exactly;
//  4. the sum is normalised: toward zero to SumBits fraction bits when set,
//     then to the accumulator: f32 toward zero, f16 to nearest even (from
//     the exact sum); a sum of 2^128 or more (2^16 for f16) is an infinity,
//     and one that rounds to zero is +0;
//  5. a NaN term, or infinities of both signs, give the canonical NaN; an
//     infinity otherwise survives.
type MMANumerics struct {
	FracBits int // fraction bits each aligned term keeps below the largest exponent
	SumBits  int // fraction bits the normalised sum keeps before an f32 result (0: all 23)
}

// MMAModel is the tensor core's arithmetic for each input type.
type MMAModel struct {
	F16, BF16, TF32, FP8 MMANumerics
	// NaN is the f32 NaN a result takes when any term is NaN or when
	// infinities of both signs meet; the f16 NaN is its high half.
	NaN uint32
}

// H200MMAModel returns the H200's tensor-core arithmetic (wgmma_probe.cu):
// f16, bf16 and tf32 inputs keep 25 fraction bits in the alignment (tf32
// operands are an f32's 19 high bits: the 13 low ones are dropped); fp8
// inputs keep 13, and their sum keeps 13 before it becomes an f32 (the
// "about 14 bits" of DeepSeek-V3's report, arXiv:2412.19437 §3.3.2).
func H200MMAModel() MMAModel {
	std := MMANumerics{FracBits: 25}
	return MMAModel{F16: std, BF16: std, TF32: std, FP8: MMANumerics{FracBits: 13, SumBits: 13}, NaN: 0x7fffffff}
}

// eminOf is the least exponent of an input type (its subnormals' scale).
func eminOf(t isa.MMAType) int {
	switch t {
	case isa.MMABF16, isa.MMATF32:
		return -126
	case isa.MMAE4M3:
		return -6
	}
	return -14
}

// numerics returns the parameters for inputs of type t.
func (m *MMAModel) numerics(t isa.MMAType) *MMANumerics {
	switch t {
	case isa.MMABF16:
		return &m.BF16
	case isa.MMATF32:
		return &m.TF32
	case isa.MMAE4M3, isa.MMAE5M2:
		return &m.FP8
	}
	return &m.F16
}

// MMAValue decodes one element of type t from its bits exactly (for
// .tf32, after the model's conversion of the f32 bits).
func (m *MMAModel) MMAValue(t isa.MMAType, b uint64) float64 {
	switch t {
	case isa.MMAF16:
		return float64(F16ToF32(uint16(b)))
	case isa.MMABF16:
		return float64(BF16ToF32(uint16(b)))
	case isa.MMATF32:
		return m.tf32(uint32(b))
	case isa.MMAE4M3:
		return fmtE4M3.value(b & 0xff)
	case isa.MMAE5M2:
		return fmtE5M2.value(b & 0xff)
	case isa.MMAS8:
		return float64(int8(b))
	case isa.MMAU8:
		return float64(uint8(b))
	}
	return 0
}

// tf32 is the value the tensor core multiplies for a .tf32 operand's f32
// bits: its 19 high bits (the 13 low mantissa bits dropped).
func (m *MMAModel) tf32(b uint32) float64 {
	return float64(math.Float32frombits(b &^ 0x1fff))
}

// Exponents writes into e the exponent of each value of v, an operand of
// type t, as the tensor core aligns it (a subnormal's is its format's least;
// a zero's, a NaN's or an infinity's noExp), and reports whether any value
// is a NaN or an infinity.
func Exponents(t isa.MMAType, v []float64, e []int32) (special bool) {
	return exponents(v, eminOf(t), e)
}

// noExp is the exponent Exponents gives a value that has none: so far below
// every real exponent (at least -300 in these formats) that a sum with it
// never leads a fused sum, and a sum of two of them is still an int32.
const noExp = -1 << 20

// exponents writes expOf(v[k], emin) for each k into e (noExp where it has
// none) and reports whether any value is a NaN or an infinity.
func exponents(v []float64, emin int, e []int32) (special bool) {
	n, special := exponentsWide(v, emin, e) // four at a time where the host has AVX2
	for k := n; k < len(v); k++ {
		x := v[k]
		f := int(math.Float64bits(x) >> 52 & 0x7ff)
		switch f {
		case 0:
			e[k] = noExp
		case 0x7ff:
			e[k], special = noExp, true
		default:
			e[k] = int32(max(f-1023, emin))
		}
	}
	return special
}

// dotExp is the fused sum c + Σ a[k]·b[k] for operands with their
// exponents given (Exponents), rounded to out: a warpgroup MMA reads each
// row of A and column of B for many elements.
func (p *MMANumerics) dotExp(a, b []float64, ea, eb []int32, c float64, out *ffmt, r isa.Rounding) float64 {
	var terms [33]float64
	terms[0] = c
	lead, special := math.MinInt, false
	if c != 0 {
		if isSpecial(c) {
			special = true
		} else {
			lead = expOf(c, fmtF32.emin)
		}
	}
	for k := range a {
		t := a[k] * b[k] // exact: at most 11+11 significant bits, far inside float64's range
		terms[1+k] = t
		if t != 0 { // both factors nonzero: no product of these formats underflows float64
			if isSpecial(t) {
				special = true
			} else {
				lead = max(lead, int(ea[k])+int(eb[k]))
			}
		}
	}
	return p.sumFrom(terms[:1+len(a)], lead, special, out, r)
}

// isSpecial reports whether x is a NaN or an infinity.
func isSpecial(x float64) bool { return math.Float64bits(x)>>52&0x7ff == 0x7ff }

// expOf is the exponent of x as its format stores it: floor(log2|x|), or
// emin for subnormals; math.MinInt32 for zeros and non-finite values.
// Values of the input formats are normal float64s: the exponent field says.
func expOf(x float64, emin int) int {
	f := int(math.Float64bits(x) >> 52 & 0x7ff)
	if f == 0 || f == 0x7ff {
		return math.MinInt32
	}
	return max(f-1023, emin)
}

// sum adds the terms (C first, then the products) as the tensor core does,
// exps their exponents, and normalises the sum to out (r: toward zero for
// f32, to nearest even for f16).
func (p *MMANumerics) sum(terms []float64, exps []int, out *ffmt, r isa.Rounding) float64 {
	lead, special := math.MinInt, false
	for i, t := range terms {
		if isSpecial(t) {
			special = true
		} else if t != 0 {
			lead = max(lead, exps[i])
		}
	}
	return p.sumFrom(terms, lead, special, out, r)
}

// sumFrom is sum given the largest exponent of the nonzero finite terms
// (math.MinInt: none) and whether a term is a NaN or an infinity.
func (p *MMANumerics) sumFrom(terms []float64, lead int, special bool, out *ffmt, r isa.Rounding) float64 {
	if special {
		s := 0.0
		for _, t := range terms {
			s += t // IEEE: an infinity survives, opposite infinities or a NaN give NaN
		}
		return s
	}
	if lead == math.MinInt {
		return zeroSum(terms)
	}
	q := lead - p.FracBits // exponent of the alignment quantum
	var sum int64
	if scale, ok := pow2(-q); ok {
		for _, t := range terms {
			// t·2^-q is exact but when it is below float64's normal range,
			// where it is far below 1 and truncates to 0 all the same.
			sum += int64(t * scale)
		}
	} else {
		for _, t := range terms {
			sum += alignTerm(t, q)
		}
	}
	return p.finish(sum, q, out, r)
}

// finish normalises the aligned sum, sum·2^q, to out.
func (p *MMANumerics) finish(sum int64, q int, out *ffmt, r isa.Rounding) float64 {
	if sum == 0 {
		return 0 // exact cancellation gives +0 (round toward -inf is never used)
	}
	x := exactLdexp(sum, q)
	if p.SumBits > 0 && p.SumBits < out.mant {
		x = (&ffmt{mant: p.SumBits, emin: out.emin, max: out.max}).roundExact(x, isa.RZ)
	}
	return normalize(x, out, r)
}

// normalize rounds a nonzero sum to out as the tensor core does
// (wgmma_probe.cu's wide and tiny rows): a sum of twice out's largest
// power of two or more becomes an infinity even toward zero, and one that
// rounds to zero is +0 whatever its sign.
func normalize(x float64, out *ffmt, r isa.Rounding) float64 {
	if out == &fmtF32 && r == isa.RZ {
		// An f32 result toward zero, in f32's normal range: the float64's
		// fraction cut to f32's 23 bits.
		if ax := math.Abs(x); ax >= 0x1p-126 && ax < 0x1p128 {
			return math.Float64frombits(math.Float64bits(x) &^ (1<<29 - 1))
		}
	}
	if math.Abs(x) >= out.infinityAt() {
		return math.Inf(int(math.Copysign(1, x)))
	}
	if v := out.round(x, r); v != 0 {
		return v
	}
	return 0
}

// infinityAt is the least magnitude that is an infinity in the format: twice
// its largest power of two.
func (f *ffmt) infinityAt() float64 {
	_, e := math.Frexp(f.max)
	return math.Ldexp(1, e)
}

// pow2 returns 2^e and true when it is a normal float64.
func pow2(e int) (float64, bool) {
	if e < -1022 || e > 1023 {
		return 0, false
	}
	return math.Float64frombits(uint64(e+1023) << 52), true
}

// alignTerm returns t / 2^q as an integer, its fraction dropped (toward
// zero).
func alignTerm(t float64, q int) int64 {
	return int64(math.Trunc(math.Ldexp(t, -q))) // exact: q is far above float64's underflow for any term here
}

// exactLdexp returns n·2^q, exact in float64 or rounded to odd when n has
// more than 53 significant bits (then a later rounding to f32 is still
// correct).
func exactLdexp(n int64, q int) float64 {
	neg := n < 0
	u := uint64(n)
	if neg {
		u = -u
	}
	if l := bits.Len64(u); l > 53 {
		sh := l - 53
		sticky := u&(1<<sh-1) != 0
		u >>= sh
		if sticky {
			u |= 1
		}
		q += sh
	}
	var v float64
	if scale, ok := pow2(q); ok && q+bits.Len64(u) > -1021 {
		v = float64(u) * scale // exact: a normal result
	} else {
		v = math.Ldexp(float64(u), q)
	}
	if neg {
		return -v
	}
	return v
}

// zeroSum is the sum of zeros: -0 only when every term is -0.
func zeroSum(terms []float64) float64 {
	for _, t := range terms {
		if !math.Signbit(t) {
			return 0
		}
	}
	return math.Copysign(0, -1)
}
