package warp

import (
	"fmt"
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
)

// f32ToF16 (cvt.rn.f16.f32 on the fast lanes) gives the exact path's bits
// for every exponent and sign, every pattern of the 13 significand bits
// that rounding drops (midpoints and their neighbours among them) under
// several upper significands, with and without .ftz and .sat.
func TestF32ToF16MatchesTheExactPath(t *testing.T) {
	highs := []uint32{0, 1, 0x155, 0x3ff}
	if testing.Short() {
		highs = highs[:2]
	}
	for _, flags := range []isa.Flags{0, isa.FFtz, isa.FSat, isa.FFtz | isa.FSat} {
		in := isa.Instr{Op: isa.OpCvt, Type: isa.F16, Type2: isa.F32, Rnd: isa.RN, Flags: flags}
		ftz, sat := flags.Has(isa.FFtz), flags.Has(isa.FSat)
		t.Run(fmt.Sprintf("flags %#x", flags), func(t *testing.T) {
			bad := 0
			for se := uint32(0); se < 512; se++ {
				for _, hi := range highs {
					for lo := uint32(0); lo < 1<<13; lo++ {
						x := se<<23 | hi<<13 | lo
						got, want := f32ToF16(x, ftz, sat), floatToFloat(&in, uint64(x))
						if got != want && bad < 10 {
							bad++
							t.Errorf("cvt.rn.f16.f32 of %#08x: %#04x, the exact path %#04x", x, got, want)
						}
					}
				}
			}
		})
	}
}

// f32ToInt (cvt.rzi and the other integer roundings to s32, u32, s64, u64
// on the fast lanes) gives the exact path's bits for every exponent and
// sign, with the significand's low and high bits in several patterns (at
// the destination's width: the bits above it are not the result's).
func TestF32ToIntMatchesTheExactPath(t *testing.T) {
	mants := []uint32{0, 1, 0x3fffff, 0x400000, 0x400001, 0x7fffff, 0x2aaaaa, 0x555555}
	for _, dt := range []isa.Type{isa.S32, isa.U32, isa.S64, isa.U64} {
		for _, rnd := range []isa.Rounding{isa.RZI, isa.RNI, isa.RMI, isa.RPI} {
			for _, flags := range []isa.Flags{0, isa.FFtz} {
				in := isa.Instr{Op: isa.OpCvt, Type: dt, Type2: isa.F32, Rnd: rnd, Flags: flags}
				c := newF32ToInt(dt, rnd, flags.Has(isa.FFtz))
				for se := uint32(0); se < 512; se++ {
					for _, m := range mants {
						x := se<<23 | m
						if got, want := c.convert(x), floatToInt(&in, uint64(x))&widthMask(dt); got != want {
							t.Fatalf("cvt (rounding %d).%s.f32 (flags %#x) of %#08x: %#x, the exact path %#x", rnd, dt, flags, x, got, want)
						}
					}
				}
			}
		}
	}
}

// F16ToF32 is exact: every f16 pattern decodes to its value by the
// format's definition (NaNs keep their payload in f32's upper mantissa).
func TestF16ToF32IsTheExactValue(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		e, m := h>>10&0x1f, h&0x3ff
		var want float64
		switch e {
		case 0:
			want = math.Ldexp(float64(m), -24)
		case 0x1f:
			want = math.Inf(1)
		default:
			want = math.Ldexp(float64(m|0x400), e-25)
		}
		if h&0x8000 != 0 {
			want = -want
		}
		bits := math.Float32bits(F16ToF32(uint16(h)))
		if e == 0x1f && m != 0 {
			if bits != uint32(h>>15)<<31|0x7f800000|uint32(m)<<13 {
				t.Errorf("F16ToF32(%#04x) = %#08x, want the NaN of payload %#x", h, bits, m)
			}
			continue
		}
		if bits != math.Float32bits(float32(want)) {
			t.Errorf("F16ToF32(%#04x) = %#08x, want %v", h, bits, want)
		}
	}
}

// f16WidenCommon (HADD2.F32's operands) is F16ToF32 for every zero and
// normal f16 pattern, and leaves subnormals, infinities and NaNs to it.
func TestF16WidenCommonIsF16ToF32(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		e := h >> 10 & 0x1f
		common := e >= 1 && e <= 30 || h&0x7fff == 0
		got, ok := f16WidenCommon(uint16(h))
		if want := math.Float32bits(F16ToF32(uint16(h))); ok != common || ok && got != want {
			t.Errorf("f16WidenCommon(%#04x) = %#08x, %v; want %#08x, %v", h, got, ok, want, common)
		}
	}
}

// narrowF32 (cvt.rnd.f16.f32 and cvt.rnd.bf16.f32 in every rounding mode
// on the fast lanes) gives the exact path's bits wherever it answers, for
// every exponent and sign and every pattern of the dropped bits under
// several kept significands, and answers for every normal result.
func TestNarrowF32MatchesTheExactPath(t *testing.T) {
	for _, tc := range []struct {
		dt                isa.Type
		expBits, mantBits uint
	}{{isa.F16, 5, 10}, {isa.BF16, 8, 7}} {
		drop := uint(23) - tc.mantBits
		highs := []uint32{0, 1, 0x155 & (1<<tc.mantBits - 1), 1<<tc.mantBits - 1}
		lows := 1 << drop
		step := 1
		if lows > 1<<13 {
			step = 37 // bf16 drops 16 bits: a stride through them, the midpoint and its neighbours below
		}
		for _, rnd := range []isa.Rounding{isa.RN, isa.RZ, isa.RM, isa.RP, isa.RNA} {
			in := isa.Instr{Op: isa.OpCvt, Type: tc.dt, Type2: isa.F32, Rnd: rnd}
			answered := 0
			for se := uint32(0); se < 512; se++ {
				for _, hi := range highs {
					check := func(lo uint32) {
						x := se<<23 | hi<<drop | lo
						got, ok := narrowF32(x, tc.expBits, tc.mantBits, rnd)
						if !ok {
							return
						}
						answered++
						if want := floatToFloat(&in, uint64(x)); got != want {
							t.Fatalf("cvt (rounding %d).%s.f32 of %#08x: %#x, the exact path %#x", rnd, tc.dt, x, got, want)
						}
					}
					for lo := 0; lo < lows; lo += step {
						check(uint32(lo))
					}
					for _, lo := range []uint32{1<<(drop-1) - 1, 1 << (drop - 1), 1<<(drop-1) + 1, 1<<drop - 1} {
						check(lo)
					}
				}
			}
			// Normal results: 2^expBits-2 binades of each sign.
			if min := 2 * (1<<tc.expBits - 2) * len(highs); answered < min {
				t.Errorf("%s rounding %d: answered %d inputs, want at least %d", tc.dt, rnd, answered, min)
			}
		}
	}
}
