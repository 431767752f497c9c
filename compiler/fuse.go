package compiler

import "github.com/smsim/smsim/isa"

// FuseAdds makes two dependent integer adds one three-input add (IADD3).
var FuseAdds = Pass{
	Name: "FuseAdds",
	Doc: "ptxas's IADD3 adds three operands: two integer adds where the second reads the first's result, and " +
		"nothing else does, are one SASS instruction. pipeline.cu's chain of dependent `add.u32 x, x, k` runs " +
		"at half the 4-cycle latency of an IADD3 an add, each IADD3 doing two of them (SASS: calibration/h200 " +
		"pipeline.sass); libpipe.cu's loop counter's two increments are one `IADD3 R22, R3, R3, R22` " +
		"(libpipe.sass).",
	Run: fuseAdds,
}

// fuseAdds rewrites, in a straight run of instructions,
//
//	add.T d, a, b;  …;  add.T e, d, c   (or e, c, d)
//
// as `add.T e, a, b, c` at the second add's place when T is a 32- or 64-bit
// integer type, neither add is guarded or has a flag (.sat, .cc, carry),
// nothing between them reads or writes d or writes a or b, c is not d, and d
// is dead after the second add (the second add writes d, or it is d's only
// reader in the program). Every lane computes the same values; only the
// number of instructions changes. Programs with indirect branches are left as
// they are.
func fuseAdds(p *isa.Program, _ *Options) {
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		first := &p.Instrs[i]
		if del[i] || !fusableAdd(first) {
			continue
		}
		d := first.Ops[0].Reg
		j, ok := firstReader(p, i, d, targeted, del)
		if !ok {
			continue
		}
		in := &p.Instrs[j]
		if !fusableAdd(in) || in.Type != first.Type {
			continue
		}
		var c isa.Operand
		switch {
		case in.Ops[1].Kind == isa.KReg && in.Ops[1].Reg == d && !(in.Ops[2].Kind == isa.KReg && in.Ops[2].Reg == d):
			c = in.Ops[2]
		case in.Ops[2].Kind == isa.KReg && in.Ops[2].Reg == d && !(in.Ops[1].Kind == isa.KReg && in.Ops[1].Reg == d):
			c = in.Ops[1]
		}
		dead := in.Ops[0].Reg == d || reads[isa.RegLoc(d)] == 1
		if c.Kind != isa.KNone && dead {
			in.Ops = []isa.Operand{in.Ops[0], first.Ops[1], first.Ops[2], c}
			del[i] = true
		}
	}
	dropMarked(p, del)
}

// fusableAdd reports whether in is an unguarded two-input integer add of 32
// or 64 bits without flags, writing a register.
func fusableAdd(in *isa.Instr) bool {
	if in.Op != isa.OpAdd || in.Guard.Kind != isa.KNone || in.NDst != 1 || len(in.Ops) != 3 || in.Ops[0].Kind != isa.KReg {
		return false
	}
	switch in.Type {
	case isa.U32, isa.S32, isa.B32, isa.U64, isa.S64, isa.B64:
	default:
		return false
	}
	if in.Flags.Has(isa.FSat) || in.Flags.Has(isa.FCC) || in.Flags.Has(isa.FCarryIn) {
		return false
	}
	for _, o := range in.Ops[1:] {
		if o.Kind != isa.KReg && o.Kind != isa.KImm {
			return false
		}
	}
	return true
}

// writesSource reports whether writes holds a register source of in.
func writesSource(in *isa.Instr, writes map[int32]bool) bool {
	for _, o := range in.Ops[1:] {
		if o.Kind == isa.KReg && writes[o.Reg] {
			return true
		}
	}
	return false
}
