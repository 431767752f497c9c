package sm

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// The integer and FMA datapaths are 16-lane halves (throughput.csv): an
// instruction holds its pipe interval cycles, FFMA takes either FMA half,
// and integer adds and moves either the integer pipe or the FMA-heavy one,
// while logic and IMAD have one pipe each.
func TestPipesOfTheIntegerAndFMADatapaths(t *testing.T) {
	reg := isa.Operand{Kind: isa.KReg}
	imm := isa.Operand{Kind: isa.KImm}
	mk := func(op isa.Op, ty isa.Type, class isa.Class, srcs ...isa.Operand) *isa.Instr {
		in := &isa.Instr{Op: op, Type: ty, Class: class}
		in.Ops = append([]isa.Operand{reg}, srcs...)
		in.NDst = 1
		return in
	}
	cases := []struct {
		name string
		in   *isa.Instr
		a, b int
	}{
		{"ffma takes either half of the FMA pipe", mk(isa.OpFma, isa.F32, isa.ClassFMA, reg, reg, reg), pipeFMALite, pipeFMAHeavy},
		{"imad only the heavy half", mk(isa.OpMad, isa.U32, isa.ClassIMAD, reg, reg, reg), pipeFMAHeavy, -1},
		{"iadd the integer pipe or IMAD.IADD", mk(isa.OpAdd, isa.U32, isa.ClassALU, reg, reg), pipeInt, pipeFMAHeavy},
		{"mov the integer pipe or IMAD.MOV", mk(isa.OpMov, isa.U32, isa.ClassALU, imm), pipeInt, pipeFMAHeavy},
		{"shl by a constant may be IMAD.SHL", mk(isa.OpShl, isa.B32, isa.ClassALU, reg, imm), pipeInt, pipeFMAHeavy},
		{"shl by a register is SHF", mk(isa.OpShl, isa.B32, isa.ClassALU, reg, reg), pipeInt, -1},
		{"lop3 only the integer pipe", mk(isa.OpLop3, isa.B32, isa.ClassALU, reg, reg, reg, imm), pipeInt, -1},
		{"64-bit add stays on the integer pipe", mk(isa.OpAdd, isa.U64, isa.ClassALU, reg, reg), pipeInt, -1},
		{"add.cc stays on the integer pipe", func() *isa.Instr {
			in := mk(isa.OpAdd, isa.U32, isa.ClassALU, reg, reg)
			in.Flags |= isa.FCC
			return in
		}(), pipeInt, -1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if a, b := pipesOf(c.in); a != c.a || b != c.b {
				t.Errorf("pipesOf = %d, %d, want %d, %d", a, b, c.a, c.b)
			}
		})
	}
}

// Two adds issue back to back on the two pipes that take them; a third
// waits for the first pipe to free; two logic ops are interval apart.
func TestDualPipesShareTheIssueSlots(t *testing.T) {
	reg := isa.Operand{Kind: isa.KReg}
	add := &isa.Instr{Op: isa.OpAdd, Type: isa.U32, Class: isa.ClassALU, Ops: []isa.Operand{reg, reg, reg}, NDst: 1}
	lop := &isa.Instr{Op: isa.OpXor, Type: isa.B32, Class: isa.ClassALU, Ops: []isa.Operand{reg, reg, reg}, NDst: 1}
	tab := pipeTable(&isa.Program{Instrs: []isa.Instr{*add, *lop}})
	addP, lopP := tab[0], tab[1]
	var sc scheduler
	sc.occupy(0, addP, 2)
	if r := sc.pipeReady(addP); r != 0 {
		t.Fatalf("second add ready at %d, want 0 (the FMA-heavy pipe is free)", r)
	}
	sc.occupy(0, addP, 2)
	if r := sc.pipeReady(addP); r != 2 {
		t.Errorf("third add ready at %d, want 2", r)
	}
	var sc2 scheduler
	sc2.occupy(0, lopP, 2)
	if r := sc2.pipeReady(lopP); r != 2 {
		t.Errorf("second xor ready at %d, want 2", r)
	}
	if r := sc2.pipeReady(addP); r != 0 {
		t.Errorf("an add after an xor ready at %d, want 0 (IMAD.IADD)", r)
	}
}

// A MUFU result reaches the FMA pipe a cycle late, and the FMA pipe's result
// the MUFU unit a cycle late (latency.mufu_forward): pipeline.csv's
// mufu_rcp_ffma_pair runs 23.11 cycles a pair, 17 + 4 + 2. A chain on one
// pipe pays nothing.
func TestMUFUResultsCrossToOtherPipesACycleLate(t *testing.T) {
	chain := func(ops ...isa.Op) *isa.Program {
		a := newAsm(4, 1)
		for i := 0; i < 8; i++ {
			for _, op := range ops {
				if op == isa.OpFma {
					a.emit(alu(isa.OpFma, isa.F32, isa.R(1), isa.R(1), isa.R(2), isa.R(3)))
				} else {
					in := alu(op, isa.F32, isa.R(1), isa.R(1))
					in.Flags |= isa.FApprox
					a.emit(in)
				}
			}
		}
		return a.emit(exit).done()
	}
	cycles := func(p *isa.Program, forward int) uint64 {
		c := DefaultConfig()
		c.Pipes.MUFUForward = forward
		return mustRun(t, p, 32, &c).Cycles
	}
	mixed := chain(isa.OpEx2, isa.OpFma)
	// 8 pairs cross 15 times: into the FMA pipe 8 times, back 7.
	if d := cycles(mixed, 1) - cycles(mixed, 0); d != 15 {
		t.Errorf("8 MUFU/FMA pairs: %d cycles more with latency.mufu_forward 1, want 15 (a cycle at each crossing)", d)
	}
	for name, p := range map[string]*isa.Program{"MUFU alone": chain(isa.OpEx2), "FMA alone": chain(isa.OpFma)} {
		if d := cycles(p, 1) - cycles(p, 0); d != 0 {
			t.Errorf("%s: %d cycles more with latency.mufu_forward 1, want 0", name, d)
		}
	}
}
