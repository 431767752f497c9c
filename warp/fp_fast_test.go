package warp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// A fastCase is an instruction form of the fast lanes: its sources (r1,
// r2, r3 into r0, or into r1 when aliased) and their generators.
type fastCase struct {
	name string
	in   isa.Instr
	gens []bitsGen
}

func form(op isa.Op, t isa.Type, rnd isa.Rounding, fl isa.Flags, gens ...bitsGen) fastCase {
	in := isa.Instr{Op: op, Type: t, Rnd: rnd, Flags: fl, NDst: 1, Ops: []isa.Operand{isa.R(0)}}
	for i := range gens {
		in.Ops = append(in.Ops, isa.R(i+1))
	}
	name := op.String() + rndName(rnd) + flagName(fl) + "." + t.String()
	return fastCase{name: name, in: in, gens: gens}
}

func cvtForm(dt, st isa.Type, rnd isa.Rounding, fl isa.Flags, g bitsGen) fastCase {
	c := form(isa.OpCvt, dt, rnd, fl, g)
	c.in.Type2 = st
	c.name += "." + st.String()
	return c
}

func rndName(r isa.Rounding) string {
	return map[isa.Rounding]string{isa.RN: ".rn", isa.RZ: ".rz", isa.RM: ".rm", isa.RP: ".rp", isa.RNI: ".rni",
		isa.RZI: ".rzi", isa.RMI: ".rmi", isa.RPI: ".rpi"}[r]
}

func flagName(f isa.Flags) string {
	s := ""
	if f.Has(isa.FFtz) {
		s += ".ftz"
	}
	if f.Has(isa.FSat) {
		s += ".sat"
	}
	if f.Has(isa.FNaN) {
		s += ".NaN"
	}
	if f.Has(isa.FApprox) {
		s += ".approx"
	}
	return s
}

// fastCases lists every form the fast lanes take, in each of its flag
// combinations.
func fastCases() []fastCase {
	var cs []fastCase
	g3 := []bitsGen{f32Gen, f32Gen, f32Gen}
	for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat, isa.FFtz | isa.FSat} {
		for _, rnd := range []isa.Rounding{isa.RNone, isa.RN} {
			for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpMul, isa.OpDiv} {
				cs = append(cs, form(op, isa.F32, rnd, fl, g3[:2]...))
			}
			cs = append(cs, form(isa.OpFma, isa.F32, rnd, fl, g3...), form(isa.OpMad, isa.F32, rnd, fl, g3...))
			cs = append(cs, form(isa.OpSqrt, isa.F32, rnd, fl, f32Gen), form(isa.OpRcp, isa.F32, rnd, fl, f32Gen))
		}
		cs = append(cs, form(isa.OpAbs, isa.F32, 0, fl, f32Gen), form(isa.OpNeg, isa.F32, 0, fl, f32Gen))
		for _, op := range []isa.Op{isa.OpEx2, isa.OpLg2, isa.OpRsqrt, isa.OpSin, isa.OpCos, isa.OpTanh} {
			cs = append(cs, form(op, isa.F32, 0, fl|isa.FApprox, f32Gen))
		}
		for _, t := range []isa.Type{isa.F16, isa.F16x2, isa.BF16, isa.BF16x2} {
			g := map[isa.Type]bitsGen{isa.F16: f16Gen, isa.BF16: bf16Gen, isa.F16x2: pairGen(f16Gen), isa.BF16x2: pairGen(bf16Gen)}[t]
			for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpMul} {
				cs = append(cs, form(op, t, isa.RN, fl, g, g))
			}
			cs = append(cs, form(isa.OpFma, t, isa.RN, fl, g, g, g))
		}
		pack := cvtForm(isa.F16x2, isa.F32, isa.RN, fl, f32Gen)
		pack.in.Ops, pack.gens = append(pack.in.Ops, isa.R(2)), append(pack.gens, f32Gen)
		cs = append(cs,
			cvtForm(isa.F16, isa.F32, isa.RN, fl, f32Gen),
			cvtForm(isa.F32, isa.F16, isa.RNone, fl, f16Gen), pack)
		for _, dt := range []isa.Type{isa.S32, isa.U32, isa.S64, isa.U64} {
			for _, rnd := range []isa.Rounding{isa.RNone, isa.RZI, isa.RNI, isa.RMI, isa.RPI} {
				cs = append(cs, cvtForm(dt, isa.F32, rnd, fl&isa.FFtz, f32Gen))
			}
		}
	}
	for _, fl := range []isa.Flags{0, isa.FFtz, isa.FNaN, isa.FFtz | isa.FNaN} {
		cs = append(cs, form(isa.OpMin, isa.F32, 0, fl, f32Gen, f32Gen), form(isa.OpMax, isa.F32, 0, fl, f32Gen, f32Gen))
	}
	for _, st := range []isa.Type{isa.S32, isa.U32, isa.S16, isa.U16, isa.S8, isa.U8} {
		cs = append(cs, cvtForm(isa.F32, st, isa.RN, 0, intGen(uint(st.Bits()))),
			cvtForm(isa.F32, st, isa.RNone, isa.FFtz, intGen(uint(st.Bits()))))
	}
	cs = append(cs, cvtForm(isa.F32, isa.BF16, isa.RNone, 0, bf16Gen))
	for _, dt := range []isa.Type{isa.F16, isa.BF16} {
		for _, rnd := range []isa.Rounding{isa.RN, isa.RZ, isa.RM, isa.RP} {
			for _, fl := range []isa.Flags{0, isa.FFtz} {
				cs = append(cs, cvtForm(dt, isa.F32, rnd, fl, f32Gen))
			}
		}
	}
	return cs
}

// fillBoth gives the fast and the exact warp the same random registers: c's
// operands in r1..r3 (every eighth lane with garbage above 32 bits),
// random bits elsewhere.
func fillBoth(rng *rand.Rand, c *fastCase, fast, exact *Warp) {
	for r := 0; r < 4; r++ {
		for l := 0; l < Lanes; l++ {
			v := rng.Uint64()
			if r > 0 && r <= len(c.gens) {
				v = c.gens[r-1](rng)
				if l%8 == 7 { // bits above the operand's width, which neither path may read
					v |= rng.Uint64() << 32
				}
			}
			fast.regs[r][l], exact.regs[r][l] = v, v
		}
	}
}

// checkFastCase runs c over n lanes' worth of random operands, with full
// and partial masks, the destination apart from the sources and aliasing
// the first, and fails t at the first lane the fast lanes and the exact
// path disagree on.
func checkFastCase(t *testing.T, rng *rand.Rand, c fastCase, n int) {
	t.Helper()
	prog := &isa.Program{NumRegs: 4, NumPreds: 2, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	fast, exact := New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{})
	aliased := c.in
	aliased.Ops = append([]isa.Operand{isa.R(1)}, c.in.Ops[1:]...)
	for i := 0; i < n/Lanes; i++ {
		in := &c.in
		if i%4 == 3 {
			in = &aliased
		}
		mask := FullMask
		if i%8 == 5 {
			mask = rng.Uint32()
		}
		fillBoth(rng, &c, fast, exact)
		before := exact.regs[1]
		if !fast.fastFloat(in, mask, 0) {
			t.Fatalf("%s: not taken by the fast lanes", c.name)
		}
		if ok, err := exact.execExact(in, mask, 0); !ok || err != nil {
			t.Fatalf("%s: the exact path did not run it (%v)", c.name, err)
		}
		d := in.Ops[0].Reg
		for l := 0; l < Lanes; l++ {
			if got, want := fast.regs[d][l], exact.regs[d][l]; got != want {
				var ops []uint64
				for r := 1; r <= len(c.gens); r++ {
					ops = append(ops, exact.regs[r][l])
				}
				if d == 1 {
					ops[0] = before[l]
				}
				t.Fatalf("%s lane %d (mask %#x) operands %#x: fast %#x, exact %#x", c.name, l, mask, ops, got, want)
			}
		}
	}
}

// TestFastFloatMatchesTheExactPath holds every fast form (about 270 of
// them) to the exact path on 64 Ki lanes of random and edge operands each
// (4 Ki under -short).
func TestFastFloatMatchesTheExactPath(t *testing.T) {
	n := 1 << 16
	if testing.Short() {
		n = 1 << 12
	}
	for k, c := range fastCases() {
		t.Run(c.name, func(t *testing.T) {
			checkFastCase(t, rand.New(rand.NewPCG(uint64(k), 7)), c, n)
		})
	}
}

// hazardGen returns fma operands whose float64 sum lands on a midpoint of
// the result format while the exact sum lies off it (or on it): the double
// rounding the fast lanes must settle. Operand k of three is returned by
// the k-th call, so the three generators share one draw.
type hazardGen struct {
	draw func(rng *rand.Rand) [3]uint64
	cur  [3]uint64
}

func (h *hazardGen) gens() []bitsGen {
	return []bitsGen{
		func(rng *rand.Rand) uint64 { h.cur = h.draw(rng); return h.cur[0] },
		func(*rand.Rand) uint64 { return h.cur[1] },
		func(*rand.Rand) uint64 { return h.cur[2] },
	}
}

// f32Midpoint: x*y is an odd 25-bit integer times a power of two (an f32
// midpoint, x = A 2^e with A odd and 3A < 2^25, y = 3 2^f), and z is either
// zero (a tie to even) or far below its last bit (a sum just off the
// midpoint, which float64 rounds onto it).
func f32Midpoint(rng *rand.Rand) [3]uint64 {
	a := float64(1<<23 + 2*rng.IntN((1<<25/3-1<<23)/2) + 1)
	e := rng.IntN(160) - 90
	x := signed(rng, math.Ldexp(a, e-23))
	y := signed(rng, math.Ldexp(3, rng.IntN(40)-20))
	z := 0.0
	if rng.IntN(4) != 0 {
		z = signed(rng, math.Ldexp(1+float64(rng.IntN(1<<10)), int(math.Floor(math.Log2(math.Abs(x*y))))-80+rng.IntN(20)))
	}
	return [3]uint64{f32Of(x), f32Of(y), f32Of(z)}
}

// f32SubnormalMidpoint: x*y = (2^40 - 1) 2^-190, just below 2^-150 (half
// the smallest subnormal), plus a subnormal z: float64 rounds the sum onto z's
// midpoint with the next subnormal.
func f32SubnormalMidpoint(rng *rand.Rand) [3]uint64 {
	k := rng.IntN(40) + 75
	x := signed(rng, math.Ldexp(1<<20+1, -k))
	y := signed(rng, math.Ldexp(1<<20-1, -(190-k)))
	z := signed(rng, math.Ldexp(float64(rng.IntN(1<<23)), -149))
	if rng.IntN(2) == 0 { // or a product of a subnormal and a small integer, below any midpoint
		x, y = math.Ldexp(float64(rng.IntN(64)), -149), float64(rng.IntN(1<<10))
	}
	return [3]uint64{f32Of(x), f32Of(y), f32Of(z)}
}

// f32OverflowMidpoint: x*y = 2^103 (2^25 - 1), the midpoint between the
// largest finite f32 and 2^128, plus a tiny z on either side.
func f32OverflowMidpoint(rng *rand.Rand) [3]uint64 {
	x := signed(rng, math.Ldexp(31*601, 60))
	y := math.Copysign(math.Ldexp(1801, 43), x)
	z := signed(rng, math.Ldexp(1, rng.IntN(60)))
	if rng.IntN(4) == 0 {
		z = 0
	}
	return [3]uint64{f32Of(x), f32Of(y), f32Of(z)}
}

// bf16Midpoint is f32Midpoint for bf16: A odd, 3A < 2^9.
func bf16Midpoint(rng *rand.Rand) [3]uint64 {
	a := float64(1<<7 + 2*rng.IntN((1<<9/3-1<<7)/2) + 1)
	e := rng.IntN(200) - 100
	x := signed(rng, math.Ldexp(a, e-7))
	y := signed(rng, math.Ldexp(3, rng.IntN(40)-20))
	z := 0.0
	if rng.IntN(4) != 0 {
		z = signed(rng, math.Ldexp(1+float64(rng.IntN(64)), int(math.Floor(math.Log2(math.Abs(x*y))))-70+rng.IntN(20)))
	}
	return [3]uint64{bf16Of(x), bf16Of(y), bf16Of(z)}
}

// TestFastFmaSettlesDoubleRounding holds fma to the exact path where
// rounding the float64 sum again would be wrong: two million lanes of
// f32 and bf16 midpoints, normal, subnormal and at overflow (a quarter
// under -short).
func TestFastFmaSettlesDoubleRounding(t *testing.T) {
	n := 1 << 19
	if testing.Short() {
		n = 1 << 17
	}
	for k, tc := range []struct {
		name string
		t    isa.Type
		draw func(*rand.Rand) [3]uint64
	}{
		{"f32 midpoint", isa.F32, f32Midpoint},
		{"f32 subnormal midpoint", isa.F32, f32SubnormalMidpoint},
		{"f32 overflow midpoint", isa.F32, f32OverflowMidpoint},
		{"bf16 midpoint", isa.BF16, bf16Midpoint},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &hazardGen{draw: tc.draw}
			for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat} {
				c := form(isa.OpFma, tc.t, isa.RN, fl, h.gens()...)
				checkFastCase(t, rand.New(rand.NewPCG(uint64(k), uint64(fl))), c, n/3)
			}
		})
	}
}

// The examples the hazard generators are built on, worked by hand.
func TestFastFmaMidpointExamples(t *testing.T) {
	for _, tc := range []struct {
		name    string
		a, b, c uint64
		want    uint64
	}{
		{"a midpoint with nothing added ties to even", f32Of(1<<23 + 1), f32Of(3), 0, f32Of(25165828)},
		{"a midpoint plus a tiny addend rounds up", f32Of(1<<23 + 1), f32Of(3), f32Of(0x1p-40), f32Of(25165828)},
		{"a midpoint minus a tiny addend rounds down", f32Of(1<<23 + 1), f32Of(3), f32Of(-0x1p-40), f32Of(25165826)},
		{"just below 2^-150 plus an odd subnormal rounds down",
			f32Of(math.Ldexp(1<<20+1, -95)), f32Of(math.Ldexp(1<<20-1, -95)), 3, 3},
		{"just below the overflow midpoint stays finite",
			f32Of(math.Ldexp(31*601, 60)), f32Of(math.Ldexp(1801, 43)), f32Of(-1), 0x7f7fffff},
		{"at the overflow midpoint overflows", f32Of(math.Ldexp(31*601, 60)), f32Of(math.Ldexp(1801, 43)), 0, 0x7f800000},
	} {
		c := fastCase{name: tc.name, in: form(isa.OpFma, isa.F32, isa.RN, 0, f32Gen, f32Gen, f32Gen).in}
		prog := &isa.Program{NumRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
		w := New(0, 0, prog, FullMask, Env{})
		w.regs[1][0], w.regs[2][0], w.regs[3][0] = tc.a, tc.b, tc.c
		if !w.fastFloat(&c.in, 1, 0) {
			t.Fatalf("%s: not taken by the fast lanes", tc.name)
		}
		if got := w.regs[0][0]; got != tc.want {
			t.Errorf("%s: got %#x, want %#x", tc.name, got, tc.want)
		}
		if want := (fop{op: isa.OpFma, rnd: isa.RN}).narrow(&fmtF32, tc.a, tc.b, tc.c); want != tc.want {
			t.Errorf("%s: the exact path gives %#x, the example says %#x", tc.name, want, tc.want)
		}
	}
}

// roundNearest, given a float64 s and the rest err of an exact value, is
// the exact path's rounding of that value: round to odd (nudgeOdd), then to
// nearest. Checked for each narrow format on ties, their neighbours,
// subnormals and overflow, with err zero, positive and negative.
func TestRoundNearestMatchesTheExactRounding(t *testing.T) {
	n := 1 << 20
	if testing.Short() {
		n = 1 << 16
	}
	for _, f := range []*ffmt{&fmtF32, &fmtF16, &fmtBF16} {
		rng := rand.New(rand.NewPCG(uint64(f.width), uint64(f.mant)))
		for i := 0; i < n; i++ {
			s := randomFloat64(rng, f)
			err := []float64{0, 0x1p-60, -0x1p-60}[rng.IntN(3)] * math.Abs(s)
			want := f.encode(f.round(nudgeOdd(s, err), isa.RN))
			if got := f.roundNearest(s, err); got != want {
				t.Fatalf("%v: roundNearest(%x, %x) = %#x, want %#x", f.t, s, err, got, want)
			}
		}
	}
}

// Forms the fast lanes leave to the exact path: directed rounding of
// arithmetic, conversions they do not cover, f64, packed min/max.
func TestFastFloatLeavesTheRestToTheExactPath(t *testing.T) {
	g := []bitsGen{f32Gen, f32Gen, f32Gen}
	for _, c := range []fastCase{
		form(isa.OpAdd, isa.F32, isa.RZ, 0, g[:2]...),
		form(isa.OpMul, isa.F32, isa.RP, 0, g[:2]...),
		form(isa.OpFma, isa.F32, isa.RM, 0, g...),
		form(isa.OpDiv, isa.F32, isa.RZ, 0, g[:2]...),
		form(isa.OpFma, isa.F64, isa.RN, 0, g...),
		form(isa.OpFma, isa.F16x2, isa.RZ, 0, g...),
		form(isa.OpMax, isa.F16x2, 0, 0, g[:2]...),
		cvtForm(isa.F16, isa.F32, isa.RZ, isa.FSat, f32Gen),
		cvtForm(isa.F32, isa.F64, isa.RN, 0, f32Gen),
		cvtForm(isa.F32, isa.S64, isa.RN, 0, f32Gen),
		cvtForm(isa.F32, isa.U32, isa.RZ, 0, f32Gen),
		cvtForm(isa.F32, isa.S32, isa.RN, isa.FSat, f32Gen),
		cvtForm(isa.F32, isa.F32, isa.RNI, 0, f32Gen),
	} {
		prog := &isa.Program{NumRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
		if New(0, 0, prog, FullMask, Env{}).fastFloat(&c.in, FullMask, 0) {
			t.Errorf("%s: taken by the fast lanes", c.name)
		}
	}
}

// FuzzFastFloat holds a fast form (picked by the first input) to the exact
// path on operands a, b, c in every lane, each lane's perturbed by its
// index in its low bits or sign.
func FuzzFastFloat(f *testing.F) {
	cases := fastCases()
	f.Add(uint16(0), uint32(0x3f800000), uint32(0x33800000), uint32(0))
	f.Add(uint16(16), uint32(0x4b000001), uint32(0x40400000), uint32(0x2f800000))
	f.Add(uint16(16), uint32(0x13800008), uint32(0x207ffff0), uint32(0x806bcd29))
	f.Add(uint16(40), uint32(0x3c003c00), uint32(0x7c000001), uint32(0x8001ffff))
	prog := &isa.Program{NumRegs: 4, NumPreds: 2, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	fast, exact := New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{})
	f.Fuzz(func(t *testing.T, k uint16, a, b, c uint32) {
		cs := cases[int(k)%len(cases)]
		for l := 0; l < Lanes; l++ {
			p := uint64(l&7) | uint64(l>>3)<<31
			for r, v := range []uint32{a, b, c} {
				fast.regs[r+1][l], exact.regs[r+1][l] = uint64(v)^p, uint64(v)^p
			}
		}
		if !fast.fastFloat(&cs.in, FullMask, 0) {
			t.Fatalf("%s: not taken by the fast lanes", cs.name)
		}
		if ok, err := exact.execExact(&cs.in, FullMask, 0); !ok || err != nil {
			t.Fatalf("%s: the exact path did not run it (%v)", cs.name, err)
		}
		if fast.regs[0] != exact.regs[0] {
			for l := 0; l < Lanes; l++ {
				if fast.regs[0][l] != exact.regs[0][l] {
					t.Fatalf("%s lane %d operands %#x %#x %#x: fast %#x, exact %#x", cs.name, l,
						exact.regs[1][l], exact.regs[2][l], exact.regs[3][l], fast.regs[0][l], exact.regs[0][l])
				}
			}
		}
	})
}
