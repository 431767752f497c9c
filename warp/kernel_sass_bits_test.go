package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// LOP3's kernels give ExecALU's registers: every mix of register and
// immediate terms (the immediates folded into the table), tables at random
// and every table for two mixes, general and uniform destinations, a
// destination that is also a term, full, partial and empty masks, and
// operands with bits above 32.
func TestLop3KernelsMatchExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(5, 32))
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	terms := [][3]int{ // register numbers; -1 an immediate
		{-1, -1, -1}, {1, -1, -1}, {-1, 2, -1}, {-1, -1, 3}, {0, -1, -1}, {5, -1, -1},
		{1, 2, -1}, {1, -1, 2}, {-1, 1, 2}, {0, 0, -1}, {4, 5, -1},
		{1, 2, 3}, {0, 1, 0}, {4, 5, 6}, {2, 2, 2},
	}
	for _, d := range []int{0, 1, 4} {
		for ti, tm := range terms {
			tables := []uint64{0x3c, 0xc0, 0xfc, 0xe2, 0x96, 0x00, 0xff, uint64(rng.IntN(256))}
			if ti == 6 || ti == 11 {
				tables = tables[:0]
				for tb := range 256 {
					tables = append(tables, uint64(tb))
				}
			}
			for _, tb := range tables {
				ops := append(termOps(rng, d, tm), isa.Imm(tb), isa.P(7))
				in := isa.Instr{Op: isa.OpSLop3, Type: isa.B32, NDst: 1, Ops: ops}
				k := DecodeKernel(prog, &in)
				if !k.Resolved() {
					t.Fatalf("LOP3 %v: no kernel", ops)
				}
				for _, mask := range masks {
					for _, diff := range kernelAgainstExecALU(t, prog, &in, &k, mask, 8, func(int32, int) uint64 { return rng.Uint64() >> rng.IntN(40) }) {
						t.Errorf("LOP3 %v mask %#x: %s", ops, mask, diff)
					}
				}
			}
		}
	}
}

// SHF's kernels give ExecALU's registers: every combination of the mode
// bits (left or right, high word, wrap, 64-bit, signed), amounts from 0 to
// past 64, a and b registers or immediates, general and uniform
// destinations, a destination that is also a term, full, partial and empty
// masks, and operands with bits above 32.
func TestShfKernelsMatchExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(6, 32))
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	amounts := []uint64{0, 1, 5, 16, 31, 32, 33, 48, 63, 64, 65, 100, 1<<32 + 3}
	pairs := [][2]int{{1, 2}, {1, -1}, {-1, 2}, {-1, -1}, {0, 0}, {0, 3}, {4, 5}}
	for md := range uint8(32) {
		for _, d := range []int{0, 4} {
			for _, ab := range pairs {
				for _, n := range amounts {
					ops := []isa.Operand{isa.R(d), isa.R(ab[0]), isa.Imm(n), isa.R(ab[1])}
					for i, r := range []int{ab[0], ab[1]} {
						if r < 0 {
							ops[1+2*i] = isa.Imm(rng.Uint64() >> rng.IntN(64))
						}
					}
					in := isa.Instr{Op: isa.OpSShf, Type: isa.B32, Mode: md, NDst: 1, Ops: ops}
					k := DecodeKernel(prog, &in)
					if !k.Resolved() {
						t.Fatalf("SHF mode %#x %v: no kernel", md, ops)
					}
					for _, mask := range masks {
						for _, diff := range kernelAgainstExecALU(t, prog, &in, &k, mask, 8, func(int32, int) uint64 { return rng.Uint64() >> rng.IntN(40) }) {
							t.Errorf("SHF mode %#x %v mask %#x: %s", md, ops, mask, diff)
						}
					}
				}
			}
		}
	}
}

// LOP3 and SHF forms outside the kernels (a predicate destination, modified
// or constant terms, a sink, a register amount) keep no kernel.
func TestLop3ShfKernelsLeaveOtherForms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	not := isa.R(1)
	not.Mod = isa.MNot
	cnst := isa.Operand{Kind: isa.KConst, Imm: 8}
	for _, in := range []isa.Instr{
		{Op: isa.OpSLop3, Type: isa.B32, NDst: 2, Ops: []isa.Operand{isa.R(0), isa.P(1), isa.R(1), isa.R(2), isa.Imm(0), isa.Imm(0x3c), isa.P(7)}},
		{Op: isa.OpSLop3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), not, isa.R(2), isa.Imm(0), isa.Imm(0x3c), isa.P(7)}},
		{Op: isa.OpSLop3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), cnst, isa.Imm(0), isa.Imm(0x3c), isa.P(7)}},
		{Op: isa.OpSLop3, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.R(1), isa.R(2), isa.Imm(0), isa.Imm(0x3c), isa.P(7)}},
		{Op: isa.OpSShf, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), isa.R(2), isa.R(3)}},
		{Op: isa.OpSShf, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), not, isa.Imm(2), isa.R(3)}},
		{Op: isa.OpSShf, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), isa.Imm(2), cnst}},
		{Op: isa.OpSShf, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.R(1), isa.Imm(2), isa.R(3)}},
	} {
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("%v %v: has a kernel", in.Op, in.Ops)
		}
	}
}
