package isa

import "testing"

func h2(op Op, ty Type, d int) Instr {
	in := Instr{Op: op, Type: ty, NDst: 1, Ops: []Operand{R(d), R(d), R(1), R(2)}}
	if op != OpFma {
		in.Ops = in.Ops[:3]
	}
	in.Class = ClassOf(&in)
	return in
}

func TestHalf2PipesAlternateHFMA2AndHFMA2MMA(t *testing.T) {
	const H, M, F = ClassHalf2, ClassHalf2MMA, ClassFMA
	bra := Instr{Op: OpBra, Target: 1, Guard: P(0)}
	tests := []struct {
		name string
		prog []Instr
		want []Class // class of each instruction after the pass
	}{
		{"a chain of f16x2 FMAs alternates, starting on the FMA pipe",
			[]Instr{h2(OpFma, F16x2, 5), h2(OpFma, F16x2, 5), h2(OpFma, F16x2, 5), h2(OpFma, F16x2, 5), {Op: OpExit}},
			[]Class{H, M, H, M, ClassNone}},
		{"adds, multiplies and bf16x2 count alike",
			[]Instr{h2(OpAdd, BF16x2, 5), h2(OpMul, F16x2, 6), h2(OpSub, BF16x2, 7), {Op: OpExit}},
			[]Class{H, M, H, ClassNone}},
		{"other packed-half operations stay on the FMA pipe and do not count",
			[]Instr{h2(OpFma, F16x2, 5), h2(OpMax, F16x2, 6), h2(OpFma, F16x2, 5), {Op: OpExit}},
			[]Class{H, H, M, ClassNone}},
		{"f32 FMAs are not packed halves",
			[]Instr{h2(OpFma, F32, 5), h2(OpFma, F16x2, 5), h2(OpFma, F32, 5), h2(OpFma, F16x2, 5), {Op: OpExit}},
			[]Class{F, H, F, M, ClassNone}},
		{"a loop's body starts again on the FMA pipe at its head (a branch target)",
			[]Instr{h2(OpFma, F16x2, 5), h2(OpFma, F16x2, 5), h2(OpFma, F16x2, 5), bra, h2(OpFma, F16x2, 5), {Op: OpExit}},
			[]Class{H, H, M, ClassNone, H, ClassNone}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			Half2Pipes(p)
			for i, want := range tc.want {
				if want == ClassNone {
					continue
				}
				if got := p.Instrs[i].Class; got != want {
					t.Errorf("instruction %d (%s %s): class %s, want %s", i, p.Instrs[i].Op, p.Instrs[i].Type, got, want)
				}
			}
		})
	}
}

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
