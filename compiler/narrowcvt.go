package compiler

import "github.com/smsim/smsim/isa"

// ElideNarrowingCvts makes a 64-to-32-bit integer conversion free.
var ElideNarrowingCvts = Pass{
	Name: "ElideNarrowingCvts",
	Doc: "A 64-bit value lives in a register pair, and its low 32 bits are the low register: `cvt.u32.u64 t, " +
		"x` is no SASS instruction. pipeline.cu's chain `cvt.u32.u64 t, x; mad.wide.u32 x, t, a, b` is one " +
		"IMAD.WIDE a link (SASS: calibration/h200 pipeline.sass; 4.36 cycles a link on the H200, one " +
		"IMAD.WIDE's latency).",
	Run: elideNarrowingCvts,
}

// elideNarrowingCvts removes `cvt.{u32,s32,b32}.{u64,s64,b64} t, x`
// (unguarded, no rounding or saturation), its readers reading x instead,
// under elideCopies's conditions when every reader reads t where only its
// low 32 bits matter (lowBitsReader). Every lane computes the same values.
// Programs with indirect branches are left as they are.
func elideNarrowingCvts(p *isa.Program, _ *Options) {
	elideCopies(p, narrowingCvt, lowBitsReader)
}

// narrowingCvt reports whether in is an unguarded integer conversion from 64
// to 32 bits, register to register, without rounding or saturation.
func narrowingCvt(in *isa.Instr) bool {
	if in.Op != isa.OpCvt || in.Guard.Kind != isa.KNone || in.NDst != 1 || len(in.Ops) != 2 ||
		in.Ops[0].Kind != isa.KReg || in.Ops[1].Kind != isa.KReg || in.Flags.Has(isa.FSat) || in.Rnd != isa.RNone {
		return false
	}
	return is32Int(in.Type) && (in.Type2 == isa.U64 || in.Type2 == isa.S64 || in.Type2 == isa.B64)
}

// lowBitsReader reports whether in reads register t only where its low 32
// bits alone decide the result.
func lowBitsReader(in *isa.Instr, t int32) bool {
	if in.Guard.Kind == isa.KPred || !is32Int(in.Type) || in.Flags.Has(isa.FSat) || in.Flags.Has(isa.FCC) || in.Flags.Has(isa.FCarryIn) {
		return false
	}
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor:
		return true
	case isa.OpMul, isa.OpMad:
		if in.Flags.Has(isa.FHi) {
			return false
		}
		// The addend of a .wide multiply-add is 64-bit.
		if in.Op == isa.OpMad && in.Flags.Has(isa.FWide) && in.NSrc() == 3 && in.Src(2).Kind == isa.KReg && in.Src(2).Reg == t {
			return false
		}
		return true
	}
	return false
}
