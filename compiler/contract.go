package compiler

import "github.com/smsim/smsim/isa"

// ContractMulAdds makes an f32 multiply and the add or subtract that reads it one fused multiply-add.
var ContractMulAdds = Pass{
	Name: "ContractMulAdds",
	Doc: "The PTX ISA lets the code generator contract `mul` and `add`/`sub` without a rounding modifier " +
		"into `fma` (\"mul/add ... may be optimized aggressively by the code generator, e.g. contracted " +
		"into fma\"), and ptxas does: fa3_fwd's softmax spells `m_old * scale - m_new * scale` as " +
		"`mul.f32; mul.f32; sub.f32` and the SASS the H200 ran has `FMUL R122, R9, R0` (m_new * scale, which " +
		"other instructions read) and `FFMA R121, R9, R16, -R122` (apps/h200/fa3_fwd.sass). The fused " +
		"result is rounded once, so this pass changes values: without it the PTX run of fa3_fwd differs from " +
		"the H200's output in the last bits.",
	Run: contractMulAdds,
}

// contractMulAdds rewrites, in a straight run of instructions,
//
//	mul.f32 d, a, b;  …;  add.f32 e, d, c   (or e, c, d)   as  fma.rn.f32 e, a, b, c
//	mul.f32 d, a, b;  …;  sub.f32 e, d, c                  as  fma.rn.f32 e, a, b, -c
//	mul.f32 d, a, b;  …;  sub.f32 e, c, d                  as  fma.rn.f32 e, -a, b, c
//
// at the second instruction's place when neither has a rounding modifier
// (an explicit .rn forbids contraction), a guard or .sat, both agree on
// .ftz, d is the add's only register source that the multiply wrote and d
// is dead after it (the add writes d, or is d's only reader in the
// program), and nothing between them reads or writes d or writes a or b.
// The negated operand is a register read with its sign flipped (isa.MFNeg)
// or an immediate with bit 31 flipped; an operand of another kind keeps
// the pair as it is. Programs with indirect branches are left as they are.
func contractMulAdds(p *isa.Program, _ *Options) {
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		mul := &p.Instrs[i]
		if del[i] || !contractible(mul, isa.OpMul) {
			continue
		}
		d := mul.Ops[0].Reg
		j, ok := firstReader(p, i, d, targeted, del)
		if !ok {
			continue
		}
		in := &p.Instrs[j]
		dead := in.Ops[0].Reg == d || reads[isa.RegLoc(d)] == 1
		if dead && (contractible(in, isa.OpAdd) || contractible(in, isa.OpSub)) && in.Flags == mul.Flags {
			if ops, ok := fusedOperands(mul, in, d); ok {
				in.Op, in.Rnd, in.Ops = isa.OpFma, isa.RN, ops
				in.Class = isa.ClassOf(in)
				del[i] = true
			}
		}
	}
	dropMarked(p, del)
}

// contractible reports whether in is an unguarded two-source f32 op without
// a rounding modifier or .sat, writing one register from registers and
// immediates.
func contractible(in *isa.Instr, op isa.Op) bool {
	if in.Op != op || in.Type != isa.F32 || in.Rnd != isa.RNone || in.Guard.Kind != isa.KNone || in.NDst != 1 ||
		len(in.Ops) != 3 || in.Ops[0].Kind != isa.KReg || in.Flags&^isa.FFtz != 0 {
		return false
	}
	for _, o := range in.Ops[1:] {
		if o.Kind != isa.KReg && o.Kind != isa.KImm || o.Mod != 0 {
			return false
		}
	}
	return true
}

// fusedOperands returns the fma's operands (e, a, b, c) for the add or
// subtract in that reads the multiply's result d in exactly one source.
func fusedOperands(mul, in *isa.Instr, d int32) ([]isa.Operand, bool) {
	isD := func(o isa.Operand) bool { return o.Kind == isa.KReg && o.Reg == d }
	x, y := in.Ops[1], in.Ops[2]
	a, b := mul.Ops[1], mul.Ops[2]
	switch {
	case isD(x) == isD(y):
		return nil, false
	case in.Op == isa.OpAdd && isD(x):
		return []isa.Operand{in.Ops[0], a, b, y}, true
	case in.Op == isa.OpAdd:
		return []isa.Operand{in.Ops[0], a, b, x}, true
	case isD(x): // d - c = a*b + (-c)
		c, ok := negated(y)
		return []isa.Operand{in.Ops[0], a, b, c}, ok
	default: // c - d = (-a)*b + c
		na, ok := negated(a)
		return []isa.Operand{in.Ops[0], na, b, x}, ok
	}
}

// negated returns the f32 operand o with its sign flipped as it is read.
func negated(o isa.Operand) (isa.Operand, bool) {
	switch o.Kind {
	case isa.KReg:
		o.Mod ^= isa.MFNeg
		return o, true
	case isa.KImm:
		o.Imm ^= 1 << 31
		return o, true
	}
	return o, false
}
