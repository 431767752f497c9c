package warp

import (
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
)

// HADD2.F32 d, -RZ, b.H0_H0 / .H1_H1's kernel gives ExecALU's registers for
// every half (zeros, subnormals, normals, infinities, NaNs of any payload)
// in either half, the other half and the bits above 32 random, a
// destination that is also the source, and full, partial and empty masks.
func TestHAdd2F32WidenKernelMatchesExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(5, 32))
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	for _, mod := range []isa.Mod{isa.MH0H0, isa.MH1H1} {
		shift := 0
		if mod == isa.MH1H1 {
			shift = 16
		}
		for _, d := range []int{0, 1} {
			b := isa.R(1)
			b.Mod = mod
			in := isa.Instr{Op: isa.OpSHAdd2F32, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Imm(0x80008000), b}}
			k := DecodeKernel(prog, &in)
			if !k.Resolved() {
				t.Fatalf("HADD2.F32 %v: no kernel", in.Ops)
			}
			for base := 0; base < 1<<16; base += Lanes {
				mask := masks[base/Lanes%len(masks)]
				value := func(_ int32, l int) uint64 {
					return rng.Uint64()&^(0xffff<<shift) | uint64(base+l)<<shift
				}
				for _, diff := range kernelAgainstExecALU(t, prog, &in, &k, mask, 4, value) {
					t.Errorf("HADD2.F32 %v halves %#x.. mask %#x: %s", in.Ops, base, mask, diff)
				}
			}
		}
	}
}

// HADD2.F32 forms other than the widening of a half by plain registers keep
// no kernel: a register or +0 first, a whole register second, a uniform or
// sink destination, a uniform source.
func TestHAdd2F32KernelLeavesOtherForms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	h0 := func(r int) isa.Operand { o := isa.R(r); o.Mod = isa.MH0H0; return o }
	negZero := isa.Imm(0x80008000)
	for _, ops := range [][]isa.Operand{
		{isa.R(0), h0(2), h0(1)},
		{isa.R(0), isa.Imm(0), h0(1)},
		{isa.R(0), negZero, isa.R(1)},
		{isa.R(5), negZero, h0(1)},
		{isa.Sink(), negZero, h0(1)},
		{isa.R(0), negZero, h0(5)},
	} {
		in := isa.Instr{Op: isa.OpSHAdd2F32, Type: isa.F32, NDst: 1, Ops: ops}
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("HADD2.F32 %v: has a kernel", ops)
		}
	}
}
