package warp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// A decoded kernel must leave exactly the registers ExecALU leaves, for every
// form it takes, every mask (a form it leaves to ExecALU for a mask then goes
// there) and a destination that is also a source.
func TestKernelsMatchExecALU(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	imm := func() isa.Operand { return isa.Imm(rng.Uint64()) }
	r := func(i int) isa.Operand { return isa.R(i) }
	type form struct {
		op   isa.Op
		bool isa.BoolOp
		ndst uint8
		cmp  isa.CmpOp
		typ  isa.Type
		typ2 isa.Type
		rnd  isa.Rounding
		fl   isa.Flags
		ops  func(d, a, b, c int) []isa.Operand
	}
	var forms []form
	for _, typ := range []isa.Type{isa.U16, isa.S32, isa.B32, isa.U64, isa.S64} {
		for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor, isa.OpMul} {
			forms = append(forms, form{op: op, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), imm()} }})
		}
		for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor} {
			forms = append(forms, form{op: op, typ: typ, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }})
		}
		forms = append(forms,
			form{op: isa.OpAdd, typ: typ, ops: func(d, a, b, c int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), r(c)} }},
			form{op: isa.OpAdd, typ: typ, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), imm()} }},
			form{op: isa.OpAdd, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), imm(), imm()} }},
			form{op: isa.OpMul, typ: typ, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }},
			form{op: isa.OpMad, typ: typ, ops: func(d, a, b, c int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), r(c)} }},
			form{op: isa.OpMad, typ: typ, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), imm()} }},
			form{op: isa.OpMad, typ: typ, ops: func(d, a, _, c int) []isa.Operand { return []isa.Operand{r(d), r(a), imm(), r(c)} }},
			form{op: isa.OpMad, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), imm(), imm()} }})
	}
	ints := []isa.Type{isa.B16, isa.U16, isa.S16, isa.B32, isa.U32, isa.S32, isa.B64, isa.U64, isa.S64}
	for _, typ := range ints {
		for _, op := range []isa.Op{isa.OpShl, isa.OpShr} {
			amount := func() isa.Operand { // in range, at the width, beyond it, and with bits above 32
				return isa.Imm([]uint64{uint64(rng.IntN(64)), uint64(typ.Bits()), uint64(typ.Bits() - 1), 1 << 32, 200}[rng.IntN(5)])
			}
			forms = append(forms, form{op: op, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), amount()} }})
		}
		for _, st := range ints {
			forms = append(forms, form{op: isa.OpCvt, typ: typ, typ2: st, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a)} }})
		}
	}
	for _, typ := range append(ints, isa.F32, isa.F64, isa.F16) {
		forms = append(forms,
			form{op: isa.OpMov, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a)} }},
			form{op: isa.OpMov, typ: typ, ops: func(d, _, _, _ int) []isa.Operand { return []isa.Operand{r(d), imm()} }})
	}
	floats := []isa.Type{isa.F32, isa.F16, isa.BF16, isa.F64}
	for _, dt := range append(floats, isa.S32, isa.U32, isa.S64, isa.U16) {
		for _, st := range append(floats, isa.S32, isa.U32, isa.S8, isa.U64) {
			if !dt.Float() && !st.Float() || dt == st {
				continue
			}
			for _, rnd := range []isa.Rounding{isa.RNone, isa.RN, isa.RZ, isa.RM, isa.RNI, isa.RZI} {
				for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat} {
					forms = append(forms, form{op: isa.OpCvt, typ: dt, typ2: st, rnd: rnd, fl: fl,
						ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a)} }})
				}
			}
		}
	}
	for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat} {
		forms = append(forms, form{op: isa.OpCvt, typ: isa.F16x2, typ2: isa.F32, rnd: isa.RN, fl: fl,
			ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }})
	}
	for _, typ := range []isa.Type{isa.S32, isa.U32} {
		small := func() isa.Operand { return isa.Imm(uint64(rng.IntN(64))) }
		forms = append(forms,
			form{op: isa.OpMul, typ: typ, fl: isa.FWide, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }},
			form{op: isa.OpMul, typ: typ, fl: isa.FWide, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), imm()} }},
			form{op: isa.OpMul, typ: typ, fl: isa.FWide, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), small()} }})
	}
	for _, rnd := range []isa.Rounding{isa.RNone, isa.RN} {
		for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat, isa.FFtz | isa.FSat} {
			for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpMul} {
				forms = append(forms, form{op: op, typ: isa.F32, rnd: rnd, fl: fl, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }})
			}
			for _, op := range []isa.Op{isa.OpFma, isa.OpMad} {
				forms = append(forms, form{op: op, typ: isa.F32, rnd: rnd, fl: fl, ops: func(d, a, b, c int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), r(c)} }})
			}
		}
	}
	special := []uint32{0, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 1, 0x00800000, 0x7f7fffff, 0x3f800000, 0x3f800001}
	fimm := func() isa.Operand {
		if rng.IntN(3) == 0 {
			return isa.Imm(uint64(special[rng.IntN(len(special))]))
		}
		return isa.Imm(uint64(math.Float32bits(float32(rng.NormFloat64() * 8))))
	}
	cmps := []isa.CmpOp{isa.CmpEq, isa.CmpNe, isa.CmpLt, isa.CmpLe, isa.CmpGt, isa.CmpGe}
	for _, typ := range append(ints, isa.F32) {
		for _, cmp := range cmps {
			setp := func(b func() isa.Operand) func(d, a, _, _ int) []isa.Operand {
				return func(d, a, _, _ int) []isa.Operand { return []isa.Operand{isa.P(d % 2), r(a), b()} }
			}
			reg := func() isa.Operand { return r(rng.IntN(4)) }
			small := func() isa.Operand { return isa.Imm(uint64(rng.IntN(5)) - 2) }
			sass := func(b func() isa.Operand) func(d, a, _, _ int) []isa.Operand { // ISETP p, PT, a, b, PT
				return func(d, a, _, _ int) []isa.Operand {
					return []isa.Operand{isa.P(d % 2), isa.Sink(), r(a), b(), isa.Imm(1)}
				}
			}
			forms = append(forms, form{op: isa.OpSetp, typ: typ, cmp: cmp, ops: setp(reg)},
				form{op: isa.OpSetp, typ: typ, cmp: cmp, bool: isa.BoolAnd, ndst: 2, ops: sass(reg)})
			if typ == isa.F32 {
				forms = append(forms, form{op: isa.OpSetp, typ: typ, cmp: cmp, fl: isa.FFtz, ops: setp(reg)},
					form{op: isa.OpSetp, typ: typ, cmp: cmp, ops: setp(fimm)}, form{op: isa.OpSetp, typ: typ, cmp: cmp, fl: isa.FFtz, bool: isa.BoolAnd, ndst: 2, ops: sass(fimm)},
					form{op: isa.OpSetp, typ: typ, cmp: cmp, fl: isa.FFtz, bool: isa.BoolAnd, ndst: 2, ops: sass(reg)})
				continue
			}
			forms = append(forms, form{op: isa.OpSetp, typ: typ, cmp: cmp, ops: setp(imm)}, form{op: isa.OpSetp, typ: typ, cmp: cmp, ops: setp(small)},
				form{op: isa.OpSetp, typ: typ, cmp: cmp, bool: isa.BoolAnd, ndst: 2, ops: sass(small)})
		}
	}
	for range 8 { // prmt's default mode, a random selector of four nibbles (bit 3: the byte's sign)
		sel := isa.Imm(uint64(rng.Uint32() & 0xffff))
		forms = append(forms, form{op: isa.OpPrmt, typ: isa.B32, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), sel} }})
	}
	for _, typ := range append(ints, isa.F32, isa.F64) {
		for _, neg := range []bool{false, true} {
			p := isa.P(1)
			p.Neg = neg
			forms = append(forms,
				form{op: isa.OpSelp, typ: typ, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b), p} }},
				form{op: isa.OpSelp, typ: typ, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), imm(), p} }},
				form{op: isa.OpSelp, typ: typ, ops: func(d, _, b, _ int) []isa.Operand { return []isa.Operand{r(d), imm(), r(b), p} }})
		}
	}
	negR := func(i int) isa.Operand { o := r(i); o.Mod = isa.MFNeg; return o }
	for _, fl := range []isa.Flags{0, isa.FFtz, isa.FSat, isa.FFtz | isa.FSat} {
		for _, op := range []isa.Op{isa.OpAdd, isa.OpSub, isa.OpMul} {
			forms = append(forms, form{op: op, typ: isa.F32, rnd: isa.RN, fl: fl, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), fimm()} }})
		}
		// SASS FADD with a negated operand (-a - b keeps ExecALU)
		forms = append(forms, form{op: isa.OpAdd, typ: isa.F32, fl: fl, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), negR(a), r(b)} }})
		for _, op := range []isa.Op{isa.OpAdd, isa.OpSub} {
			forms = append(forms, form{op: op, typ: isa.F32, rnd: isa.RN, fl: fl, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), negR(b)} }})
		}
		for _, op := range []isa.Op{isa.OpMin, isa.OpMax} {
			forms = append(forms, form{op: op, typ: isa.F32, fl: fl, ops: func(d, a, b, _ int) []isa.Operand { return []isa.Operand{r(d), r(a), r(b)} }})
		}
		for _, op := range []isa.Op{isa.OpAbs, isa.OpNeg} {
			forms = append(forms, form{op: op, typ: isa.F32, fl: fl, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a)} }})
		}
	}
	for _, fl := range []isa.Flags{isa.FApprox, isa.FApprox | isa.FFtz} {
		for _, op := range []isa.Op{isa.OpRsqrt, isa.OpEx2, isa.OpLg2, isa.OpSin, isa.OpCos, isa.OpTanh} {
			forms = append(forms, form{op: op, typ: isa.F32, fl: fl, ops: func(d, a, _, _ int) []isa.Operand { return []isa.Operand{r(d), r(a)} }})
		}
	}
	operand := func(typ isa.Type) uint64 {
		if typ != isa.F32 {
			return rng.Uint64()
		}
		switch rng.IntN(4) {
		case 0:
			return uint64(special[rng.IntN(len(special))])
		case 1:
			return uint64(rng.Uint32())
		}
		return uint64(math.Float32bits(float32(rng.NormFloat64()))) // close exponents: midpoints and cancellation
	}
	prog := &isa.Program{NumRegs: 4, NumPreds: 2, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	masks := []uint32{FullMask, 0x0000ffff, 1 << 7, 0xdeadbeef}
	for _, f := range forms {
		for _, regs := range [][4]int{{0, 1, 2, 3}, {0, 0, 1, 2}, {0, 1, 0, 2}, {0, 1, 2, 0}, {0, 0, 0, 0}} {
			in := isa.Instr{Op: f.op, Cmp: f.cmp, Bool: f.bool, Type: f.typ, Type2: f.typ2, Rnd: f.rnd, Flags: f.fl, NDst: max(f.ndst, 1), Ops: f.ops(regs[0], regs[1], regs[2], regs[3])}
			k := DecodeKernel(prog, &in)
			if !k.Resolved() {
				t.Fatalf("%v.%v: no kernel", f.op, f.typ)
			}
			for _, mask := range masks {
				vt := f.typ
				if f.op == isa.OpCvt {
					vt = f.typ2 // the source's values
				}
				for _, d := range kernelAgainstExecALU(t, prog, &in, &k, mask, 4, func(int32, int) uint64 { return operand(vt) }) {
					t.Errorf("%v.%v %v regs %v mask %#x: %s", f.op, f.typ, f.fl, regs, mask, d)
				}
			}
		}
	}
}

// Forms outside the kernels' keep no kernel: they run through ExecALU.
func TestKernelsLeaveOtherFormsToExecALU(t *testing.T) {
	r := func(i int) isa.Operand { return isa.R(i) }
	neg := isa.R(1)
	neg.Mod = isa.MFNeg
	prog := &isa.Program{NumRegs: 4, UniformRegs: 3, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	for _, in := range []isa.Instr{
		{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{r(0), neg, r(2)}},                                                                  // a modified operand
		{Op: isa.OpAdd, Type: isa.S32, Flags: isa.FSat, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                                // add.sat
		{Op: isa.OpMul, Type: isa.S32, Flags: isa.FHi, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                                 // mul.hi
		{Op: isa.OpMul, Type: isa.S16, Flags: isa.FWide, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                               // mul.wide.s16
		{Op: isa.OpMul, Type: isa.S32, Flags: isa.FWide, NDst: 1, Ops: []isa.Operand{r(3), r(1), r(2)}},                                               // uniform destination
		{Op: isa.OpAdd, Type: isa.U32, Flags: isa.FCC, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(1)}},                                           // add.cc
		{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{r(3), r(1), isa.Imm(1)}},                                                           // uniform destination
		{Op: isa.OpFma, Type: isa.F32, Rnd: isa.RZ, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2), r(0)}},                                              // directed rounding
		{Op: isa.OpFma, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(1), r(0)}},                                                     // an immediate
		{Op: isa.OpMul, Type: isa.F32, Rnd: isa.RZ, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(1)}},                                              // directed rounding
		{Op: isa.OpShl, Type: isa.B32, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                                                 // a register amount
		{Op: isa.OpPrmt, Type: isa.B32, Mode: 1, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2), isa.Imm(1)}},                                           // prmt.f4e
		{Op: isa.OpPrmt, Type: isa.B32, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2), r(2)}},                                                          // a register selector
		{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, Bool: isa.BoolAnd, NDst: 1, Ops: []isa.Operand{isa.P(0), r(1), r(2), isa.P(1)}},               // a combining predicate
		{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 2, Ops: []isa.Operand{isa.P(0), isa.P(1), r(1), r(2)}},                                  // two destinations
		{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, Bool: isa.BoolOr, NDst: 2, Ops: []isa.Operand{isa.P(0), isa.Sink(), r(1), r(2), isa.Imm(1)}},  // .OR with PT
		{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, Bool: isa.BoolAnd, NDst: 2, Ops: []isa.Operand{isa.P(0), isa.Sink(), r(1), r(2), isa.Imm(0)}}, // .AND with !PT
		{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, Bool: isa.BoolAnd, NDst: 2, Ops: []isa.Operand{isa.P(0), isa.Sink(), r(1), r(2), isa.P(1)}},   // .AND with a predicate
		{Op: isa.OpSetp, Type: isa.F64, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(0), r(1), r(2)}},                                            // f64
		{Op: isa.OpAdd, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), neg, neg}},                                                                   // both negated
		{Op: isa.OpSub, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), neg, r(2)}},                                                                  // -a - b
		{Op: isa.OpCvt, Type: isa.U16, Type2: isa.S32, Flags: isa.FSat, NDst: 1, Ops: []isa.Operand{r(0), r(1)}},                                      // cvt.sat
		{Op: isa.OpCvt, Type: isa.F16x2, Type2: isa.F32, Rnd: isa.RZ, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                  // a pack rounded toward zero
		{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{r(0), isa.Spec(isa.STidX)}},                                                        // a special register
		{Op: isa.OpMov, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.P(1)}},                                                              // a predicate
		{Op: isa.OpMax, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), r(1), isa.Imm(1)}},                                                           // an immediate
		{Op: isa.OpEx2, Type: isa.F32, Flags: isa.FApprox, NDst: 1, Ops: []isa.Operand{r(3), r(1)}},                                                   // uniform destination
		{Op: isa.OpRcp, Type: isa.F32, Flags: isa.FApprox, NDst: 1, Ops: []isa.Operand{r(0), r(1)}},                                                   // MUFU.RCP: the exact path
		{Op: isa.OpFma, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), neg, r(2), r(0)}},                                                            // a modified operand
		{Op: isa.OpAdd, Type: isa.F64, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                                                 // f64
		{Op: isa.OpDiv, Type: isa.F32, NDst: 1, Ops: []isa.Operand{r(0), r(1), r(2)}},                                                                 // div
	} {
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("%v.%v %v: has a kernel", in.Op, in.Type, in.Ops)
		}
	}
}

// uniformDst reports whether in writes a uniform register or predicate of
// prog, which SASS fills from the first lane of the mask: a half warp's
// result is then not the full warp's.
func uniformDst(prog *isa.Program, in *isa.Instr) bool {
	for _, o := range in.Ops[:in.NDst] {
		if o.Kind == isa.KReg && prog.UniformRegs > 0 && o.Reg >= prog.UniformRegs ||
			o.Kind == isa.KPred && prog.UniformPreds > 0 && o.Reg >= prog.UniformPreds {
			return true
		}
	}
	return false
}

// kernelAgainstExecALU runs in through its kernel k (or ExecALU where the
// kernel declines the mask) and through ExecALU alone, on two warps whose
// registers 0..nregs-1 hold the same values (value(reg, lane)), and
// returns a message for each register that differs ("" when none does).
// A full mask also runs on a third warp through ExecALU a half warp at a
// time, the lane paths that ExecALU's full-warp fast paths must agree with
// (but for a uniform destination).
func kernelAgainstExecALU(t *testing.T, prog *isa.Program, in *isa.Instr, k *Kernel, mask uint32, nregs int32,
	value func(reg int32, lane int) uint64) []string {
	t.Helper()
	fast, slow, halves := New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{}), New(0, 0, prog, FullMask, Env{})
	for reg := int32(0); reg < nregs; reg++ {
		for l := 0; l < Lanes; l++ {
			v := value(reg, l)
			fast.Reg(reg)[l], slow.Reg(reg)[l], halves.Reg(reg)[l] = v, v, v
		}
	}
	for p := int32(0); p < int32(prog.NumPreds); p++ { // predicates of mixed lanes
		v := uint32(0x5a3c0ff0) >> p
		fast.SetPred(p, FullMask, v)
		slow.SetPred(p, FullMask, v)
		halves.SetPred(p, FullMask, v)
	}
	if !fast.Exec(k, mask) {
		if err := fast.ExecALU(in, mask, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := slow.ExecALU(in, mask, 0); err != nil {
		t.Fatal(err)
	}
	var diffs []string
	if mask == FullMask && !uniformDst(prog, in) {
		for _, half := range []uint32{0x0000ffff, 0xffff0000} {
			if err := halves.ExecALU(in, half, 0); err != nil {
				t.Fatal(err)
			}
		}
		for reg := int32(0); reg < nregs; reg++ {
			if *halves.Reg(reg) != *slow.Reg(reg) {
				diffs = append(diffs, fmt.Sprintf("r%d ExecALU by halves %x, on the full warp %x", reg, halves.Reg(reg)[:4], slow.Reg(reg)[:4]))
			}
		}
	}
	for reg := int32(0); reg < nregs; reg++ {
		if *fast.Reg(reg) != *slow.Reg(reg) {
			diffs = append(diffs, fmt.Sprintf("r%d kernel %x, ExecALU %x", reg, fast.Reg(reg)[:4], slow.Reg(reg)[:4]))
		}
	}
	for p := int32(0); p < int32(prog.NumPreds); p++ {
		if fast.Pred(p) != slow.Pred(p) {
			diffs = append(diffs, fmt.Sprintf("p%d kernel %#x, ExecALU %#x", p, fast.Pred(p), slow.Pred(p)))
		}
	}
	return diffs
}
