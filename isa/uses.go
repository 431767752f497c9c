package isa

// Loc is a register or a predicate: a location an instruction reads or
// writes other than memory. Kind is KReg or KPred.
type Loc struct {
	Kind Kind
	N    int32
}

// RegLoc is general register n.
func RegLoc(n int32) Loc { return Loc{KReg, n} }

// PredLoc is predicate register n.
func PredLoc(n int32) Loc { return Loc{KPred, n} }

// Uses calls f for every register and predicate in reads or writes, in
// operand order after the guard, with def true for a destination. An
// address reads its base register; the guard is a read. An instruction that
// reads a location twice reports it twice.
func (in *Instr) Uses(f func(l Loc, def bool)) {
	if in.Guard.Kind == KPred {
		f(Loc{KPred, in.Guard.Reg}, false)
	}
	for k, o := range in.Ops {
		switch {
		case o.Kind == KReg || o.Kind == KPred:
			f(Loc{o.Kind, o.Reg}, k < int(in.NDst))
		case o.Kind == KAddr && o.Reg >= 0:
			f(Loc{KReg, o.Reg}, false)
		}
	}
}

// Reads reports whether in reads l (an operand, an address base or the guard).
func (in *Instr) Reads(l Loc) bool {
	found := false
	in.Uses(func(r Loc, def bool) { found = found || !def && r == l })
	return found
}

// Writes reports whether in writes l.
func (in *Instr) Writes(l Loc) bool {
	found := false
	in.Uses(func(r Loc, def bool) { found = found || def && r == l })
	return found
}

// ReadCounts counts, per register and predicate, the operands of p's
// instructions that read it (a guard counts; an instruction reading a
// register twice counts twice).
func ReadCounts(p *Program) map[Loc]int {
	reads := map[Loc]int{}
	for k := range p.Instrs {
		p.Instrs[k].Uses(func(r Loc, def bool) {
			if !def {
				reads[r]++
			}
		})
	}
	return reads
}

// Defs lists, per register and predicate, the instructions of p that write
// it, in program order (an instruction once per destination operand).
func Defs(p *Program) map[Loc][]int {
	defs := map[Loc][]int{}
	for k := range p.Instrs {
		p.Instrs[k].Uses(func(r Loc, def bool) {
			if def {
				defs[r] = append(defs[r], k)
			}
		})
	}
	return defs
}
