package compiler

import "github.com/smsim/smsim/isa"

// The passes edit a program in place: they delete, insert and reorder
// instructions. Branch targets are instruction indices, so every edit
// renumbers them; the helpers here do it once for all passes. A pass that
// changes control flow recomputes the reconvergence points
// (isa.Reconverge) before it returns.

// straightRunState is what a pass that removes instructions by looking along
// straight runs of p needs: each register's read count (isa.ReadCounts), each
// instruction's incoming branches (isa.BranchTargets) and a deletion mark per
// instruction (for dropMarked). ok is false for a program with indirect
// branches, which such passes leave as it is.
func straightRunState(p *isa.Program) (reads map[isa.Loc]int, targeted []int, del []bool, ok bool) {
	if p.HasIndirect() {
		return nil, nil, nil, false
	}
	return isa.ReadCounts(p), isa.BranchTargets(p), make([]bool, len(p.Instrs)), true
}

// dropMarked removes the instructions del marks, if any, and recomputes the
// reconvergence points.
func dropMarked(p *isa.Program, del []bool) {
	for _, d := range del {
		if d {
			deleteInstrs(p, del)
			isa.Reconverge(p, nil)
			return
		}
	}
}

// deleteInstrs removes the marked instructions; a branch to a removed one
// goes to the next instruction kept.
func deleteInstrs(p *isa.Program, del []bool) {
	seqs := map[int][]isa.Instr{}
	for k, d := range del {
		if d {
			seqs[k] = nil
		}
	}
	splice(p, seqs)
}

// insertDelays puts an OpDelay marked hints[k] before each instruction k
// whose hints[k] is not zero: a wait the SM charges by the hint (a latency
// of the machine configuration), standing for SASS instructions the PTX
// does not have. A branch to such an instruction goes through the delay,
// unless held(k) says the branch at k arrives with what the delay stands
// for already done (a wait's retry keeps the window in a register).
// Reconvergence points are recomputed.
func insertDelays(p *isa.Program, hints []isa.SchedHints, held func(int) bool) {
	n := len(p.Instrs)
	newIdx := make([]int32, n+1)  // where old instruction k lands
	from := make([]int, 0, n+n/4) // old index of each new instruction, -1 for a delay
	out := make([]isa.Instr, 0, n+n/4)
	for k := 0; k < n; k++ {
		if hints[k] != 0 {
			out = append(out, isa.Instr{Op: isa.OpDelay, Ops: []isa.Operand{isa.Imm(0)}, Class: isa.ClassDelay, Sched: hints[k], Pos: p.Instrs[k].Pos})
			from = append(from, -1)
		}
		newIdx[k] = int32(len(out))
		out = append(out, p.Instrs[k])
		from = append(from, k)
	}
	newIdx[n] = int32(len(out))
	for k := range out {
		in := &out[k]
		if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) > n {
			continue
		}
		t := int(in.Target)
		nt := newIdx[t]
		if t < n && hints[t] != 0 && !held(from[k]) {
			nt--
		}
		in.Target = nt
	}
	p.Instrs = out
	isa.Reconverge(p, nil)
}

// reorder puts r's instructions in the order given (indices into r).
func reorder(r []isa.Instr, order []int) {
	out := make([]isa.Instr, len(r))
	for k, i := range order {
		out[k] = r[i]
	}
	copy(r, out)
}

// renameRegs rewrites in's registers and predicates (operands, addresses,
// guard) by ren.
func renameRegs(in *isa.Instr, ren map[isa.Loc]isa.Operand) {
	if in.Guard.Kind == isa.KPred {
		if o, ok := ren[isa.PredLoc(in.Guard.Reg)]; ok {
			in.Guard.Reg = o.Reg
		}
	}
	for k := range in.Ops {
		o := &in.Ops[k]
		switch {
		case o.Kind == isa.KReg || o.Kind == isa.KPred:
			if n, ok := ren[isa.Loc{Kind: o.Kind, N: o.Reg}]; ok {
				o.Reg = n.Reg
			}
		case o.Kind == isa.KAddr && o.Reg >= 0:
			if n, ok := ren[isa.RegLoc(o.Reg)]; ok {
				o.Reg = n.Reg
			}
		}
	}
}

// firstReader returns the first instruction after i, within i's straight
// run, that reads register d (instruction i's result), or false when the
// run ends first: at a branch target or an instruction already marked for
// deletion, at a branch, exit or return, or at an instruction that writes
// d or one of i's source registers before anything reads d.
func firstReader(p *isa.Program, i int, d int32, targeted []int, del []bool) (int, bool) {
	for j := i + 1; j < len(p.Instrs); j++ {
		in := &p.Instrs[j]
		if targeted[j] != 0 || del[j] {
			return 0, false
		}
		readsD, writes := false, map[int32]bool{}
		in.Uses(func(r isa.Loc, dst bool) {
			if r.Kind == isa.KReg && r.N == d && !dst {
				readsD = true
			}
			if r.Kind == isa.KReg && dst {
				writes[r.N] = true
			}
		})
		if readsD {
			return j, true
		}
		if in.Op.IsBranch() || in.Op == isa.OpExit || in.Op == isa.OpRet || writes[d] || writesSource(&p.Instrs[i], writes) {
			return 0, false
		}
	}
	return 0, false
}

// expandInstrs replaces each instruction k that seqs names with seqs[k]
// (at least one instruction); a branch to k goes to the first of them.
// Reconvergence points are recomputed.
func expandInstrs(p *isa.Program, seqs map[int][]isa.Instr) {
	if len(seqs) == 0 {
		return
	}
	splice(p, seqs)
	isa.Reconverge(p, nil)
}

// splice replaces each instruction k that seqs names with seqs[k], none
// or more instructions, and renumbers the branches: one to k goes to the
// first instruction put in its place, or to the next one kept if none is.
func splice(p *isa.Program, seqs map[int][]isa.Instr) {
	newIdx := make([]int32, len(p.Instrs)+1) // where old instruction k's place starts
	n := int32(0)
	for k := range p.Instrs {
		newIdx[k] = n
		if s, ok := seqs[k]; ok {
			n += int32(len(s))
		} else {
			n++
		}
	}
	newIdx[len(p.Instrs)] = n
	out := make([]isa.Instr, 0, n)
	for k := range p.Instrs {
		if s, ok := seqs[k]; ok {
			out = append(out, s...)
		} else {
			out = append(out, p.Instrs[k])
		}
	}
	for k := range out {
		if in := &out[k]; in.Op == isa.OpBra && in.Target >= 0 && int(in.Target) < len(newIdx) {
			in.Target = newIdx[in.Target]
		}
	}
	p.Instrs = out
}
