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
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	terms := [][3]int{ // register numbers; -1 an immediate
		{1, -1, -1}, {-1, 2, -1}, {-1, -1, 3}, {0, -1, -1}, {5, -1, -1},
		{1, 2, -1}, {1, -1, 2}, {0, 0, -1}, {4, 5, -1}, {1, 5, -1},
		{1, 2, 3}, {0, 1, 0}, {4, 5, 6}, {2, 2, 2},
	}
	for _, d := range []int{0, 1, 4, 5} {
		for _, tm := range terms {
			ops := termOps(rng, d, tm)
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

// IMAD's kernels give ExecALU's registers: the low word and .WIDE, signed
// and unsigned, each term a register or an immediate (negative ones too, and
// both factors immediates: IMAD.MOV), general and uniform registers (r4 and
// up) as terms, a destination (or pair) that is also a term, full, partial
// and empty masks, and registers with bits above 32.
func TestIMadKernelsMatchExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(4, 32))
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	pair := func(r int) isa.Operand { o := isa.R(r); o.Mod = isa.MPair; return o }
	imms := []uint64{0, 1, 16, 0xffffffff, 0x80000000, 0xfffffff0, 1 << 40}
	for _, mode := range []uint8{isa.IMadLo, isa.IMadWide} {
		for _, typ := range []isa.Type{isa.S32, isa.U32} {
			for _, d := range []int{0, 2} {
				for _, a := range []int{-1, 0, 1, 2, 3, 4, 5} {
					for _, b := range []int{-1, 0, 1, 3, 5} {
						for _, c := range []int{-1, 0, 2, 4} {
							ops := []isa.Operand{isa.R(d), isa.R(a), isa.R(b), isa.R(c)}
							for i, r := range []int{a, b, c} {
								if r < 0 {
									ops[i+1] = isa.Imm(imms[rng.IntN(len(imms))])
								}
							}
							if mode == isa.IMadWide {
								ops[0] = pair(d)
								if c >= 0 {
									ops[3] = pair(c)
								}
							}
							in := isa.Instr{Op: isa.OpIMad, Type: typ, Mode: mode, NDst: 1, Ops: ops}
							k := DecodeKernel(prog, &in)
							if a < 0 && b < 0 && mode == isa.IMadWide {
								if k.Resolved() {
									t.Errorf("IMAD.WIDE %v: a kernel for a product of immediates", ops)
								}
								continue
							}
							if !k.Resolved() {
								t.Fatalf("IMAD mode %d %v: no kernel", mode, ops)
							}
							for _, mask := range masks {
								for _, diff := range kernelAgainstExecALU(t, prog, &in, &k, mask, 8, func(int32, int) uint64 {
									return rng.Uint64() >> rng.IntN(40)
								}) {
									t.Errorf("IMAD mode %d %v %v mask %#x: %s", mode, typ, ops, mask, diff)
								}
							}
						}
					}
				}
			}
		}
	}
}

// IMAD forms outside the kernels (.HI, a carry in or out, modified or
// constant-bank terms, a uniform destination, a pair where a word goes or a
// word where a pair goes) keep no kernel.
func TestIMadKernelsLeaveOtherForms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	neg, pr := isa.R(1), isa.R(2)
	neg.Mod, pr.Mod = isa.MNeg, isa.MPair
	cnst := isa.Operand{Kind: isa.KConst, Imm: 8}
	lo := func(ops ...isa.Operand) isa.Instr {
		return isa.Instr{Op: isa.OpIMad, Type: isa.S32, Mode: isa.IMadLo, NDst: 1, Ops: ops}
	}
	wide := func(ops ...isa.Operand) isa.Instr {
		in := lo(ops...)
		in.Mode = isa.IMadWide
		return in
	}
	hi := wide(pr, isa.R(1), isa.R(3), pr)
	hi.Mode = isa.IMadHi
	carry := lo(isa.R(0), isa.R(1), isa.R(3), isa.R(2), isa.P(1))
	carry.Flags = isa.FCarryIn
	co := lo(isa.R(0), isa.P(1), isa.R(1), isa.R(3), isa.R(2))
	co.NDst = 2
	for _, in := range []isa.Instr{
		hi, carry, co,
		lo(isa.R(0), neg, isa.R(3), isa.R(2)),
		lo(isa.R(0), isa.R(1), neg, isa.R(2)),
		lo(isa.R(0), isa.R(1), isa.R(3), neg),
		lo(isa.R(0), isa.R(1), cnst, isa.R(2)),
		lo(isa.R(5), isa.R(1), isa.R(3), isa.R(2)),
		lo(pr, isa.R(1), isa.R(3), isa.R(2)),
		lo(isa.R(0), isa.R(1), isa.R(3), pr),
		wide(isa.R(0), isa.R(1), isa.R(3), pr),
		wide(pr, isa.R(1), isa.R(3), isa.R(2)),
		{Op: isa.OpIMad, Type: isa.B32, Mode: isa.IMadLo, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(1), isa.R(3), isa.R(2)}},
	} {
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("IMAD mode %d %v flags %v: has a kernel", in.Mode, in.Ops, in.Flags)
		}
	}
}

// termOps is a three-term instruction's operands: destination register d,
// then each term of tm, a register or, where tm has -1, an immediate drawn
// from rng with bits above 32 now and then.
func termOps(rng *rand.Rand, d int, tm [3]int) []isa.Operand {
	ops := []isa.Operand{isa.R(d)}
	for _, r := range tm {
		if r < 0 {
			ops = append(ops, isa.Imm(rng.Uint64()>>rng.IntN(64)))
		} else {
			ops = append(ops, isa.R(r))
		}
	}
	return ops
}

// LEA's kernels give ExecALU's registers and predicates: the low form and
// .HI with a register high word or (.SX32) a's sign, with and without the
// carry in (a predicate, negated too) and the carry out, shifts from 0 to
// 31, general and uniform registers (r4 and up) as terms, a destination
// that is also a term, full, partial and empty masks (a carry out under a
// partial mask is left to ExecALU), and registers with bits above 32.
func TestLeaKernelsMatchExecALU(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, NumPreds: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	rng := rand.New(rand.NewPCG(5, 33))
	masks := []uint32{FullMask, 0x0000fff0, 0x80000000, 0}
	notP2 := isa.P(2)
	notP2.Neg = true
	for _, mode := range []uint8{0, isa.LeaHi, isa.LeaHi | isa.LeaSX32} {
		for _, carryOut := range []bool{false, true} {
			for _, ci := range []isa.Operand{{}, isa.P(1), notP2} {
				for _, d := range []int{0, 2} {
					for _, tm := range [][3]int{{1, 2, 3}, {0, 4, 5}, {2, 0, 0}, {5, 1, 2}} {
						sh := []uint64{0, 1, 4, 24, 31}[rng.IntN(5)]
						ops := []isa.Operand{isa.R(d)}
						ndst := uint8(1)
						if carryOut {
							ops, ndst = append(ops, isa.P(3)), 2
						}
						ops = append(ops, isa.R(tm[0]), isa.R(tm[1]))
						if mode == isa.LeaHi {
							ops = append(ops, isa.R(tm[2]))
						}
						ops = append(ops, isa.Imm(sh))
						in := isa.Instr{Op: isa.OpLea, Type: isa.U32, Mode: mode, NDst: ndst, Ops: ops}
						if ci.Kind == isa.KPred {
							in.Ops, in.Flags = append(in.Ops, ci), isa.FCarryIn
						}
						k := DecodeKernel(prog, &in)
						if !k.Resolved() {
							t.Fatalf("LEA mode %d %v: no kernel", mode, in.Ops)
						}
						for _, mask := range masks {
							for _, diff := range kernelAgainstExecALU(t, prog, &in, &k, mask, 8, func(int32, int) uint64 {
								return rng.Uint64() >> rng.IntN(40)
							}) {
								t.Errorf("LEA mode %d %v flags %v mask %#x: %s", mode, in.Ops, in.Flags, mask, diff)
							}
						}
					}
				}
			}
		}
	}
}

// LEA forms outside the kernels (a modified or immediate term, a shift in a
// register, a uniform destination, a register where the carry out goes,
// modes other than .HI and .SX32) keep no kernel.
func TestLeaKernelsLeaveOtherForms(t *testing.T) {
	prog := &isa.Program{NumRegs: 8, UniformRegs: 4, NumPreds: 4, Instrs: []isa.Instr{{Op: isa.OpExit}}}
	neg := isa.R(1)
	neg.Mod = isa.MNeg
	lea := func(mode uint8, ndst uint8, ops ...isa.Operand) isa.Instr {
		return isa.Instr{Op: isa.OpLea, Type: isa.U32, Mode: mode, NDst: ndst, Ops: ops}
	}
	for _, in := range []isa.Instr{
		lea(0, 1, isa.R(0), neg, isa.R(2), isa.Imm(4)),
		lea(0, 1, isa.R(0), isa.R(1), neg, isa.Imm(4)),
		lea(0, 1, isa.R(0), isa.Imm(3), isa.R(2), isa.Imm(4)),
		lea(0, 1, isa.R(0), isa.R(1), isa.Imm(3), isa.Imm(4)),
		lea(0, 1, isa.R(0), isa.R(1), isa.R(2), isa.R(3)),
		lea(0, 1, isa.R(5), isa.R(1), isa.R(2), isa.Imm(4)),
		lea(0, 2, isa.R(0), isa.R(3), isa.R(1), isa.R(2), isa.Imm(4)),
		lea(isa.LeaHi, 1, isa.R(0), isa.R(1), isa.R(2), isa.Imm(3), isa.Imm(4)),
		lea(isa.LeaHi, 1, isa.R(0), isa.R(1), isa.R(2), isa.Imm(4)),
		lea(4, 1, isa.R(0), isa.R(1), isa.R(2), isa.Imm(4)),
	} {
		if k := DecodeKernel(prog, &in); k.Resolved() {
			t.Errorf("LEA mode %d %v: has a kernel", in.Mode, in.Ops)
		}
	}
}
