package warp

import (
	"math"
	"math/rand"
	"testing"

	"github.com/smsim/smsim/isa"
)

// cvtLaneOperand is a random operand for the conversion loops: every f16
// pattern (as f16 or widened to f32), f32 patterns around f16's range and
// at its edges, and garbage above the low 32 bits.
func cvtLaneOperand(rng *rand.Rand) uint64 {
	h := uint16(rng.Uint32())
	var x uint32
	switch rng.Intn(5) {
	case 4: // a zero of either sign
		x = uint32(h) << 16 & 0x80000000
	case 0:
		x = uint32(h)
	case 1:
		x = math.Float32bits(F16ToF32(h))
	case 2: // the binades f16 can hold and their neighbours
		x = uint32(rng.Intn(2))<<31 | uint32(127-26+rng.Intn(70))<<23 | rng.Uint32()&0x7fffff
	default:
		x = rng.Uint32()
	}
	return uint64(x) | rng.Uint64()<<32*uint64(rng.Intn(2))
}

// The conversion loops give every lane of their mask the per-lane
// conversion's bits and leave the others, with the destination apart from
// the source and the same register.
func TestCvtLanesMatchTheirLanes(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	type form struct {
		name string
		run  func(d, a, b *Vec, mask uint32)
		lane func(a, b uint64) uint64
	}
	var forms []form
	for _, fl := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
		ftz, sat := fl[0], fl[1]
		forms = append(forms,
			form{"f16.f32", func(d, a, _ *Vec, m uint32) { f32ToF16Lanes(d, a, m, ftz, sat) },
				func(a, _ uint64) uint64 { return f32ToF16(uint32(a), ftz, sat) }},
			form{"f16x2.f32", func(d, a, b *Vec, m uint32) { f16PackLanes(d, a, b, m, ftz, sat) },
				func(a, b uint64) uint64 { return f32ToF16(uint32(a), ftz, sat)<<16 | f32ToF16(uint32(b), ftz, sat) }})
		if !ftz {
			forms = append(forms, form{"f32.f16", func(d, a, _ *Vec, m uint32) { f16ToF32Lanes(d, a, m, sat) },
				func(a, _ uint64) uint64 {
					return uint64(f32Finish(math.Float32bits(F16ToF32(uint16(a))), false, sat))
				}})
		}
	}
	for _, e := range []ext{{shift: 32}, {shift: 32, signed: true}, {shift: 48}, {shift: 48, signed: true},
		{shift: 56}, {shift: 56, signed: true}} {
		forms = append(forms, form{"f32.int", func(d, a, _ *Vec, m uint32) { intToF32Lanes(d, a, m, e) },
			func(a, _ uint64) uint64 { return uint64(math.Float32bits(float32(int64(e.of(a))))) }})
	}
	for _, dt := range []isa.Type{isa.S32, isa.U32, isa.S64, isa.U64} {
		for _, rnd := range []isa.Rounding{isa.RZI, isa.RNI} {
			for _, ftz := range []bool{false, true} {
				c := newF32ToInt(dt, rnd, ftz)
				forms = append(forms, form{"int.f32", func(d, a, _ *Vec, m uint32) { f32ToIntLanes(d, a, m, &c) },
					func(a, _ uint64) uint64 { return c.convert(uint32(a)) }})
			}
		}
	}
	for _, f := range forms {
		for i := 0; i < 2000; i++ {
			var a, b, d Vec
			for l := range a {
				a[l], b[l], d[l] = cvtLaneOperand(rng), cvtLaneOperand(rng), rng.Uint64()
			}
			mask := FullMask
			if i%3 == 1 {
				mask = rng.Uint32()
			}
			want := d
			for l := range want {
				if mask>>l&1 != 0 {
					want[l] = f.lane(a[l], b[l])
				}
			}
			got := d
			f.run(&got, &a, &b, mask)
			same := a
			f.run(&same, &same, &b, mask)
			for l := range got {
				wantSame := want[l]
				if mask>>l&1 == 0 {
					wantSame = a[l] // the run in place leaves the source there
				}
				if got[l] != want[l] || same[l] != wantSame {
					t.Fatalf("%s lane %d (mask %#x) of %#x, %#x: %#x apart, %#x in place; want %#x",
						f.name, l, mask, a[l], b[l], got[l], same[l], want[l])
				}
			}
		}
	}
}

// HADD2.F32 of -0 and a half is the half's f32 value, and of any two halves
// their sum rounded once: every half pattern against -0, +0 and random
// halves.
func TestHAdd2F32IsTheRoundedSum(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for h := 0; h < 1<<16; h += Lanes {
		for _, x := range []uint64{0x8000, 0, 0xffff8000, 0x3c00} {
			var a, b, r Vec
			for l := range a {
				a[l], b[l] = x, uint64(h+l)|rng.Uint64()<<16
				if x == 0x3c00 {
					a[l] = uint64(rng.Uint32())
				}
			}
			hadd2F32(&a, &b, &r, FullMask)
			for l := range r {
				s := float64(F16ToF32(uint16(a[l]))) + float64(F16ToF32(uint16(b[l])))
				if want := uint64(math.Float32bits(float32(s))); r[l] != want {
					t.Fatalf("HADD2.F32 of %#x and %#x: %#x, want %#x", a[l], b[l], r[l], want)
				}
			}
		}
	}
}

// HADD2.F32 with .H0_H0 (or other) selections of its register operands
// gives what the selected operands give: random registers with garbage in
// their high halves, against hadd2F32 of the operands as modOperand
// stages them.
func TestHAdd2F32SelectsItsHalves(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	sel := func(r int32, m isa.Mod) isa.Operand { return isa.Operand{Kind: isa.KReg, Reg: r, Mod: m} }
	forms := [][2]isa.Operand{
		{isa.Imm(0x8000), sel(2, isa.MH0H0)},
		{sel(1, isa.MH0H0), sel(2, isa.MH0H0)},
		{sel(1, isa.MH1H1), sel(2, isa.MH0H0)},
		{sel(1, isa.MH0H0|isa.MHNeg), isa.R(2)},
		{sel(2, isa.MH0H0), sel(2, isa.MH0H0)},
	}
	for i, f := range forms {
		in := isa.Instr{Op: isa.OpSHAdd2F32, NDst: 1, Ops: []isa.Operand{isa.R(3), f[0], f[1]}}
		w := sassWarp(in)
		for k := 0; k < 50; k++ {
			for l := 0; l < Lanes; l++ {
				w.regs[1][l], w.regs[2][l], w.regs[3][l] = rng.Uint64()&0xffffffff, rng.Uint64()&0xffffffff, 7
			}
			mask := rng.Uint32() | 1
			var a, b, want Vec
			a, b, want = *w.Operand(&in.Ops[1], 0, mask, 0), *w.Operand(&in.Ops[2], 1, mask, 0), w.regs[3]
			var r Vec
			hadd2F32(&a, &b, &r, mask)
			for l := range want {
				if mask>>l&1 != 0 {
					want[l] = r[l]
				}
			}
			w.sassFloat(&in, mask, 0)
			if w.regs[3] != want {
				t.Fatalf("form %d: %x, want %x", i, w.regs[3], want)
			}
		}
	}
}

// The packed HADD2.F32 lanes give the per-lane loop's bits: random halves,
// and every group with an infinite or NaN half, a zero, a subnormal or the
// largest half in some lane.
func TestHAdd2F32WideIsTheLaneLoop(t *testing.T) {
	if !hasF16C {
		t.Skip("the host has no packed half conversions")
	}
	rng := rand.New(rand.NewSource(9))
	specials := []uint64{0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe00, 0, 0x8000, 1, 0x8001, 0x3ff, 0x7bff, 0xfbff}
	for k := 0; k < 20000; k++ {
		var a, b, got, want Vec
		for l := range a {
			a[l], b[l] = rng.Uint64(), rng.Uint64()
			if rng.Intn(8) == 0 {
				a[l] = a[l]&^0xffff | specials[rng.Intn(len(specials))]
			}
			if rng.Intn(8) == 0 {
				b[l] = b[l]&^0xffff | specials[rng.Intn(len(specials))]
			}
		}
		hadd2F32(&a, &b, &got, FullMask)
		hadd2F32Lanes(&a, &b, &want, FullMask, allGroups)
		if got != want {
			t.Fatalf("HADD2.F32 of %x and %x: packed %x, lanes %x", a, b, got, want)
		}
	}
}

// The packed F2FP.F16.F32.PACK_AB lanes give the per-lane loop's bits
// (each half f32ToF16 to nearest): random floats of every exponent, zeros,
// the ends of f16's normal range, subnormal results, infinities and NaNs,
// with the destination apart from the operands and the same as either.
func TestF16PackWideIsTheLaneLoop(t *testing.T) {
	if !hasF16C {
		t.Skip("the host has no packed half conversions")
	}
	rng := rand.New(rand.NewSource(11))
	specials := []uint32{0, 0x80000000, 0x38800000, 0x387fffff, 0x477fefff, 0x477ff000, 0x47800000, 0x7f800000,
		0xff800000, 0x7fc00000, 0x7f800001, 0x33000000, 0x33000001, 0x00000001, 0xc77fffff}
	operand := func() uint64 {
		if rng.Intn(6) == 0 {
			return uint64(specials[rng.Intn(len(specials))]) | rng.Uint64()<<32
		}
		x := rng.Uint32()
		if rng.Intn(2) == 0 { // mostly within f16's range
			x = x&0x807fffff | uint32(100+rng.Intn(50))<<23
		}
		return uint64(x) | rng.Uint64()<<32
	}
	for k := 0; k < 20000; k++ {
		var a, b Vec
		for l := range a {
			a[l], b[l] = operand(), operand()
		}
		var want Vec
		for l := range want {
			want[l] = f32ToF16(uint32(a[l]), false, false)<<16 | f32ToF16(uint32(b[l]), false, false)
		}
		for alias := 0; alias < 3; alias++ {
			aa, bb := a, b
			d := &Vec{}
			switch alias {
			case 1:
				d = &aa
			case 2:
				d = &bb
			}
			f16PackLanes(d, &aa, &bb, FullMask, false, false)
			if *d != want {
				t.Fatalf("alias %d: F2FP.PACK_AB of %x and %x: %x, want %x", alias, a, b, *d, want)
			}
		}
	}
}

// The packed forms take every group whose lanes they answer for and leave
// exactly the groups with another lane (here lane 4g+1 of group g of
// groups), or for the forms that take eight lanes a trip the pair of
// groups of such a trip: an infinity or NaN, for the narrowing forms a
// result below f16's normal range, for the truncations |x| >= 2^31 or a
// negative x for an unsigned destination.
func TestWideFormsLeaveTheGroupsTheyCannotAnswer(t *testing.T) {
	if !hasF16C {
		t.Skip("the host has no packed half conversions")
	}
	forms := []struct {
		name  string
		odd   uint64 // what lane 4g+1 holds in a group left to the loop
		base  uint64 // every other lane
		pairs bool   // the form takes eight lanes a trip
		run   func(a *Vec) uint32
	}{
		{"f32ToF16", 0x7fc00000, 0x3f800000, true, func(a *Vec) uint32 { var d Vec; return f32ToF16Wide(&d, a) }},
		{"f32ToF16 subnormal", 0x33800000, 0xc0400000, true, func(a *Vec) uint32 { var d Vec; return f32ToF16Wide(&d, a) }},
		{"f16Pack", 0xff800000, 0x3f800000, true, func(a *Vec) uint32 { var d Vec; return f16PackWide(&d, a, a) }},
		{"f16ToF32", 0x7c00, 0x3c00, true, func(a *Vec) uint32 { var d Vec; return f16ToF32Wide(&d, a) }},
		{"f16ToF32 NaN", 0xfe00, 0x0001, true, func(a *Vec) uint32 { var d Vec; return f16ToF32Wide(&d, a) }},
		{"f16Widen high half", 0x7c00 << 16, 0x3c00<<16 | 0x7c00, true, func(a *Vec) uint32 { var d Vec; return f16WidenWide(&d, a, 16) }},
		{"hadd2F32", 0x7e00, 0x8000, false, func(a *Vec) uint32 { var r Vec; b := *a; return hadd2F32Wide(a, &b, &r) }},
		{"f32Trunc 2^31", 0x4f000000, 0xc0490fdb, true, func(a *Vec) uint32 { var d Vec; return f32TruncWide(&d, a, 0, false) }},
		{"f32Trunc NaN", 0x7fc00000, 0x4effffff, true, func(a *Vec) uint32 { var d Vec; return f32TruncWide(&d, a, 0, true) }},
		{"f32Trunc unsigned", 0x80000000, 0x40490fdb, true, func(a *Vec) uint32 { var d Vec; return f32TruncWide(&d, a, f32Sign, false) }},
	}
	for _, f := range forms {
		for _, groups := range []uint32{0, 1, 0x80, 0x5a, allGroups} {
			var a Vec
			for l := range a {
				a[l] = f.base
				if l%4 == 1 && groups>>(l/4)&1 != 0 {
					a[l] = f.odd
				}
			}
			want := groups
			if f.pairs {
				want |= groups&0x55<<1 | groups&0xaa>>1
			}
			if rest := f.run(&a); rest != want {
				t.Errorf("%s: groups %#x left to the loop, want %#x", f.name, rest, want)
			}
		}
	}
}
