package sass

import "github.com/smsim/smsim/isa"

// CompactRegisters moves the uniform registers of a lowered program down to
// just above the highest general register it names. The listing's numbers
// put UR0 at 256 (regIndex), so every warp would carry a file of 320
// registers of 32 lanes, 80 KB, where a kernel names a few dozen: a launch
// of 128 warps allocated and cleared 10 MB. Lower keeps the listing's
// numbers (r260 is UR4 in its output); the run API compacts what it runs.
// A general register keeps its number; a uniform one, whatever its form (a
// plain, paired or index operand), shifts by the same amount, so pairs stay
// pairs. Two registers of margin above the highest general one cover a pair
// based on it.
func CompactRegisters(p *isa.Program) {
	top := 0 // one past the highest general register named, and its pair's
	eachReg(p, func(r *int32) {
		if *r >= 0 && *r < urBase {
			top = max(top, int(*r)+2)
		}
	})
	base := (top + 7) &^ 7
	if base >= urBase {
		return
	}
	eachReg(p, func(r *int32) {
		if *r >= urBase {
			*r -= int32(urBase - base)
		}
	})
	p.UniformRegs, p.NumRegs = int32(base), base+URZ+1
	p.RegNames = regNamesAt(base)
}

// eachReg calls fn with every general-register number the program's
// operands hold: a register's, an address's or a constant's base, and an
// address's index.
func eachReg(p *isa.Program, fn func(r *int32)) {
	for i := range p.Instrs {
		for j := range p.Instrs[i].Ops {
			o := &p.Instrs[i].Ops[j]
			if o.Kind != isa.KReg && o.Kind != isa.KAddr && o.Kind != isa.KConst {
				continue
			}
			fn(&o.Reg)
			if o.Mod.Has(isa.MIndex) {
				fn(&o.Index)
			}
		}
	}
}
