package compiler

import "github.com/smsim/smsim/isa"

// Uniformity as ptxas sees it. ptxas computes values that are the same in
// every lane of a warp, in control flow every lane of the warp takes, on
// the uniform datapath (uniform registers, S2UR, UIADD3, and instructions
// such as UBLKCP or a TRYWAIT that read their operands from uniform
// registers); anything else lives in per-thread (vector) registers. Several
// passes need that reading: which registers may differ between lanes
// (varyingRegs), and which code runs under lane-dependent control flow
// (laneDependentRegions).

// varyingRegs returns the registers and predicates whose value may differ
// between the lanes of a warp: those computed, directly or through others,
// from a lane's identity (%tid, %laneid, %lanemask_*), from elect.sync,
// shfl, match or an atomic, from a load through a varying address, or written
// under a varying guard. Flow-insensitive, so conservative.
func varyingRegs(p *isa.Program) map[isa.Loc]bool {
	v := map[isa.Loc]bool{}
	for changed := true; changed; {
		changed = false
		for k := range p.Instrs {
			in := &p.Instrs[k]
			vary := false
			switch in.Op {
			case isa.OpElect, isa.OpShfl, isa.OpMatch, isa.OpAtom:
				vary = true
			}
			in.Uses(func(r isa.Loc, dst bool) {
				if !dst && v[r] {
					vary = true
				}
			})
			for _, o := range in.Ops[in.NDst:] {
				if o.Kind == isa.KSpecial {
					switch o.Special {
					case isa.STidX, isa.STidY, isa.STidZ, isa.SLaneID, isa.SLaneMaskEq, isa.SLaneMaskLe, isa.SLaneMaskLt, isa.SLaneMaskGe, isa.SLaneMaskGt:
						vary = true
					}
				}
			}
			if !vary {
				continue
			}
			for d := 0; d < int(in.NDst); d++ {
				if o := in.Ops[d]; (o.Kind == isa.KReg || o.Kind == isa.KPred) && !v[isa.Loc{Kind: o.Kind, N: o.Reg}] {
					v[isa.Loc{Kind: o.Kind, N: o.Reg}] = true
					changed = true
				}
			}
		}
	}
	return v
}

// varies returns whether an operand may differ between the lanes of a warp,
// given varyingRegs's answer.
func varies(varying map[isa.Loc]bool) func(*isa.Operand) bool {
	return func(o *isa.Operand) bool {
		switch o.Kind {
		case isa.KPred, isa.KReg:
			return varying[isa.Loc{Kind: o.Kind, N: o.Reg}]
		case isa.KAddr:
			return o.Reg >= 0 && varying[isa.RegLoc(o.Reg)]
		}
		return false
	}
}

// laneDependentRegions calls mark(lo, hi, closed) for each stretch of p
// under lane-dependent control flow, as ptxas sees it: between a branch on a
// lane-dependent predicate and its reconvergence point (closed: ptxas ends
// it with a BSYNC), or the body of a loop whose back edge is such a branch.
// A lane-dependent exit (`if (warp >= W) return;`, ptxas's `@P EXIT`) and a
// region only one thread enters (`if (threadIdx.x == 0)`, whose values ptxas
// keeps uniform: divcode.csv) open none.
func laneDependentRegions(p *isa.Program, vary func(*isa.Operand) bool, mark func(lo, hi int, closed bool)) {
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != isa.OpBra || in.Guard.Kind != isa.KPred || !vary(&in.Guard) {
			continue
		}
		if t := int(in.Target); t > i && t < len(p.Instrs) && p.Instrs[t].Op.Ends() {
			// A lane-dependent exit: what follows stays uniform
			// (exitwait.sass: the loop waits on [UR5]).
			continue
		}
		if int(in.Target) > i && oneLane(p, i, in.Guard.Reg, in.Guard.Neg, 0) {
			// Only one thread falls through (divcode.csv: a producer
			// under `threadIdx.x == 0` waits through [UR15]).
			continue
		}
		switch t := int(in.Target); {
		case t <= i: // a loop whose exit may differ between lanes
			mark(t, i+1, true)
		case in.Reconv == isa.NoReconv:
			mark(i+1, len(p.Instrs), false)
		default:
			// Paths that meet only to exit need no convergence barrier.
			r := int(in.Reconv)
			mark(i+1, r, r < len(p.Instrs) && !p.Instrs[r].Op.Ends())
		}
	}
}

// underLaneControl returns, per instruction, whether laneDependentRegions
// puts it under lane-dependent control flow.
func underLaneControl(p *isa.Program, vary func(*isa.Operand) bool) []bool {
	// Each region adds one where it opens and takes one away where it
	// ends; an instruction is under lane control where the running sum is
	// positive (regions nest and overlap, and may be long).
	depth := make([]int32, len(p.Instrs)+1)
	laneDependentRegions(p, vary, func(lo, hi int, _ bool) {
		if lo, hi = max(lo, 0), min(hi, len(p.Instrs)); lo < hi {
			depth[lo]++
			depth[hi]--
		}
	})
	under := make([]bool, len(p.Instrs))
	var open int32
	for k := range under {
		open += depth[k]
		under[k] = open > 0
	}
	return under
}

// oneLane reports whether at most one thread of a one-dimensional block
// makes predicate register pred (read at instruction at) equal to want:
// pred is `setp.eq/ne` of %tid.x against a constant, or an and/or of such
// predicates, defined in the straight-line code before at.
func oneLane(p *isa.Program, at int, pred int32, want bool, depth int) bool {
	if depth > 4 {
		return false
	}
	def := -1
	for k := at - 1; k >= 0 && k >= at-24; k-- {
		in := &p.Instrs[k]
		if in.Op.IsBranch() {
			break
		}
		if in.NDst > 0 && in.Dst(0).Kind == isa.KPred && in.Dst(0).Reg == pred {
			def = k
			break
		}
	}
	if def < 0 {
		return false
	}
	in := &p.Instrs[def]
	switch {
	case in.Op == isa.OpSetp && in.NDst == 1 && (in.Cmp == isa.CmpEq || in.Cmp == isa.CmpNe):
		a, b := in.Src(0), in.Src(1)
		if a.Kind == isa.KImm {
			a, b = b, a
		}
		if b.Kind != isa.KImm || !isTidX(p, def, a) {
			return false
		}
		return (in.Cmp == isa.CmpEq) == want
	case in.Op == isa.OpOr && in.NDst == 1 && in.Dst(0).Kind == isa.KPred && !want:
		return predSrc(in, 0) && oneLane(p, def, in.Src(0).Reg, false, depth+1) ||
			predSrc(in, 1) && oneLane(p, def, in.Src(1).Reg, false, depth+1)
	case in.Op == isa.OpAnd && in.NDst == 1 && in.Dst(0).Kind == isa.KPred && want:
		return predSrc(in, 0) && oneLane(p, def, in.Src(0).Reg, true, depth+1) ||
			predSrc(in, 1) && oneLane(p, def, in.Src(1).Reg, true, depth+1)
	}
	return false
}

func predSrc(in *isa.Instr, i int) bool { return in.NSrc() > i && in.Src(i).Kind == isa.KPred }

// isTidX reports whether operand o, read at instruction at, is %tid.x or a
// register last set from it by a mov in the straight-line code before.
func isTidX(p *isa.Program, at int, o *isa.Operand) bool {
	if o.Kind == isa.KSpecial {
		return o.Special == isa.STidX
	}
	if o.Kind != isa.KReg {
		return false
	}
	for k := at - 1; k >= 0 && k >= at-24; k-- {
		in := &p.Instrs[k]
		if in.Op.IsBranch() {
			return false
		}
		if in.NDst > 0 && in.Dst(0).Kind == isa.KReg && in.Dst(0).Reg == o.Reg {
			return in.Op == isa.OpMov && in.NSrc() == 1 && in.Src(0).Kind == isa.KSpecial && in.Src(0).Special == isa.STidX
		}
	}
	return false
}
