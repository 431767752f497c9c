package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// convert executes cvt.dtype.stype (Type = destination, Type2 = source).
func (w *Warp) convert(in *isa.Instr, mask uint32, now uint64, r *Vec) {
	dt, st := in.Type, in.Type2
	a := w.Operand(in.Src(0), 0, mask, now)
	for l := range r {
		v := a[l]
		switch {
		case !dt.Float() && !st.Float():
			x := ival(v, st)
			if in.Flags.Has(isa.FSat) {
				x = satInt(x, st, dt)
			}
			r[l] = x
		case dt.Float() && !st.Float():
			r[l] = intToFloat(v, st, dt, in.Rnd)
		case !dt.Float():
			r[l] = ftoi(fval(v, st), dt, in.Rnd)
		default:
			f := fval(v, st)
			if in.Rnd >= isa.RNI { // cvt.rni.f32.f32: round to integral value
				f = roundInt(f, in.Rnd)
			}
			r[l] = w.fresult(f, &isa.Instr{Type: dt, Rnd: floatRnd(in.Rnd), Flags: in.Flags})
		}
	}
}

func floatRnd(r isa.Rounding) isa.Rounding {
	if r >= isa.RNI {
		return isa.RN
	}
	return r
}

func intToFloat(v uint64, st, dt isa.Type, rnd isa.Rounding) uint64 {
	x := ival(v, st)
	if dt == isa.F32 && (rnd == isa.RNone || rnd == isa.RN) {
		if st.Signed() {
			return uint64(math.Float32bits(float32(int64(x))))
		}
		return uint64(math.Float32bits(float32(x)))
	}
	if dt == isa.F64 {
		if st.Signed() {
			return math.Float64bits(float64(int64(x)))
		}
		return math.Float64bits(float64(x))
	}
	f := itof(v, st)
	if dt == isa.F32 {
		return uint64(math.Float32bits(f32round(f, rnd)))
	}
	return fbits(f, dt)
}

// satInt clamps integer x (already extended from type from) to the range of to.
func satInt(x uint64, from, to isa.Type) uint64 {
	n := to.Bits()
	if to.Signed() {
		lo, hi := -int64(1)<<(n-1), int64(1)<<(n-1)-1
		v := int64(x)
		if !from.Signed() && x > uint64(math.MaxInt64) {
			return uint64(hi)
		}
		if v < lo {
			return uint64(lo)
		}
		if v > hi {
			return uint64(hi)
		}
		return x
	}
	if from.Signed() && int64(x) < 0 {
		return 0
	}
	if n < 64 && x > 1<<uint(n)-1 {
		return 1<<uint(n) - 1
	}
	return x
}

func (w *Warp) bitOps(in *isa.Instr, mask uint32, now uint64, r *Vec) error {
	t := in.Type
	n := t.Bits()
	a := w.Operand(in.Src(0), 0, mask, now)
	b := w.Operand(in.Src(1), 1, mask, now)
	c := w.Operand(in.Src(2), 2, mask, now)
	switch in.Op {
	case isa.OpBfe:
		for l := range r {
			r[l] = bfe(a[l], b[l]&0xff, c[l]&0xff, n, t.Signed())
		}
	case isa.OpBfi:
		d := w.Operand(in.Src(3), 3, mask, now)
		for l := range r {
			pos, ln := c[l]&0xff, d[l]&0xff
			if ln == 0 || pos >= uint64(n) {
				r[l] = b[l]
				continue
			}
			if pos+ln > uint64(n) {
				ln = uint64(n) - pos
			}
			m := (uint64(1)<<ln - 1) << pos
			r[l] = b[l]&^m | a[l]<<pos&m
		}
	case isa.OpPrmt:
		for l := range r {
			r[l] = prmt(uint32(a[l]), uint32(b[l]), uint32(c[l]), in.Mode)
		}
	case isa.OpLop3:
		lut := lutOf(uint8(in.Src(3).Imm))
		for l := range r {
			r[l] = lut.apply(a[l], b[l], c[l])
		}
	case isa.OpShf:
		for l := range r {
			r[l] = shf(uint32(a[l]), uint32(b[l]), uint32(c[l]), in.Mode == 0, in.Flags.Has(isa.FClamp))
		}
	case isa.OpSad:
		for l := range r {
			x, y := ival(a[l], t), ival(b[l], t)
			d := x - y
			if (t.Signed() && int64(x) < int64(y)) || (!t.Signed() && x < y) {
				d = y - x
			}
			r[l] = d + c[l]
		}
	case isa.OpDp4a:
		for l := range r {
			r[l] = dp4a(uint32(a[l]), uint32(b[l]), uint32(c[l]), t.Signed(), in.Type2.Signed())
		}
	default:
		return &UnsupportedError{Instr: in, What: "bit operation form"}
	}
	return nil
}

// bfe is PTX bfe of an n-bit value a: ln bits from bit pos, zero- or
// sign-extended (pos and ln as the instruction reads them, 0-255).
func bfe(a, pos, ln uint64, n int, signed bool) uint64 {
	if ln == 0 {
		return 0
	}
	// Result bit i is field bit i, a's bit pos+i, for i below both ln and
	// n - pos; every bit above is the sign bit (signed) or zero: the field's
	// top bit, or a's bit n-1 where the field reaches past it.
	w := uint64(0) // the field's bits that lie within a
	if pos < uint64(n) {
		w = min(ln, uint64(n)-pos)
	}
	var v uint64
	if w > 0 {
		v = a >> pos & (^uint64(0) >> (64 - w))
	}
	if signed {
		top := pos + ln - 1
		if top >= uint64(n) {
			top = uint64(n) - 1
		}
		if a>>top&1 != 0 {
			v |= ^uint64(0) << w
		}
	}
	if n < 64 {
		v &= 1<<uint(n) - 1
	}
	return v
}

func prmt(a, b, sel uint32, mode uint8) uint64 {
	bytes := [8]uint32{a & 0xff, a >> 8 & 0xff, a >> 16 & 0xff, a >> 24, b & 0xff, b >> 8 & 0xff, b >> 16 & 0xff, b >> 24}
	var out uint32
	if mode == 0 { // default mode: 4 selector nibbles, bit 3 = sign replicate
		for i := 0; i < 4; i++ {
			s := sel >> (4 * i) & 0xf
			v := bytes[s&7]
			if s&8 != 0 {
				if v&0x80 != 0 {
					v = 0xff
				} else {
					v = 0
				}
			}
			out |= v << (8 * i)
		}
		return uint64(out)
	}
	s := sel & 3
	var idx [4]uint32
	switch mode {
	case 1: // f4e: forward 4 extract
		idx = [4]uint32{s, s + 1, s + 2, s + 3}
	case 2: // b4e: backward 4 extract
		idx = [4]uint32{s + 8 - 0, s + 8 - 1, s + 8 - 2, s + 8 - 3}
	case 3: // rc8: replicate byte
		idx = [4]uint32{s, s, s, s}
	case 4: // ecl: edge clamp left
		idx = [4]uint32{s, max(s, 1), max(s, 2), 3}
	case 5: // ecr
		idx = [4]uint32{0, min(s, 1), min(s, 2), s}
	case 6: // rc16
		idx = [4]uint32{2 * (s & 1), 2*(s&1) + 1, 2 * (s & 1), 2*(s&1) + 1}
	}
	for i := 0; i < 4; i++ {
		out |= bytes[idx[i]&7] << (8 * i)
	}
	return uint64(out)
}

func shf(lo, hi, sh uint32, left, clamp bool) uint64 {
	if clamp {
		sh = min(sh, 32)
	} else {
		sh &= 31
	}
	v := uint64(hi)<<32 | uint64(lo)
	if left {
		return (v << sh) >> 32 & 0xffffffff
	}
	return (v >> sh) & 0xffffffff
}

func dp4a(a, b, c uint32, as, bs bool) uint64 {
	acc := int64(int32(c))
	for i := 0; i < 4; i++ {
		x := int64(a >> (8 * i) & 0xff)
		y := int64(b >> (8 * i) & 0xff)
		if as && x >= 128 {
			x -= 256
		}
		if bs && y >= 128 {
			y -= 256
		}
		acc += x * y
	}
	return uint64(uint32(acc))
}
