package ptx

import (
	"github.com/smsim/smsim/isa"
)

// FP8 modes of cvt, as warp defines them (cvt8E4M3 and friends; a
// test checks that the values agree, since frontends may not import warp).
const (
	cvt8E4M3 = 1
	cvt8E5M2 = 2
	cvt8Relu = 4
)

// fp8Pair reports which FP8 pair type (e4m3x2, e5m2x2) a conversion names,
// as warp's cvt mode, and whether it is the destination.
func fp8Pair(in *Instr) (mode uint8, dest bool) {
	seenType := false
	for _, x := range in.Mods {
		switch x {
		case "e4m3x2":
			return cvt8E4M3, !seenType
		case "e5m2x2":
			return cvt8E5M2, !seenType
		}
		if _, ok := isa.ParseType(x); ok {
			seenType = true
		}
	}
	return 0, false
}

// cvtFP8 lowers cvt.rn.satfinite[.relu].{e4m3x2,e5m2x2}.{f32,f16x2} and
// cvt.rn[.relu].f16x2.{e4m3x2,e5m2x2}. isa has no FP8 types: the pair is a
// .b16 and warp's cvt modes say which format it holds.
func (l *lowerer) cvtFP8(in *Instr, m *mods, mode uint8, dest bool) error {
	m.takeAny("e4m3x2", "e5m2x2")
	if rounding(m) != isa.RN {
		return l.unsupported("FP8 conversions need .rn")
	}
	x := isa.Instr{Op: isa.OpCvt, Rnd: isa.RN, NDst: 1, Mode: mode}
	if m.take("relu") {
		x.Mode |= cvt8Relu
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	n := 2
	switch {
	case dest && (t == isa.F32 || t == isa.F16x2):
		if !m.take("satfinite") {
			return l.unsupported("conversions to FP8 need .satfinite")
		}
		x.Type, x.Type2, x.Flags = isa.B16, t, isa.FSat
		if t == isa.F32 {
			n = 3
		}
	case !dest && t == isa.F16x2:
		x.Type, x.Type2 = isa.F16x2, isa.B16
	default:
		return l.unsupported("FP8 conversion with .%s", t)
	}
	if err := l.nops(in, n); err != nil {
		return err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	x.Ops = append(x.Ops, d)
	for _, o := range in.Operands[1:] {
		v, err := l.val(o, x.Type2)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}
