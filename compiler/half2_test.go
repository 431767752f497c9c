package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func h2(op isa.Op, ty isa.Type, d int) isa.Instr {
	in := isa.Instr{Op: op, Type: ty, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(d), isa.R(1), isa.R(2)}}
	if op != isa.OpFma {
		in.Ops = in.Ops[:3]
	}
	in.Class = isa.ClassOf(&in)
	return in
}

func TestHalf2PipesAlternateHFMA2AndHFMA2MMA(t *testing.T) {
	const H, M, F = isa.ClassHalf2, isa.ClassHalf2MMA, isa.ClassFMA
	bra := isa.Instr{Op: isa.OpBra, Target: 1, Guard: isa.P(0)}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Class // class of each instruction after the pass
	}{
		{"a chain of f16x2 FMAs alternates, starting on the FMA pipe",
			[]isa.Instr{h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F16x2, 5), {Op: isa.OpExit}},
			[]isa.Class{H, M, H, M, isa.ClassNone}},
		{"adds, multiplies and bf16x2 count alike",
			[]isa.Instr{h2(isa.OpAdd, isa.BF16x2, 5), h2(isa.OpMul, isa.F16x2, 6), h2(isa.OpSub, isa.BF16x2, 7), {Op: isa.OpExit}},
			[]isa.Class{H, M, H, isa.ClassNone}},
		{"other packed-half operations stay on the FMA pipe and do not count",
			[]isa.Instr{h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpMax, isa.F16x2, 6), h2(isa.OpFma, isa.F16x2, 5), {Op: isa.OpExit}},
			[]isa.Class{H, H, M, isa.ClassNone}},
		{"f32 FMAs are not packed halves",
			[]isa.Instr{h2(isa.OpFma, isa.F32, 5), h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F32, 5), h2(isa.OpFma, isa.F16x2, 5), {Op: isa.OpExit}},
			[]isa.Class{F, H, F, M, isa.ClassNone}},
		{"a loop's body starts again on the FMA pipe at its head (a branch target)",
			[]isa.Instr{h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F16x2, 5), h2(isa.OpFma, isa.F16x2, 5), bra, h2(isa.OpFma, isa.F16x2, 5), {Op: isa.OpExit}},
			[]isa.Class{H, H, M, isa.ClassNone, H, isa.ClassNone}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			apply(Half2Pipes, p)
			for i, want := range tc.want {
				if want == isa.ClassNone {
					continue
				}
				if got := p.Instrs[i].Class; got != want {
					t.Errorf("instruction %d (%s %s): class %s, want %s", i, p.Instrs[i].Op, p.Instrs[i].Type, got, want)
				}
			}
		})
	}
}
