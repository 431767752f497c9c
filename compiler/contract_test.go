package compiler

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

func fop(op isa.Op, d int, a, b isa.Operand) isa.Instr {
	return isa.Instr{Op: op, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(d), a, b}, Class: isa.ClassFMA}
}

func TestContractMulAddsMakesFusedMultiplyAdds(t *testing.T) {
	mul := fop(isa.OpMul, 5, isa.R(1), isa.R(2))
	rn := fop(isa.OpAdd, 6, isa.R(5), isa.R(3))
	rn.Rnd = isa.RN
	ftz := fop(isa.OpMul, 5, isa.R(1), isa.R(2))
	ftz.Flags |= isa.FFtz
	guarded := fop(isa.OpAdd, 6, isa.R(5), isa.R(3))
	guarded.Guard = isa.P(0)
	wr2 := isa.Instr{Op: isa.OpMov, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Imm(0)}, Class: isa.ClassALU}
	rd5 := isa.Instr{Op: isa.OpMov, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(8), isa.R(5)}, Class: isa.ClassALU}
	exit := isa.Instr{Op: isa.OpExit}
	tests := []struct {
		name string
		prog []isa.Instr
		want []string // the program after the pass, one instruction a line (the printer omits .rn)
	}{
		{"a*b + c", []isa.Instr{mul, fop(isa.OpAdd, 6, isa.R(5), isa.R(3)), exit},
			[]string{"fma.f32 r6, r1, r2, r3", "exit"}},
		{"c + a*b, with an instruction between", []isa.Instr{mul, rd5Not(), fop(isa.OpAdd, 6, isa.R(3), isa.R(5)), exit},
			[]string{"mov.f32 r9, r4", "fma.f32 r6, r1, r2, r3", "exit"}},
		{"a*b - c negates c", []isa.Instr{mul, fop(isa.OpSub, 6, isa.R(5), isa.R(3)), exit},
			[]string{"fma.f32 r6, r1, r2, -r3", "exit"}},
		{"c - a*b negates a", []isa.Instr{mul, fop(isa.OpSub, 6, isa.R(3), isa.R(5)), exit},
			[]string{"fma.f32 r6, -r1, r2, r3", "exit"}},
		{"a*b - 1.0 flips the immediate's sign", []isa.Instr{mul, fop(isa.OpSub, 6, isa.R(5), isa.Imm(0x3f800000)), exit},
			[]string{"fma.f32 r6, r1, r2, 3212836864", "exit"}},
		{"not when the add rounds explicitly", []isa.Instr{mul, rn, exit},
			[]string{"mul.f32 r5, r1, r2", "add.f32 r6, r5, r3", "exit"}},
		{"not when the product is read again", []isa.Instr{mul, fop(isa.OpAdd, 6, isa.R(5), isa.R(3)), rd5, exit},
			[]string{"mul.f32 r5, r1, r2", "add.f32 r6, r5, r3", "mov.f32 r8, r5", "exit"}},
		{"not when a factor is written in between", []isa.Instr{mul, wr2, fop(isa.OpAdd, 6, isa.R(5), isa.R(3)), exit},
			[]string{"mul.f32 r5, r1, r2", "mov.f32 r2, 0", "add.f32 r6, r5, r3", "exit"}},
		{"not when only one is .ftz", []isa.Instr{ftz, fop(isa.OpAdd, 6, isa.R(5), isa.R(3)), exit},
			[]string{"mul.ftz.f32 r5, r1, r2", "add.f32 r6, r5, r3", "exit"}},
		{"not guarded", []isa.Instr{mul, guarded, exit},
			[]string{"mul.f32 r5, r1, r2", "@p0 add.f32 r6, r5, r3", "exit"}},
		{"not a*b + a*b", []isa.Instr{mul, fop(isa.OpAdd, 6, isa.R(5), isa.R(5)), exit},
			[]string{"mul.f32 r5, r1, r2", "add.f32 r6, r5, r5", "exit"}},
		{"not f64", []isa.Instr{f64(isa.OpMul, 5, 1, 2), f64(isa.OpAdd, 6, 5, 3), exit},
			[]string{"mul.f64 r5, r1, r2", "add.f64 r6, r5, r3", "exit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			apply(ContractMulAdds, p)
			var got []string
			for i := range p.Instrs {
				in := &p.Instrs[i]
				got = append(got, in.String())
				if in.Op == isa.OpFma && (in.Rnd != isa.RN || in.Class != isa.ClassFMA) {
					t.Errorf("%s: rounding %d class %v, want to nearest on the FMA pipe", in, in.Rnd, in.Class)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func rd5Not() isa.Instr {
	return isa.Instr{Op: isa.OpMov, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(9), isa.R(4)}, Class: isa.ClassALU}
}

func f64(op isa.Op, d, a, b int) isa.Instr {
	return isa.Instr{Op: op, Type: isa.F64, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(b)}, Class: isa.ClassFP64}
}
