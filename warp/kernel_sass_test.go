package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// IADD3's kernels give ExecALU's registers: every mix of register and
// immediate terms, general and uniform registers (r4 and up), a
// destination that is also a term, full, partial and empty masks, and
// operands with bits above 32.
func TestIAdd3KernelsMatchExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(3, 32))
	imm := func() isa.Operand { return isa.Imm(rng.Uint64() >> rng.IntN(64)) }
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	terms := [][3]int{ // register numbers; -1 an immediate
		{1, -1, -1}, {-1, 2, -1}, {-1, -1, 3}, {0, -1, -1}, {5, -1, -1},
		{1, 2, -1}, {1, -1, 2}, {0, 0, -1}, {4, 5, -1}, {1, 5, -1},
		{1, 2, 3}, {0, 1, 0}, {4, 5, 6}, {2, 2, 2},
	}
	for _, d := range []int{0, 1, 4, 5} {
		for _, tm := range terms {
			ops := []isa.Operand{isa.R(d)}
			for _, r := range tm {
				if r < 0 {
					ops = append(ops, imm())
				} else {
					ops = append(ops, isa.R(r))
				}
			}
			in := isa.Instr{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: ops}
			k := DecodeKernel(prog, &in)
			if !k.Resolved() {
				t.Fatalf("IADD3 %v: no kernel", ops)
			}
			for _, mask := range masks {
				for _, d := range kernelAgainstExecALU(t, prog, &in, &k, mask, 8, func(int32, int) uint64 { return rng.Uint64() >> rng.IntN(40) }) {
					t.Errorf("IADD3 %v mask %#x: %s", ops, mask, d)
				}
			}
		}
	}
}

// IADD3 forms outside the kernels (carries, modified terms, constants, a
// sink, only immediates) keep no kernel.
func TestIAdd3KernelsLeaveOtherForms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	neg, not := isa.R(1), isa.R(2)
	neg.Mod, not.Mod = isa.MNeg, isa.MNot
	pair := isa.R(0)
	pair.Mod = isa.MPair
	for _, in := range []isa.Instr{
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 2, Ops: []isa.Operand{isa.R(0), isa.P(1), isa.R(1), isa.R(2), isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Flags: isa.FCarryIn,
			Ops: []isa.Operand{isa.R(0), isa.R(1), isa.R(2), isa.Imm(0), isa.P(1), isa.P(2)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), neg, isa.R(2), isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), not, isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), {Kind: isa.KConst, Imm: 8}, isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.R(1), isa.R(2), isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{pair, isa.R(1), isa.R(2), isa.Imm(0)}},
		{Op: isa.OpIAdd3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.Imm(1), isa.Imm(2), isa.Imm(0)}},
	} {
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("IADD3 %v flags %v: has a kernel", in.Ops, in.Flags)
		}
	}
}
