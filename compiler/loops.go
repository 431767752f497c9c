package compiler

// regKey names a general register or a predicate.
import "github.com/smsim/smsim/isa"

type regKey struct {
	kind isa.Kind
	n    int32
}

// eachUse calls f for every register and predicate in reads or writes,
// with dst true for a destination. An address reads its base register; the
// guard is a read.
func eachUse(in *isa.Instr, f func(r regKey, dst bool)) {
	if in.Guard.Kind == isa.KPred {
		f(regKey{isa.KPred, in.Guard.Reg}, false)
	}
	for k, o := range in.Ops {
		switch {
		case o.Kind == isa.KReg || o.Kind == isa.KPred:
			f(regKey{o.Kind, o.Reg}, k < int(in.NDst))
		case o.Kind == isa.KAddr && o.Reg >= 0:
			f(regKey{isa.KReg, o.Reg}, false)
		}
	}
}

// branchTargets counts, per instruction index (and one past the end), the
// direct branches that target it.
func branchTargets(p *isa.Program) []int {
	t := make([]int, len(p.Instrs)+1)
	for k := range p.Instrs {
		if in := &p.Instrs[k]; in.Op == isa.OpBra && in.Target >= 0 && int(in.Target) <= len(p.Instrs) {
			t[in.Target]++
		}
	}
	return t
}

// readCounts counts, per register and predicate, the instructions of p that
// read it (a guard counts).
func readCounts(p *isa.Program) map[regKey]int {
	reads := map[regKey]int{}
	for k := range p.Instrs {
		eachUse(&p.Instrs[k], func(r regKey, dst bool) {
			if !dst {
				reads[r]++
			}
		})
	}
	return reads
}

func hasIndirect(p *isa.Program) bool {
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpBrx {
			return true
		}
	}
	return false
}

// FoldPredicateBranches models how ptxas compiles CUDA's way of branching on
// a predicate that inline PTX returned as an integer,
//
//	selp.u32 r, 1, 0, p;  setp.eq.s32 q, r, 0;  @q bra L
//
// (the shape of every `while (!mbarrier_try_wait(...))` loop): the SASS
// branches on p itself (`SYNCS.PHASECHK.TRANS64.TRYWAIT P1, ...; @!P1 BRA`,
// calibration/h200/README.md). The three become `@!p bra L` (`@p bra L` for
// setp.ne) when r and q are read nowhere else and neither the setp nor the
// branch is a branch target. Nothing observable changes: r and q are dead.
// Programs with indirect branches are left as they are. Branch targets are
// renumbered and reconvergence points recomputed.
func FoldPredicateBranches(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	reads := readCounts(p)
	targeted := branchTargets(p)
	del := make([]bool, len(p.Instrs))
	any := false
	for i := 0; i+2 < len(p.Instrs); i++ {
		sel, set, br := &p.Instrs[i], &p.Instrs[i+1], &p.Instrs[i+2]
		if targeted[i+1] != 0 || targeted[i+2] != 0 || del[i] {
			continue
		}
		if sel.Op != isa.OpSelp || sel.Guard.Kind != isa.KNone || len(sel.Ops) != 4 || sel.NDst != 1 ||
			sel.Ops[0].Kind != isa.KReg || sel.Ops[1].Kind != isa.KImm || sel.Ops[2].Kind != isa.KImm || sel.Ops[3].Kind != isa.KPred {
			continue
		}
		one, zero := sel.Ops[1].Imm, sel.Ops[2].Imm
		if !(one == 1 && zero == 0) && !(one == 0 && zero == 1) {
			continue
		}
		if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
			(set.Cmp != isa.CmpEq && set.Cmp != isa.CmpNe) || set.Ops[0].Kind != isa.KPred ||
			set.Ops[1].Kind != isa.KReg || set.Ops[1].Reg != sel.Ops[0].Reg || set.Ops[2].Kind != isa.KImm || set.Ops[2].Imm != 0 {
			continue
		}
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || br.Guard.Reg != set.Ops[0].Reg {
			continue
		}
		r, q := regKey{isa.KReg, sel.Ops[0].Reg}, regKey{isa.KPred, set.Ops[0].Reg}
		if reads[r] != 1 || reads[q] != 1 {
			continue
		}
		// The branch is taken when q (or !q) holds. q = (r == 0) or (r != 0);
		// r = p ? one : zero, so r != 0 exactly when p == (one == 1).
		taken := br.Guard.Neg == (set.Cmp == isa.CmpEq) // branch taken when r != 0
		if one == 0 {
			taken = !taken // r != 0 exactly when !p
		}
		g := sel.Ops[3]
		if !taken {
			g.Neg = !g.Neg
		}
		br.Guard = g
		del[i], del[i+1] = true, true
		any = true
	}
	if any {
		deleteInstrs(p, del)
		isa.Reconverge(p, nil)
	}
}

// straightRunState is what a pass that removes instructions by looking along
// straight runs of p needs: each register's read count (readCounts), each
// instruction's incoming branches (branchTargets) and a deletion mark per
// instruction (for dropMarked). ok is false for a program with indirect
// branches, which such passes leave as it is.
func straightRunState(p *isa.Program) (reads map[regKey]int, targeted []int, del []bool, ok bool) {
	if hasIndirect(p) {
		return nil, nil, nil, false
	}
	return readCounts(p), branchTargets(p), make([]bool, len(p.Instrs)), true
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
	newIdx := make([]int32, len(p.Instrs)+1)
	n := int32(0)
	for i := range p.Instrs {
		newIdx[i] = n
		if !del[i] {
			n++
		}
	}
	newIdx[len(p.Instrs)] = n
	out := p.Instrs[:0]
	for i := range p.Instrs {
		if !del[i] {
			out = append(out, p.Instrs[i])
		}
	}
	p.Instrs = out
	for k := range p.Instrs {
		if in := &p.Instrs[k]; in.Op == isa.OpBra && in.Target >= 0 && int(in.Target) < len(newIdx) {
			in.Target = newIdx[in.Target]
		}
	}
}

// HoistLoopCounters models where ptxas schedules a counted loop's control:
// in a loop that is one basic block ending
//
//	add c, c, s;  setp.cmp p, c, x;  @p bra L
//
// the SASS computes the counter and the compare at the top of the body
// (UIADD3 first, ISETP after the first instruction of the body), so that the
// 13 cycles a predicate takes to reach a branch pass while the body runs
// (calibration/h200/branch.csv and its SASS); when the body reads c, right
// after its last read (pipeline.cu's shared-memory loop: IMAD of the address,
// the counter's IMAD and ISETP, then the LDS and the adds that wait for it).
// The add moves behind the body's last read of c (to the loop's head when
// there is none) and the setp one instruction later, when the body neither
// writes c nor touches p, and writes neither s nor x: each runs as often as
// before and computes the same values. Programs with indirect branches are
// left as they are.
func HoistLoopCounters(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	targeted := branchTargets(p)
	for b := range p.Instrs {
		br := &p.Instrs[b]
		t := int(br.Target)
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || t < 0 || t+3 > b {
			continue
		}
		add, set := p.Instrs[b-2], p.Instrs[b-1]
		if add.Op != isa.OpAdd || add.Guard.Kind != isa.KNone || add.NDst != 1 || len(add.Ops) != 3 ||
			add.Ops[0].Kind != isa.KReg || add.Ops[1].Kind != isa.KReg || add.Ops[1].Reg != add.Ops[0].Reg ||
			add.Flags&(isa.FSat|isa.FCC|isa.FCarryIn) != 0 {
			continue
		}
		c := add.Ops[0].Reg
		if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
			set.Ops[0].Kind != isa.KPred || set.Ops[0].Reg != br.Guard.Reg {
			continue
		}
		if !(set.Ops[1].Kind == isa.KReg && set.Ops[1].Reg == c) && !(set.Ops[2].Kind == isa.KReg && set.Ops[2].Reg == c) {
			continue
		}
		ok := true
		for k := t + 1; k <= b && ok; k++ {
			ok = targeted[k] == 0
		}
		lastRead := -1 // the body's last instruction that reads c (relative to t)
		for k := t; k < b-2 && ok; k++ {
			in := &p.Instrs[k]
			if in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall {
				ok = false
				break
			}
			eachUse(in, func(r regKey, dst bool) {
				switch {
				case r == regKey{isa.KReg, c} && !dst:
					lastRead = k - t
				case r == regKey{isa.KReg, c} || r == regKey{isa.KPred, set.Ops[0].Reg}:
					ok = false
				case dst && (r == regKey{add.Ops[2].Kind, add.Ops[2].Reg} && add.Ops[2].Kind == isa.KReg ||
					r == regKey{set.Ops[1].Kind, set.Ops[1].Reg} && set.Ops[1].Kind == isa.KReg ||
					r == regKey{set.Ops[2].Kind, set.Ops[2].Reg} && set.Ops[2].Kind == isa.KReg):
					ok = false
				}
			})
		}
		body := b - 2 - t
		if !ok || lastRead >= body-1 {
			continue
		}
		// body[:lastRead+1], add, body[lastRead+1], setp, body[lastRead+2:], bra.
		out := make([]isa.Instr, 0, body+2)
		out = append(out, p.Instrs[t:t+lastRead+1]...)
		out = append(out, add, p.Instrs[t+lastRead+1], set)
		out = append(out, p.Instrs[t+lastRead+2:b-2]...)
		copy(p.Instrs[t:b], out)
	}
}

// unrollFactor and unrollMaxBody describe ptxas's unrolling of small counted
// loops: four trips per pass, for bodies of at most 16 instructions. The
// SASS of hwprobe.cu's p_alu shows it (calibration/h200/README.md: a PTX
// loop of 4 FFMAs runs 16 a trip, one of an IMAD 4), pipeline.cu's lat_chains
// loops of 64 operations stay as nvcc wrote them; the threshold between is
// assumed.
const (
	unrollFactor  = 4
	unrollMaxBody = 16
)

// UnrollCountedLoops models ptxas's unrolling of the loops nvcc leaves for
// it: a loop that is one basic block ending
//
//	add c, c, -k;  setp.ne p, c, 0;  @p bra L
//
// (nvcc's main loop after its own unrolling; k > 0, 32-bit), whose body of at
// most 16 arithmetic or memory instructions neither reads nor writes c or p,
// that is entered by falling into it and carries no .pragma "nounroll". It
// becomes a loop of four bodies per trip while four trips' worth of c
// remain, then the original loop for the rest:
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
// predicate. The SASS puts the control at the group's top as H does, so the
// 13 cycles a compare takes to reach its branch pass while the bodies run.
// Programs with indirect branches are left as they are; branch targets are
// renumbered and reconvergence points recomputed.
func UnrollCountedLoops(p *isa.Program) {
	if hasIndirect(p) {
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
	if add.Op != isa.OpAdd || add.Guard.Kind != isa.KNone || add.NDst != 1 || len(add.Ops) != 3 || add.Flags != 0 ||
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
	targeted := branchTargets(p)
	if targeted[t] != 1 {
		return 0 // entered only by falling in: the entry check goes at t
	}
	for k := t + 1; k <= b; k++ {
		if targeted[k] != 0 {
			return 0
		}
	}
	pr := regKey{isa.KPred, set.Ops[0].Reg}
	for i := range body {
		in := &body[i]
		if in.Flags.Has(isa.FNoUnroll) || !unrollable(in) {
			return 0
		}
		ok := true
		eachUse(in, func(r regKey, dst bool) {
			if r == (regKey{isa.KReg, c.Reg}) || r == pr {
				ok = false
			}
		})
		if !ok {
			return 0
		}
	}
	if br.Flags.Has(isa.FNoUnroll) || add.Flags.Has(isa.FNoUnroll) || set.Flags.Has(isa.FNoUnroll) {
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
	rest[len(rest)-1].Flags |= isa.FNoUnroll
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
			ren := map[regKey]isa.Operand{}
			for _, r := range temps {
				if r.kind == isa.KPred {
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
func bodyTemporaries(body []isa.Instr) []regKey {
	seen := map[regKey]bool{}
	var out []regKey
	for i := range body {
		in := &body[i]
		var reads, writes []regKey
		eachUse(in, func(r regKey, dst bool) {
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

// renameRegs rewrites in's registers and predicates (operands, addresses,
// guard) by ren.
func renameRegs(in *isa.Instr, ren map[regKey]isa.Operand) {
	if in.Guard.Kind == isa.KPred {
		if o, ok := ren[regKey{isa.KPred, in.Guard.Reg}]; ok {
			in.Guard.Reg = o.Reg
		}
	}
	for k := range in.Ops {
		o := &in.Ops[k]
		switch {
		case o.Kind == isa.KReg || o.Kind == isa.KPred:
			if n, ok := ren[regKey{o.Kind, o.Reg}]; ok {
				o.Reg = n.Reg
			}
		case o.Kind == isa.KAddr && o.Reg >= 0:
			if n, ok := ren[regKey{isa.KReg, o.Reg}]; ok {
				o.Reg = n.Reg
			}
		}
	}
}

func is32Int(t isa.Type) bool { return t == isa.S32 || t == isa.U32 || t == isa.B32 }

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

// arithmetic reports whether c is an arithmetic timing class (the integer,
// floating-point, conversion and division pipes).
func arithmetic(c isa.Class) bool {
	switch c {
	case isa.ClassALU, isa.ClassIMAD, isa.ClassFMA, isa.ClassFP64, isa.ClassSFU, isa.ClassDiv, isa.ClassDiv64,
		isa.ClassIDiv, isa.ClassIDivInv, isa.ClassIDiv64, isa.ClassIDiv64Inv, isa.ClassHalf2, isa.ClassHalf2MMA, isa.ClassCvtFloat:
		return true
	}
	return false
}

// memoryClass reports whether c is a class of plain loads and stores.
func memoryClass(c isa.Class) bool {
	switch c {
	case isa.ClassShared, isa.ClassGlobal, isa.ClassLocal, isa.ClassConst, isa.ClassParam:
		return true
	}
	return false
}
