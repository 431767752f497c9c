package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

func addI(d int, imm uint64) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(d), isa.Imm(imm)}, Class: isa.ClassALU}
}

func fma(d, a int) isa.Instr {
	return isa.Instr{Op: isa.OpFma, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(8), isa.R(9)}, Class: isa.ClassFMA}
}

func TestHoistLoopCountersMovesTheCounterToTheTop(t *testing.T) {
	// 0: mov  1: fma 2: fma 3: fma  4: add c  5: setp p, c, r7  6: @p bra 1  7: exit
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	p := &isa.Program{Instrs: []isa.Instr{aluI(4, 6), fma(1, 1), fma(1, 1), fma(1, 1), addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}}
	apply(HoistLoopCounters, p)
	want := []isa.Op{isa.OpAdd, isa.OpAdd, isa.OpFma, isa.OpSetp, isa.OpFma, isa.OpFma, isa.OpBra, isa.OpExit}
	got := opsOf(p)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if p.Instrs[6].Target != 1 {
		t.Errorf("back edge to %d, want 1", p.Instrs[6].Target)
	}
}

func TestHoistLoopCountersLeavesLoopsThatUseTheCounter(t *testing.T) {
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		body isa.Instr
	}{
		{"the body reads the counter", isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(4), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body writes the bound", isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.R(1), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body reads the predicate", isa.Instr{Op: isa.OpAdd, Type: isa.U32, Guard: isa.P(2), NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body branches", gbra(isa.P(3), 7)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := []isa.Instr{aluI(4, 6), fma(1, 1), tc.body, addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}
			p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...)}
			apply(HoistLoopCounters, p)
			for i := range prog {
				if p.Instrs[i].Op != prog[i].Op {
					t.Fatalf("got %v, want the loop unchanged", opsOf(p))
				}
			}
		})
	}
}

func TestHoistLoopCountersPutsTheCounterBehindItsLastRead(t *testing.T) {
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	addr := isa.Instr{Op: isa.OpShl, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(4), isa.Imm(4)}, Class: isa.ClassALU}
	ld := isa.Instr{Op: isa.OpLd, Space: isa.Shared, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(6), isa.Addr(5, 0)}, Class: isa.ClassShared}
	sum := isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.R(6)}, Class: isa.ClassALU}
	// 0: mov  1: shl (reads c)  2: ld  3: add sum  4: add c  5: setp  6: @p bra 1
	p := &isa.Program{Instrs: []isa.Instr{aluI(4, 6), addr, ld, sum, addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}}
	apply(HoistLoopCounters, p)
	want := []isa.Op{isa.OpAdd, isa.OpShl, isa.OpAdd, isa.OpLd, isa.OpSetp, isa.OpAdd, isa.OpBra, isa.OpExit}
	got := opsOf(p)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if p.Instrs[2].Ops[0].Reg != 4 || p.Instrs[5].Ops[0].Reg != 1 {
		t.Errorf("the counter's add should follow the shl that reads it: %v", opsOf(p))
	}
}
