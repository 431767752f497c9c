package warp

import (
	"bytes"
	"compress/gzip"
	"embed"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sync"

	"github.com/smsim/smsim/isa"
)

// The multi-function unit's (MUFU) ex2, rcp and rsqrt, bit for bit as the
// H200 computes them. calibration/h200/mufu.cu measured every result on a
// grid of inputs (warp/internal/mufugen makes the tables from its output),
// and 2^19 random inputs beyond the grids showed the rule that extends
// them (TestMufuMatchesTheH200 holds the model to a sample of them):
//
//   - ex2: |x| is truncated to a multiple of 2^-23 (a fixed-point fraction of
//     23 bits, sign and magnitude); x = ±(n + f) gives 2^±n times the
//     table's 2^f (x ≥ 0) or 2^-f (x < 0), each measured for every f;
//   - rcp: the result's significand depends on x's alone (all 2^23 measured),
//     its exponent is the negated one;
//   - rsqrt: on the significand and the exponent's parity (2^24 measured).
//
// The unit flushes subnormal inputs and results to zero. lg2, sin, cos and
// tanh are not tabled: they are evaluated to nearest (fp_arith.go approx).

//go:embed mufu/*.tbl
var mufuFiles embed.FS

// mufuTable is one measured table, kept as its file has it: a running sum
// of 2-bit steps (each entry differs from the one before by 0 to 3 units
// in the last place, in one direction), with the sum at the start of every
// block of 64 entries. An entry is its block's sum plus the steps before it
// in the block, a pair of popcounts: 3 MiB for a table of 2^23 entries,
// against 32 MiB expanded, which a kernel's random lookups (softmax's ex2)
// missed the host's caches on.
type mufuTable struct {
	once    sync.Once
	name    string
	n       uint32
	falling bool // each entry is at most the one before it (the steps are subtracted)
	blocks  []mufuBlock
}

// mufuBlock is 64 entries of a table: the values of its first and its 33rd
// entry and the 64 steps that follow the first (two bits each, the lowest
// first), 24 bytes.
type mufuBlock struct {
	steps     [2]uint64
	base, mid uint32
}

var (
	tblEx2Pos = &mufuTable{name: "ex2_pos"}
	tblEx2Neg = &mufuTable{name: "ex2_neg"}
	tblRcp    = &mufuTable{name: "rcp"}
	tblRsq    = &mufuTable{name: "rsq"}
)

// at returns entry k, decoding the table on first use (made only by a
// kernel that uses the function).
func (t *mufuTable) at(k uint32) uint32 {
	t.once.Do(t.load)
	return t.entry(k)
}

// entry is entry k of a loaded table: the value at the start of its half
// block, moved by the steps before it in that half.
func (t *mufuTable) entry(k uint32) uint32 {
	b := &t.blocks[k>>6]
	j := k & 63
	v, w := b.base, b.steps[0]
	if j >= 32 {
		v, w, j = b.mid, b.steps[1], j-32
	}
	s := sum2(w & (1<<(2*j) - 1))
	if t.falling {
		return v - s
	}
	return v + s
}

// touch reads the block of entry k of a loaded table and returns a word
// of it, so that a later entry(k) finds it in the host's cache.
func (t *mufuTable) touch(k uint32) uint32 { return t.blocks[k>>6].base }

// load decodes the embedded table.
func (t *mufuTable) load() {
	n, first, falling, steps, err := readMufu(t.name)
	if err != nil {
		panic(fmt.Sprintf("warp: MUFU table %s: %v", t.name, err)) // the embedded data is part of the build
	}
	t.n, t.falling = n, falling
	t.blocks = mufuBlocks(n, first, falling, steps)
}

// mufuBlocks groups n entries, from first by steps, into blocks of 64.
func mufuBlocks(n, first uint32, falling bool, steps []byte) []mufuBlock {
	nb := (n + 63) / 64
	padded := make([]byte, 16*nb)
	copy(padded, steps)
	blocks := make([]mufuBlock, nb)
	cur := first
	move := func(s uint32) uint32 {
		if falling {
			return cur - s
		}
		return cur + s
	}
	for i := range blocks {
		b := &blocks[i]
		b.steps[0] = binary.LittleEndian.Uint64(padded[16*i:])
		b.steps[1] = binary.LittleEndian.Uint64(padded[16*i+8:])
		b.base = cur
		cur = move(sum2(b.steps[0]))
		b.mid = cur
		cur = move(sum2(b.steps[1]))
	}
	return blocks
}

// sum2 is the sum of the 32 2-bit fields of x.
func sum2(x uint64) uint32 {
	return uint32(bits.OnesCount64(x) + bits.OnesCount64(x&0xaaaaaaaaaaaaaaaa))
}

// readMufu reads a table file: its entry count, first entry, direction and
// steps (n-1 of them, four a byte).
func readMufu(name string) (n, first uint32, falling bool, steps []byte, err error) {
	b, err := mufuFiles.ReadFile("mufu/" + name + ".tbl")
	if err != nil {
		return 0, 0, false, nil, err
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return 0, 0, false, nil, err
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return 0, 0, false, nil, err
	}
	if len(raw) < 9 {
		return 0, 0, false, nil, fmt.Errorf("%d bytes", len(raw))
	}
	n = binary.LittleEndian.Uint32(raw)
	first = binary.LittleEndian.Uint32(raw[4:])
	steps = raw[9:]
	if n == 0 || uint64(len(steps))*4 < uint64(n)-1 {
		return 0, 0, false, nil, fmt.Errorf("%d steps for %d entries", len(steps)*4, n)
	}
	return n, first, raw[8] == 1, steps, nil
}

// decodeMufu expands a table to every entry (the reference the blocks are
// tested against).
func decodeMufu(name string) ([]uint32, error) {
	n, first, falling, steps, err := readMufu(name)
	if err != nil {
		return nil, err
	}
	v := make([]uint32, n)
	v[0] = first
	stepSums(v[1:], first, steps, falling)
	return v, nil
}

// stepSums writes to v the running sum from cur of the 2-bit steps (four a
// byte, the lowest first), each added, or subtracted if falling: a whole
// byte of steps at a time, then the steps of a last partial byte.
func stepSums(v []uint32, cur uint32, steps []byte, falling bool) {
	sign := uint32(1)
	if falling {
		sign = ^uint32(0) // -1: cur + sign*s is cur - s
	}
	whole := len(v) / 4
	for i, b := range steps[:whole] {
		q := v[4*i : 4*i+4 : 4*i+4]
		s := uint32(b)
		q[0] = cur + sign*(s&3)
		q[1] = q[0] + sign*(s>>2&3)
		q[2] = q[1] + sign*(s>>4&3)
		q[3] = q[2] + sign*(s>>6)
		cur = q[3]
	}
	for k := 4 * whole; k < len(v); k++ {
		cur += sign * (uint32(steps[k/4]>>(2*(k%4))) & 3)
		v[k] = cur
	}
}

const (
	mufuSign = 0x80000000
	mufuInf  = 0x7f800000
	mufuNaN  = 0x7fffffff // the NaN NVIDIA GPUs return
)

// withExponent gives the float of bits p (a normal float) scaled by 2^n,
// flushed to zero below the normal range and infinite above it.
func withExponent(p uint32, n int64) uint32 {
	e := int64(p>>23&0xff) + n
	switch {
	case e <= 0:
		return p & mufuSign
	case e >= 255:
		return p&mufuSign | mufuInf
	}
	return p&(mufuSign|0x7fffff) | uint32(e)<<23
}

// mufuEx2 is MUFU.EX2 of the float x (bits).
func mufuEx2(x uint32) uint32 {
	t, k, n, r := ex2Split(x)
	if t == nil {
		return r
	}
	return withExponent(t.at(k), n)
}

// ex2Split splits MUFU.EX2 of x into its table t, the entry k and the
// power of two n that scales it; t is nil where x needs no table, and r is
// then the result.
func ex2Split(x uint32) (t *mufuTable, k uint32, n int64, r uint32) {
	switch {
	case x&0x7fffffff > mufuInf:
		return nil, 0, 0, mufuNaN
	case x == mufuInf:
		return nil, 0, 0, mufuInf
	case x == mufuSign|mufuInf:
		return nil, 0, 0, 0
	}
	if x>>23&0xff == 0 {
		return nil, 0, 0, 0x3f800000 // a subnormal input is zero
	}
	// |x| * 2^23, truncated: the significand m (24 bits, 1.23) times 2^e.
	e := int64(x>>23&0xff) - 127
	m := uint64(x&0x7fffff | 0x800000)
	var q uint64
	switch {
	case e >= 0:
		q = m << uint(min(e, 16)) // from 2^8 on the result is 0 or infinite anyway
	case e > -25:
		q = m >> uint(-e)
	}
	n, f := int64(q>>23), uint32(q&(1<<23-1))
	if x&mufuSign == 0 {
		return tblEx2Pos, f, n, 0
	}
	if f == 0 {
		return nil, 0, 0, withExponent(0x3f800000, -n)
	}
	return tblEx2Neg, f - 1, -n, 0
}

// mufuEx2Lanes is MUFU.EX2 on the lanes of mask of a into d: a full warp
// through mufuEx2Wide where the host has it, and the lanes it leaves (or
// those of a partial mask) mufuEx2 a lane, with ex2Split's common case — a normal input, |x| * 2^23 split into
// the power n and the entry k — in line. The lanes' table blocks are read
// in a first pass of independent loads, so that the host's cache misses on
// them overlap (a softmax's 32 inputs fall in 32 blocks), and their entries
// taken in a second.
func mufuEx2Lanes(d, a *Vec, mask uint32) uint32 {
	var ks [Lanes]uint32 // the entry, and ex2Neg's table in the top bit
	var ns [Lanes]int32
	var warm, tabled uint32
	tblEx2Pos.once.Do(tblEx2Pos.load)
	tblEx2Neg.once.Do(tblEx2Neg.load)
	if mask == FullMask {
		mask = mufuEx2Wide(d, a, tblEx2Pos, tblEx2Neg) // eight lanes at a time where the host has AVX2
	}
	pos, neg := tblEx2Pos.blocks, tblEx2Neg.blocks
	for m := mask; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		x := uint32(a[l])
		be := x >> 23 & 0xff
		if be-1 >= 0xfe { // ex2Split's special cases
			r := uint32(0x3f800000) // a zero or subnormal input is zero
			switch {
			case x&0x7fffffff > mufuInf:
				r = mufuNaN
			case x == mufuInf:
				r = mufuInf
			case x == mufuSign|mufuInf:
				r = 0
			}
			d[l] = uint64(r)
			continue
		}
		e := int64(be) - 127
		q := uint64(x&0x7fffff | 0x800000)
		switch {
		case e >= 0:
			q <<= uint(min(e, 16)) // from 2^8 on the result is 0 or infinite anyway
		case e > -25:
			q >>= uint(-e)
		default:
			q = 0
		}
		n, f := int64(q>>23), uint32(q&(1<<23-1))
		switch {
		case x&mufuSign == 0:
			ks[l], ns[l] = f, int32(n)
			warm += pos[f>>6].base
		case f == 0:
			d[l] = uint64(withExponent(0x3f800000, -n))
			continue
		default:
			ks[l], ns[l] = f-1|1<<31, int32(-n)
			warm += neg[(f-1)>>6].base
		}
		tabled |= 1 << l
	}
	for m := tabled; m != 0; m &= m - 1 {
		l := bits.TrailingZeros32(m)
		t := tblEx2Pos
		if ks[l]&(1<<31) != 0 {
			t = tblEx2Neg
		}
		d[l] = uint64(withExponent(t.entry(ks[l]&^(1<<31)), int64(ns[l])))
	}
	return warm
}

// mufuRcp is MUFU.RCP of the float x (bits).
func mufuRcp(x uint32) uint32 {
	s := x & mufuSign
	switch e := x >> 23 & 0xff; {
	case x&0x7fffffff > mufuInf:
		return mufuNaN
	case e == 0xff:
		return s // 1/±Inf
	case e == 0:
		return s | mufuInf // a subnormal input is zero
	}
	p := tblRcp.at(x & 0x7fffff)
	return s | withExponent(p, 127-int64(x>>23&0xff))
}

// mufuRsq is MUFU.RSQ of the float x (bits).
func mufuRsq(x uint32) uint32 {
	e := int64(x >> 23 & 0xff)
	switch {
	case x&0x7fffffff > mufuInf:
		return mufuNaN
	case e == 0:
		return x&mufuSign | mufuInf // ±0 and subnormals: ±Inf
	case x&mufuSign != 0:
		return mufuNaN
	case e == 0xff:
		return 0
	}
	odd := (e - 127) & 1
	p := tblRsq.at(x&0x7fffff + uint32(odd)<<23)
	return withExponent(p, -((e - 127 - odd) / 2))
}

// mufuF32 returns o's result by the MUFU tables when o is one of the
// functions they hold, for f32 operands: ex2.approx (.ftz: MUFU.EX2; without
// it, as ptxas expands it: an x below -126 halved, and the result squared),
// rcp.approx.ftz, rsqrt.approx.ftz. ok is false for every other operation.
func (o fop) mufuF32(a uint32) (r uint32, ok bool) {
	switch {
	case o.op == isa.OpEx2:
		if o.ftz() {
			return mufuEx2(a), true
		}
		x := math.Float32frombits(a)
		if x >= -126 || x != x {
			return mufuEx2(a), true
		}
		y := math.Float32frombits(mufuEx2(math.Float32bits(x * 0.5)))
		return math.Float32bits(y * y), true // FMUL, to nearest, subnormals kept
	case o.op == isa.OpRcp && o.flags.Has(isa.FApprox):
		return mufuOrExact(a, mufuRcp(a), o.ftz())
	case o.op == isa.OpRsqrt:
		return mufuOrExact(a, mufuRsq(a), o.ftz())
	}
	return 0, false
}

// mufuOrExact is a tabled result r of input a: always with .ftz (MUFU
// alone); without it only where input and result are normal numbers, the
// range in which ptxas's fix-up code around the MUFU leaves its result
// alone. Elsewhere ok is false and the function is evaluated to nearest.
func mufuOrExact(a, r uint32, ftz bool) (uint32, bool) {
	if ftz {
		return r, true
	}
	normal := func(v uint32) bool { e := v >> 23 & 0xff; return e != 0 && e != 0xff }
	return r, normal(a) && normal(r)
}

// mufuDiv is div.approx.f32 a / b: a times MUFU.RCP of b (PTX ISA: "d = a *
// (1/b)"), as ptxas writes it: a subnormal divisor and the dividend both
// scaled by 2^24 first (without .ftz), the product rounded to nearest.
func mufuDiv(a, b uint32, ftz bool) uint32 {
	x, y := math.Float32frombits(a), math.Float32frombits(b)
	if ftz {
		x, y = math.Float32frombits(flushF32(a)), math.Float32frombits(flushF32(b))
	} else if y != 0 && math.Abs(float64(y)) < 0x1p-126 {
		x, y = x*0x1p24, y*0x1p24
	}
	r := x * math.Float32frombits(mufuRcp(math.Float32bits(y)))
	if r != r {
		return f32QNaN // FMUL writes NVIDIA's canonical NaN, whatever NaN came in
	}
	if ftz {
		return flushF32(math.Float32bits(r))
	}
	return math.Float32bits(r)
}

// flushF32 is a float's bits with a subnormal flushed to a zero of its sign.
func flushF32(v uint32) uint32 {
	if v>>23&0xff == 0 {
		return v & mufuSign
	}
	return v
}
