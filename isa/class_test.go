package isa

import "testing"

func TestClassOfPackedHalves(t *testing.T) {
	tests := []struct {
		name string
		in   Instr
		want Class
	}{
		{"fma.rn.f16x2 is an HFMA2", h2(OpFma, F16x2, 1), ClassHalf2},
		{"add.bf16x2 is an HADD2", h2(OpAdd, BF16x2, 1), ClassHalf2},
		{"max.f16x2 is an HMNMX2", h2(OpMax, F16x2, 1), ClassHalf2},
		{"fma.rn.f32 is an FFMA", h2(OpFma, F32, 1), ClassFMA},
		{"fma.rn.f64 is a DFMA", h2(OpFma, F64, 1), ClassFP64},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			if got := ClassOf(&in); got != tc.want {
				t.Errorf("class %s, want %s", got, tc.want)
			}
		})
	}
}

func TestConversionClasses(t *testing.T) {
	cvt := func(dt, st Type, rnd Rounding) *Instr {
		return &Instr{Op: OpCvt, Type: dt, Type2: st, Rnd: rnd, NDst: 1, Ops: []Operand{R(1), R(0)}}
	}
	tests := []struct {
		name string
		in   *Instr
		want Class
	}{
		{"cvt.rn.f32.u32 is I2FP on the integer pipe", cvt(F32, U32, RN), ClassALU},
		{"cvt.rn.f32.s32 too", cvt(F32, S32, RN), ClassALU},
		{"cvt.rz.f32.s32 is I2F on the MUFU unit", cvt(F32, S32, RZ), ClassSFU},
		{"cvt.rzi.s32.f32 is F2I on the MUFU unit", cvt(S32, F32, RZI), ClassSFU},
		{"cvt.rni.u32.f32 too", cvt(U32, F32, RNI), ClassSFU},
		{"cvt.rn.f32.u16 is I2F.U16", cvt(F32, U16, RN), ClassSFU},
		{"cvt.rn.f32.s64 is I2F.S64", cvt(F32, S64, RN), ClassSFU},
		{"cvt.rn.f16.f32 is F2FP on the FMA pipe, 5 cycles", cvt(F16, F32, RN), ClassCvtFloat},
		{"cvt.f32.f16 is HADD2.F32, the same", cvt(F32, F16, RNone), ClassCvtFloat},
		{"cvt.rn.bf16.f32 is F2FP too", cvt(BF16, F32, RN), ClassCvtFloat},
		{"cvt.f64.f32 is the MUFU unit's", cvt(F64, F32, RNone), ClassSFU},
		{"cvt.u32.u64 is an integer move", cvt(U32, U64, RNone), ClassALU},
	}
	for _, tc := range tests {
		if got := ClassOf(tc.in); got != tc.want {
			t.Errorf("%s: class %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestShuffleRunsInTheSharedPipe(t *testing.T) {
	shfl := &Instr{Op: OpShfl, Type: B32, NDst: 1, Ops: []Operand{R(1), R(0), Imm(1), Imm(31), Imm(0xffffffff)}}
	if c := ClassOf(shfl); c != ClassShared {
		t.Errorf("shfl.sync: class %v, want shared (ldg.csv: 24 cycles, one every 4 a sub-partition)", c)
	}
	vote := &Instr{Op: OpVote, Type: Pred, NDst: 1, Ops: []Operand{P(1), P(0)}}
	if c := ClassOf(vote); c != ClassWarpSync {
		t.Errorf("vote.sync: class %v, want warpsync", c)
	}
}

func TestDivisionClassesFollowTypeAndForm(t *testing.T) {
	tests := []struct {
		in   Instr
		want Class
	}{
		{Instr{Op: OpDiv, Type: U32}, ClassIDiv},
		{Instr{Op: OpRem, Type: S32}, ClassIDiv},
		{Instr{Op: OpDiv, Type: U64}, ClassIDiv64},
		{Instr{Op: OpDiv, Type: F32, Rnd: RN}, ClassDiv},
		{Instr{Op: OpDiv, Type: F32, Flags: FApprox}, ClassDiv},
		{Instr{Op: OpDiv, Type: F64, Rnd: RN}, ClassDiv64},
		{Instr{Op: OpSqrt, Type: F32, Rnd: RN}, ClassDiv},
		{Instr{Op: OpSqrt, Type: F32, Flags: FApprox}, ClassSFU},
		{Instr{Op: OpRcp, Type: F64, Rnd: RN}, ClassDiv64},
		{Instr{Op: OpRem, Type: S64, NDst: 1, Ops: []Operand{R(1), R(2), Imm(2)}}, ClassIMAD},
		{Instr{Op: OpRsqrt, Type: F32, Flags: FApprox}, ClassSFU},
	}
	for _, tc := range tests {
		if got := ClassOf(&tc.in); got != tc.want {
			t.Errorf("%v.%v (flags %v): class %v, want %v", tc.in.Op, tc.in.Type, tc.in.Flags, got, tc.want)
		}
	}
}

// h2 is an arithmetic instruction of type ty writing register d, with its class.
func h2(op Op, ty Type, d int) Instr {
	in := Instr{Op: op, Type: ty, NDst: 1, Ops: []Operand{R(d), R(d), R(1), R(2)}}
	if op != OpFma {
		in.Ops = in.Ops[:3]
	}
	in.Class = ClassOf(&in)
	return in
}
