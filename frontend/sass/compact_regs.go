package sass

import "github.com/smsim/smsim/isa"

// CompactRegisters moves the uniform registers of a lowered program down to just above the highest
// general register the program names. The listing's register numbers put
// UR0 at 256 (regIndex), so every warp would carry a file of 320 registers
// of 32 lanes, 80 KB, where a kernel names a few dozen: a launch of 128
// warps allocated and cleared 10 MB. Lower keeps the listing's numbers
// (r260 is UR4 in its output); the run API compacts what it runs. A general register keeps its number;
// a uniform one, whatever its form (a plain, paired or index operand),
// shifts by the same amount, so pairs stay pairs. Two registers of margin
// above the highest general one cover a pair based on it.
func CompactRegisters(p *isa.Program) {
	top := 0 // one past the highest general register named, and its pair's
	for i := range p.Instrs {
		for j := range p.Instrs[i].Ops {
			o := &p.Instrs[i].Ops[j]
			if !namesRegs(o) {
				continue
			}
			if o.Reg >= 0 && o.Reg < urBase {
				top = max(top, int(o.Reg)+2)
			}
			if o.Mod.Has(isa.MIndex) && o.Index >= 0 && o.Index < urBase {
				top = max(top, int(o.Index)+2)
			}
		}
	}
	base := (top + 7) &^ 7
	if base >= urBase {
		return
	}
	shift := int32(urBase - base)
	for i := range p.Instrs {
		for j := range p.Instrs[i].Ops {
			o := &p.Instrs[i].Ops[j]
			if !namesRegs(o) {
				continue
			}
			if o.Reg >= urBase {
				o.Reg -= shift
			}
			if o.Mod.Has(isa.MIndex) && o.Index >= urBase {
				o.Index -= shift
			}
		}
	}
	p.UniformRegs, p.NumRegs = int32(base), base+URZ+1
	p.RegNames = regNamesAt(base)
}

// namesRegs reports whether o's Reg (and Index) are general registers.
func namesRegs(o *isa.Operand) bool {
	return o.Kind == isa.KReg || o.Kind == isa.KAddr || o.Kind == isa.KConst
}
