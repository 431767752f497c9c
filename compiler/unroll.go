package compiler

import "github.com/smsim/smsim/isa"

// unrollFactor and unrollMaxBody describe ptxas's unrolling of small counted
// loops: four trips a pass, for bodies of at most 16 instructions. SASS:
// calibration/h200/README.md, hwprobe.cu's p_alu loop of 4 FFMAs runs 16 a
// trip, its IMAD loop 4; pipeline.cu's lat_chains loops of 64 operations stay
// as nvcc wrote them. The threshold between is assumed.
const (
	unrollFactor  = 4
	unrollMaxBody = 16
)

// UnrollCountedLoops unrolls small counted loops four times.
var UnrollCountedLoops = Pass{
	Name: "UnrollCountedLoops",
	Doc: "nvcc leaves its main loops as `add c, c, -k; setp.ne p, c, 0; @p bra` for ptxas, which unrolls small " +
		"ones four times more unless the loop carries .pragma \"nounroll\" (a #pragma unroll N in the source): " +
		"hwprobe.cu's p_alu loops of 4 FFMAs run 16 a SASS trip, its IMAD loop 4, divcode.cu's loop of four " +
		"arrive.expect_tx sixteen (SASS: calibration/h200/README.md). Each copy's temporaries get registers " +
		"of their own, so the copies' loads are all in flight before the first use (wspipe.cu's consumer: " +
		"sixteen LDS.U16, then the conversions and adds).",
	Run: unrollCountedLoops,
}

// unrollCountedLoops unrolls each loop that is one basic block ending
//
//	add c, c, -k;  setp.ne p, c, 0;  @p bra L
//
// (nvcc's main loop after its own unrolling; k > 0, 32-bit), whose body of at
// most unrollMaxBody unrollable instructions neither reads nor writes c or p,
// that is entered by falling into it and carries no .pragma "nounroll". It
// becomes a loop of unrollFactor bodies a trip while that many trips' worth
// of c remain, then the original loop for the rest:
//
//	      setp.lt.u32 g, c, 4k;  @g bra R
//	H:    add c, c, -4k;  B₀;  setp.ge.u32 g, c, 4k;  B₁…;  B;  B;  B;  @g bra H
//	      setp.ne p, c, 0;  @p bra R;  bra X
//	R:    B;  add c, c, -k;  setp.ne p, c, 0;  @p bra R
//	X:
//
// Every lane runs the body the same number of times with the same counter
// values as before (c ≥ 4k unsigned guarantees the three checks a group
// skips would all have continued), and c and p end as before; g is a new
// predicate. The control sits at the group's top as in the SASS, so the 13
// cycles a compare takes to reach its branch pass while the bodies run. The
// first three copies get registers of their own for the body's temporaries
// (bodyTemporaries), the last keeps the body's, which the code after the loop
// may read. The remainder loop's back edge is marked nounroll. Programs with
// indirect branches are left as they are; branch targets are renumbered and
// reconvergence points recomputed.
func unrollCountedLoops(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	changed := false
	for b := 0; b < len(p.Instrs); b++ {
		if end := unrollLoop(p, b); end > 0 {
			b, changed = end-1, true // past the new code: its remainder loop stays rolled
		}
	}
	if changed {
		isa.Reconverge(p, nil)
	}
}

// unrollLoop applies UnrollCountedLoops to the loop whose back edge is b and
// returns the index just past the code it wrote, or 0 when it left the loop.
func unrollLoop(p *isa.Program, b int) int {
	br := p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || br.Guard.Neg || t < 0 || t+3 > b {
		return 0
	}
	add, set := p.Instrs[b-2], p.Instrs[b-1]
	if add.Op != isa.OpAdd || add.Guard.Kind != isa.KNone || add.NDst != 1 || len(add.Ops) != 3 || annotated(&add) ||
		!is32Int(add.Type) || add.Ops[0].Kind != isa.KReg || add.Ops[1] != add.Ops[0] || add.Ops[2].Kind != isa.KImm {
		return 0
	}
	k := -int64(int32(uint32(add.Ops[2].Imm)))
	if k <= 0 || k > 1<<28 {
		return 0
	}
	c := add.Ops[0]
	if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
		set.Cmp != isa.CmpNe || !is32Int(set.Type) || set.Ops[0].Kind != isa.KPred || set.Ops[0].Reg != br.Guard.Reg ||
		set.Ops[1] != c || set.Ops[2].Kind != isa.KImm || set.Ops[2].Imm != 0 {
		return 0
	}
	body := p.Instrs[t : b-2]
	if len(body) > unrollMaxBody {
		return 0
	}
	targeted := isa.BranchTargets(p)
	if targeted[t] != 1 {
		return 0 // entered only by falling in: the entry check goes at t
	}
	for k := t + 1; k <= b; k++ {
		if targeted[k] != 0 {
			return 0
		}
	}
	pr := isa.PredLoc(set.Ops[0].Reg)
	for i := range body {
		in := &body[i]
		if in.Source.Has(isa.HintNoUnroll) || !unrollable(in) {
			return 0
		}
		ok := true
		in.Uses(func(r isa.Loc, dst bool) {
			if r == (isa.RegLoc(c.Reg)) || r == pr {
				ok = false
			}
		})
		if !ok {
			return 0
		}
	}
	if br.Source.Has(isa.HintNoUnroll) || add.Source.Has(isa.HintNoUnroll) || set.Source.Has(isa.HintNoUnroll) {
		return 0
	}

	g := isa.P(p.NumPreds)
	p.NumPreds++
	if p.PredNames != nil {
		p.PredNames = append(p.PredNames, "%unroll")
	}
	four := uint64(int64(unrollFactor) * k)
	cmpG := func(cmp isa.CmpOp) isa.Instr {
		return isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: cmp, NDst: 1, Ops: []isa.Operand{g, c, isa.Imm(four)}, Class: isa.ClassALU, Pos: set.Pos}
	}
	m := len(body)
	group := make([]isa.Instr, 0, 5*m+11)
	group = append(group, cmpG(isa.CmpLt), isa.Instr{Op: isa.OpBra, Guard: g, Class: isa.ClassBranch, Pos: br.Pos}) // target R below
	h := t + len(group)
	addG := add
	addG.Ops = []isa.Operand{c, c, isa.Imm(add.Ops[2].Imm * unrollFactor)}
	group = append(group, addG, body[0], cmpG(isa.CmpGe))
	group = append(group, body[1:]...)
	for u := 1; u < unrollFactor; u++ {
		group = append(group, body...)
	}
	group = append(group, isa.Instr{Op: isa.OpBra, Guard: g, Target: int32(h), Class: isa.ClassBranch, Pos: br.Pos})
	group = append(group, set, isa.Instr{Op: isa.OpBra, Guard: br.Guard, Class: isa.ClassBranch, Pos: br.Pos}, // target R
		isa.Instr{Op: isa.OpBra, Class: isa.ClassBranch, Pos: br.Pos}) // target X
	r := t + len(group)
	rest := make([]isa.Instr, 0, m+3)
	rest = append(rest, body...)
	rest = append(rest, add, set, br)
	rest[len(rest)-1].Target = int32(r)
	rest[len(rest)-1].Source |= isa.HintNoUnroll
	x := r + len(rest)
	group[1].Target = int32(r)
	group[len(group)-2].Target = int32(r)
	group[len(group)-1].Target = int32(x)
	for i := range group {
		if group[i].Ops != nil && i >= 2 { // copies must not share operand slices with each other
			group[i].Ops = append([]isa.Operand(nil), group[i].Ops...)
		}
	}
	// ptxas gives each copy's temporaries registers of their own, so the
	// copies' loads can all be in flight (wspipe.cu's consumer: sixteen
	// LDS.U16 before the first add). The first three copies get fresh
	// registers for what the body writes before it reads; the last keeps the
	// body's, which the code after the loop may read.
	if temps := bodyTemporaries(body); len(temps) > 0 {
		start := 2 // copy 0 starts at addG; its cmpG sits after body[0]
		for u := 0; u < unrollFactor-1; u++ {
			ren := map[isa.Loc]isa.Operand{}
			for _, r := range temps {
				if r.Kind == isa.KPred {
					ren[r] = isa.P(p.NumPreds)
					p.NumPreds++
					if p.PredNames != nil {
						p.PredNames = append(p.PredNames, "%unroll")
					}
				} else {
					ren[r] = isa.R(p.NumRegs)
					p.NumRegs++
					if p.RegNames != nil {
						p.RegNames = append(p.RegNames, "%unroll")
					}
				}
			}
			n := m
			if u == 0 {
				n = m + 2 // addG and cmpG come with the first copy
			}
			for i := start; i < start+n; i++ {
				renameRegs(&group[i], ren)
			}
			start += n
		}
	}
	delta := x - (b + 1)
	out := make([]isa.Instr, 0, len(p.Instrs)+delta)
	out = append(out, p.Instrs[:t]...)
	out = append(out, group...)
	out = append(out, rest...)
	out = append(out, p.Instrs[b+1:]...)
	for i := range out {
		if i >= t && i < x {
			continue
		}
		if in := &out[i]; in.Op == isa.OpBra && int(in.Target) > b {
			in.Target += int32(delta)
		}
	}
	p.Instrs = out
	return x
}

// bodyTemporaries returns the registers and predicates a loop body writes
// (unguarded) before any of its instructions reads them: values each trip
// computes afresh, not carried from the trip before.
func bodyTemporaries(body []isa.Instr) []isa.Loc {
	seen := map[isa.Loc]bool{}
	var out []isa.Loc
	for i := range body {
		in := &body[i]
		var reads, writes []isa.Loc
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				writes = append(writes, r)
			} else {
				reads = append(reads, r)
			}
		})
		for _, r := range reads {
			seen[r] = true
		}
		for _, r := range writes {
			if !seen[r] && in.Guard.Kind == isa.KNone {
				out = append(out, r)
			}
			seen[r] = true
		}
	}
	return out
}

// unrollable reports whether ptxas's unrolling may copy in: arithmetic,
// plain loads and stores, and barrier arrivals (calibration/h200 divcode.cu's
// loop of four arrive.expect_tx runs sixteen a SASS trip); nothing that
// waits, synchronises threads, reads the clock or branches.
func unrollable(in *isa.Instr) bool {
	if in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall || isClockRead(in) {
		return false
	}
	if arithmetic(in.Class) {
		return true
	}
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx:
		return true
	}
	return memoryClass(in.Class) && (in.Op == isa.OpLd || in.Op == isa.OpSt)
}
