package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func clock(r int) isa.Instr {
	return isa.Instr{Op: isa.OpMov, Type: isa.U64, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.Spec(isa.SClock64)}, Class: isa.ClassSpecial}
}

func aluI(d, s int) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(s), isa.Imm(1)}, Class: isa.ClassALU}
}

func TestClockReadsMoveAboveIndependentArithmeticOnly(t *testing.T) {
	tw := isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	selp := isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.Imm(1), isa.Imm(0), isa.P(0)}, Class: isa.ClassALU}
	ld := isa.Instr{Op: isa.OpLd, Space: isa.Shared, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.Addr(5, 0)}, Class: isa.ClassShared}
	tests := []struct {
		name string
		prog []isa.Instr
		want []isa.Op // the opcode sequence after scheduling
	}{
		{"clock passes selp and setp up to the try_wait they wait on",
			[]isa.Instr{clock(0), tw, selp, aluI(3, 1), clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMov, isa.OpMbarTryWait, isa.OpMov, isa.OpSelp, isa.OpAdd, isa.OpExit}},
		{"clock passes arithmetic that waits on a load",
			[]isa.Instr{ld, aluI(3, 2), clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpLd, isa.OpMov, isa.OpAdd, isa.OpExit}},
		{"clock stays below arithmetic that waits on nothing",
			[]isa.Instr{tw, aluI(1, 2), aluI(3, 1), clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMbarTryWait, isa.OpAdd, isa.OpAdd, isa.OpMov, isa.OpExit}},
		{"clock stays below an instruction that writes its register",
			[]isa.Instr{ld, aluI(4, 2), clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpLd, isa.OpAdd, isa.OpMov, isa.OpExit}},
		{"clock does not pass a branch target",
			[]isa.Instr{ld, {Op: isa.OpBra, Guard: isa.P(1), Target: 3}, aluI(3, 2), aluI(6, 2), clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpLd, isa.OpBra, isa.OpAdd, isa.OpAdd, isa.OpMov, isa.OpExit}},
		{"clock does not pass a store",
			[]isa.Instr{{Op: isa.OpSt, Space: isa.Global, Ops: []isa.Operand{isa.Addr(1, 0), isa.R(2)}, Class: isa.ClassGlobal}, clock(4), {Op: isa.OpExit}},
			[]isa.Op{isa.OpSt, isa.OpMov, isa.OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			apply(HoistClockReads, p)
			for i, op := range tc.want {
				if p.Instrs[i].Op != op {
					t.Fatalf("got %v at %d, want %v (program %v)", p.Instrs[i].Op, i, op, opsOf(p))
				}
			}
		})
	}
}

func opsOf(p *isa.Program) []isa.Op {
	var out []isa.Op
	for i := range p.Instrs {
		out = append(out, p.Instrs[i].Op)
	}
	return out
}
