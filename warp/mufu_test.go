package warp

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestMufuMatchesTheH200 holds the MUFU model to 16384 random inputs per
// function that the H200 answered (calibration/h200/mufu.cu's random sets:
// inputs the tables were not made from): ex2 over [-130, 130] and over
// random bit patterns below 1 in magnitude, rcp of random normal floats,
// rsqrt of random positive normal floats.
func TestMufuMatchesTheH200(t *testing.T) {
	for _, tc := range []struct {
		file string
		f    func(uint32) uint32
	}{
		{"ex2.rnd", mufuEx2},
		{"ex2s.rnd", mufuEx2},
		{"rcp.rnd", mufuRcp},
		{"rsq.rnd", mufuRsq},
	} {
		b, err := os.ReadFile(filepath.Join("testdata", "mufu", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for i := 0; i+8 <= len(b); i += 8 {
			x, want := binary.LittleEndian.Uint32(b[i:]), binary.LittleEndian.Uint32(b[i+4:])
			if got := tc.f(x); got != want {
				if bad < 5 {
					t.Errorf("%s: x = %08x (%g): got %08x, the H200 %08x", tc.file, x, math.Float32frombits(x), got, want)
				}
				bad++
			}
		}
		if bad > 0 || len(b) < 8*16384 {
			t.Errorf("%s: %d of %d differ", tc.file, bad, len(b)/8)
		}
	}
}

// The special operands: NaN in, the canonical NaN out; infinities and
// zeros as IEEE 754 limits give them; subnormal inputs read as zeros.
func TestMufuSpecialOperands(t *testing.T) {
	const nan, inf, ninf, one = 0x7fffffff, 0x7f800000, 0xff800000, 0x3f800000
	for _, tc := range []struct {
		name string
		f    func(uint32) uint32
		x    uint32
		want uint32
	}{
		{"ex2 NaN", mufuEx2, 0x7fc00001, nan},
		{"ex2 +inf", mufuEx2, inf, inf},
		{"ex2 -inf", mufuEx2, ninf, 0},
		{"ex2 +0", mufuEx2, 0, one},
		{"ex2 -0", mufuEx2, 0x80000000, one},
		{"ex2 subnormal", mufuEx2, 1, one},
		{"ex2 128", mufuEx2, 0x43000000, inf},
		{"ex2 -127", mufuEx2, 0xc2fe0000, 0},
		{"ex2 1", mufuEx2, one, 0x40000000},
		{"rcp +0", mufuRcp, 0, inf},
		{"rcp -0", mufuRcp, 0x80000000, ninf},
		{"rcp subnormal", mufuRcp, 0x80000001, ninf},
		{"rcp +inf", mufuRcp, inf, 0},
		{"rcp -inf", mufuRcp, ninf, 0x80000000},
		{"rcp 2^127", mufuRcp, 0x7f000000, 0},
		{"rcp 2", mufuRcp, 0x40000000, 0x3f000000},
		{"rcp NaN", mufuRcp, 0xffc00000, nan},
		{"rsqrt +0", mufuRsq, 0, inf},
		{"rsqrt -0", mufuRsq, 0x80000000, ninf},
		{"rsqrt -1", mufuRsq, 0xbf800000, nan},
		{"rsqrt +inf", mufuRsq, inf, 0},
		{"rsqrt 4", mufuRsq, 0x40800000, 0x3f000000},
		{"rsqrt 1", mufuRsq, one, one},
		{"div.approx NaN dividend", func(x uint32) uint32 { return mufuDiv(x, 0x40000000, false) }, 0x7ff38479, nan},
		{"div.approx NaN divisor", func(x uint32) uint32 { return mufuDiv(one, x, false) }, 0xffe3fc3c, nan},
		{"div.approx.ftz NaN dividend", func(x uint32) uint32 { return mufuDiv(x, one, true) }, 0xffd8d88a, nan},
		{"div.approx 1/2", func(x uint32) uint32 { return mufuDiv(one, x, false) }, 0x40000000, 0x3f000000},
	} {
		if got := tc.f(tc.x); got != tc.want {
			t.Errorf("%s: got %08x, want %08x", tc.name, got, tc.want)
		}
	}
}

// The tables decode to their grids' sizes, monotonic, from the values
// at their ends: 2^0 and 2^(1-2^-23), 2^(-2^-23) and 2^-1, 1/1 and
// 1/(2-2^-23), 1/sqrt(1) and 1/sqrt(4-2^-22).
func TestMufuTablesDecode(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n           int
		first, last float64
	}{
		{"ex2_pos", 1 << 23, 1, math.Exp2(1 - 0x1p-23)},
		{"ex2_neg", 1 << 23, math.Exp2(-0x1p-23), 0.5},
		{"rcp", 1 << 23, 1, 1 / (2 - 0x1p-23)},
		{"rsq", 1 << 24, 1, 1 / math.Sqrt(4-0x1p-22)},
	} {
		v, err := decodeMufu(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		if len(v) != tc.n {
			t.Fatalf("%s: %d entries, want %d", tc.name, len(v), tc.n)
		}
		for _, end := range []struct {
			got  uint32
			want float64
		}{{v[0], tc.first}, {v[len(v)-1], tc.last}} {
			if d := float64(math.Float32frombits(end.got)) - end.want; math.Abs(d) > 2*math.Abs(end.want)*0x1p-23 {
				t.Errorf("%s: end value %g, want %g", tc.name, math.Float32frombits(end.got), end.want)
			}
		}
	}
}

// stepSums, the tables' decoder, gives the running sum of the steps taken one
// at a time, rising and falling, for lengths that end inside a byte.
func TestMufuStepSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	steps := make([]byte, 64)
	for i := range steps {
		steps[i] = byte(rng.Uint32())
	}
	for _, falling := range []bool{false, true} {
		for n := 0; n <= 4*len(steps); n++ {
			got := make([]uint32, n)
			stepSums(got, 1000, steps, falling)
			cur := uint32(1000)
			for k := 0; k < n; k++ {
				s := uint32(steps[k/4]>>(2*(k%4))) & 3
				if falling {
					cur -= s
				} else {
					cur += s
				}
				if got[k] != cur {
					t.Fatalf("falling %v, %d steps: entry %d is %d, want %d", falling, n, k, got[k], cur)
				}
			}
		}
	}
}

// The blocks a table is kept in give every entry of its full expansion
// (every entry in a full run, a stride of them in -short).
func TestMufuBlocksMatchTheExpandedTables(t *testing.T) {
	stride := 1
	if testing.Short() {
		stride = 97
	}
	for _, tbl := range []*mufuTable{tblEx2Pos, tblEx2Neg, tblRcp, tblRsq} {
		want, err := decodeMufu(tbl.name)
		if err != nil {
			t.Fatal(err)
		}
		tbl.at(0)
		if int(tbl.n) != len(want) {
			t.Fatalf("%s: %d entries, want %d", tbl.name, tbl.n, len(want))
		}
		for k := 0; k < len(want); k += stride {
			if got := tbl.at(uint32(k)); got != want[k] {
				t.Fatalf("%s: entry %d is %#x, want %#x", tbl.name, k, got, want[k])
			}
		}
		if last := len(want) - 1; tbl.at(uint32(last)) != want[last] {
			t.Fatalf("%s: last entry %#x, want %#x", tbl.name, tbl.at(uint32(last)), want[last])
		}
	}
}

// sum2 sums the 2-bit fields of a word.
func TestMufuSum2(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 1000 {
		w := rng.Uint64()
		want := uint32(0)
		for k := 0; k < 32; k++ {
			want += uint32(w>>(2*k)) & 3
		}
		if got := sum2(w); got != want {
			t.Fatalf("steps %#x sum to %d, want %d", w, got, want)
		}
	}
}

// mufuEx2Lanes gives mufuEx2 in every lane of its mask and leaves the
// others: inputs of every exponent and sign, zeros, subnormals, infinities
// and NaNs, on full and partial masks.
func TestMufuEx2LanesIsMufuEx2(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	edge := []uint32{0, mufuSign, 1, mufuSign | 1, 0x7fffff, mufuInf, mufuSign | mufuInf, mufuNaN, 0x7f800001,
		0xffc00000, 0x3f800000, 0xbf800000, 0x43000000, 0xc3000000, 0x42fe0000, 0xc2fc0000, 0xc3160000, 0x33000000, 0xb3000000}
	for i := 0; i < 20000; i++ {
		var a, d Vec
		for l := range a {
			switch rng.IntN(4) {
			case 0:
				a[l] = uint64(edge[rng.IntN(len(edge))])
			case 1:
				a[l] = uint64(rng.Uint32())
			default: // exponents around the table's range: |x| from 2^-30 to 2^10
				a[l] = uint64(rng.Uint32()&0x807fffff | uint32(97+rng.IntN(40))<<23)
			}
			d[l] = 0xdead
		}
		mask := rng.Uint32()
		if i%2 == 0 {
			mask = ^uint32(0)
		}
		mufuEx2Lanes(&d, &a, mask)
		for l := range d {
			want := uint64(0xdead)
			if mask>>l&1 != 0 {
				want = uint64(mufuEx2(uint32(a[l])))
			}
			if d[l] != want {
				t.Fatalf("lane %d, x %#x: %#x, want %#x", l, a[l], d[l], want)
			}
		}
	}
}

// The packed EX2 lanes write every trip of eight lanes without a NaN input,
// with mufuEx2's bits, in place too, and leave exactly the trips with one.
func TestMufuEx2WideLeavesTheTripsWithANaN(t *testing.T) {
	if !hasAVX2 {
		t.Skip("the host has no AVX2")
	}
	tblEx2Pos.once.Do(tblEx2Pos.load)
	tblEx2Neg.once.Do(tblEx2Neg.load)
	rng := rand.New(rand.NewPCG(7, 3))
	for _, trips := range []uint32{0, 1, 0x8, 0x5, 0xf} {
		var a Vec
		for l := range a {
			a[l] = uint64(rng.Uint32()&0x807fffff | uint32(110+rng.IntN(30))<<23)
			if trips>>(l/8)&1 != 0 && l%8 == 3 {
				a[l] = 0x7fc00001
			}
		}
		want := uint32(0)
		for tr := range 4 {
			if trips>>tr&1 != 0 {
				want |= 0xff << (8 * tr)
			}
		}
		d, same := Vec{}, a
		for l := range d {
			d[l] = 0xdead
		}
		rest := mufuEx2Wide(&d, &a, tblEx2Pos, tblEx2Neg)
		restSame := mufuEx2Wide(&same, &same, tblEx2Pos, tblEx2Neg)
		if rest != want || restSame != want {
			t.Fatalf("trips %#x: lanes %#x and %#x in place left, want %#x", trips, rest, restSame, want)
		}
		for l := range d {
			wantD, wantSame := uint64(mufuEx2(uint32(a[l]))), uint64(mufuEx2(uint32(a[l])))
			if want>>l&1 != 0 {
				wantD, wantSame = 0xdead, a[l]
			}
			if d[l] != wantD || same[l] != wantSame {
				t.Fatalf("trips %#x lane %d, x %#x: %#x and %#x in place, want %#x and %#x",
					trips, l, a[l], d[l], same[l], wantD, wantSame)
			}
		}
	}
}
