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

// UnrollCountedLoops unrolls small counted loops four times: counts down to
// zero and indices up to a bound.
var UnrollCountedLoops = Pass{
	Name: "UnrollCountedLoops",
	Doc: "nvcc leaves its main loops as `add c, c, -k; setp.ne p, c, 0; @p bra` for ptxas, which unrolls small " +
		"ones four times more unless the loop carries .pragma \"nounroll\" (a #pragma unroll N in the source): " +
		"hwprobe.cu's p_alu loops of 4 FFMAs run 16 a SASS trip, its IMAD loop 4, divcode.cu's loop of four " +
		"arrive.expect_tx sixteen (SASS: calibration/h200/README.md). Each copy's temporaries get registers " +
		"of their own, so the copies' loads are all in flight before the first use (wspipe.cu's consumer: " +
		"sixteen LDS.U16, then the conversions and adds). A loop over an index up to a bound, `add i, i, k; " +
		"setp.lt p, i, n; @p bra`, runs four bodies a trip while four more trips are certain, then two, then " +
		"one: the Programming Guide's copy loop, four loads a trip in the PTX, runs sixteen, then eight, then " +
		"four (SASS: apps/h200/pc_guide.sass).",
	Run: unrollCountedLoops,
}

// unrollCountedLoops unrolls each loop matchCountedLoop accepts (nvcc's main
// loops after its own unrolling) into groups of unrollFactor bodies, and the
// original loop for the rest (unrolledLoop.unrolled). Programs with indirect
// branches are left as they are; branch targets are renumbered and
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

// unrolledLoop is a loop UnrollCountedLoops can unroll: one basic block,
// instructions t to b, whose body (t to b-3) neither reads nor writes its
// counter or predicate, ending in one of the two shapes nvcc leaves:
//
//	add c, c, -k;  setp.ne p, c, 0;  @p bra t     (a count down to zero)
//	add i, i, k;   setp.lt p, i, n;  @p bra t     (an index up to a bound)
//
// with k > 0 and, for the second, n an immediate or a register the body
// does not write; entered only by falling into it, with a body of at most
// unrollMaxBody unrollable instructions, none marked nounroll.
type unrolledLoop struct {
	t, b         int
	body         []isa.Instr
	add, set, br isa.Instr
	k            int64
	bound        bool // the second shape
}

// matchCountedLoop returns the loop whose back edge is instruction b.
func matchCountedLoop(p *isa.Program, b int) (unrolledLoop, bool) {
	br := p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || br.Guard.Neg || t < 0 || t+3 > b {
		return unrolledLoop{}, false
	}
	l := unrolledLoop{t: t, b: b, br: br, add: p.Instrs[b-2], set: p.Instrs[b-1], body: p.Instrs[t : b-2]}
	add, set := &l.add, &l.set
	if add.Op != isa.OpAdd || add.Guard.Kind != isa.KNone || add.NDst != 1 || len(add.Ops) != 3 || annotated(add) ||
		!is32Int(add.Type) || add.Ops[0].Kind != isa.KReg || add.Ops[1] != add.Ops[0] || add.Ops[2].Kind != isa.KImm {
		return unrolledLoop{}, false
	}
	c := add.Ops[0]
	if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
		!is32Int(set.Type) || set.Ops[0].Kind != isa.KPred || set.Ops[0].Reg != br.Guard.Reg || set.Ops[1] != c {
		return unrolledLoop{}, false
	}
	step := int64(int32(uint32(add.Ops[2].Imm)))
	switch n := set.Ops[2]; {
	case set.Cmp == isa.CmpNe && n.Kind == isa.KImm && n.Imm == 0:
		l.k = -step
	case (set.Cmp == isa.CmpLt || set.Cmp == isa.CmpLo) && (n.Kind == isa.KImm || n.Kind == isa.KReg && n != c):
		l.k, l.bound = step, true
	default:
		return unrolledLoop{}, false
	}
	if l.k <= 0 || l.k > 1<<28 || len(l.body) > unrollMaxBody {
		return unrolledLoop{}, false
	}
	targeted := isa.BranchTargets(p)
	if targeted[t] != 1 {
		return unrolledLoop{}, false // entered only by falling in: the entry check goes at t
	}
	for k := t + 1; k <= b; k++ {
		if targeted[k] != 0 {
			return unrolledLoop{}, false
		}
	}
	if br.Source.Has(isa.HintNoUnroll) || add.Source.Has(isa.HintNoUnroll) || set.Source.Has(isa.HintNoUnroll) {
		return unrolledLoop{}, false
	}
	pr := isa.PredLoc(set.Ops[0].Reg)
	for i := range l.body {
		in := &l.body[i]
		if in.Source.Has(isa.HintNoUnroll) || !unrollable(in) {
			return unrolledLoop{}, false
		}
		ok := true
		in.Uses(func(r isa.Loc, dst bool) {
			if r == isa.RegLoc(c.Reg) || r == pr || dst && l.bound && set.Ops[2].Kind == isa.KReg && r == isa.RegLoc(set.Ops[2].Reg) {
				ok = false
			}
		})
		if !ok {
			return unrolledLoop{}, false
		}
	}
	return l, true
}

// unrollLoop applies UnrollCountedLoops to the loop whose back edge is b and
// returns the index just past the code it wrote, or 0 when it left the loop.
func unrollLoop(p *isa.Program, b int) int {
	l, ok := matchCountedLoop(p, b)
	if !ok {
		return 0
	}
	code := l.unrolled(p)
	t := l.t
	delta := len(code) - (b + 1 - t)
	out := make([]isa.Instr, 0, len(p.Instrs)+delta)
	out = append(out, p.Instrs[:t]...)
	out = append(out, code...)
	out = append(out, p.Instrs[b+1:]...)
	x := t + len(code)
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

// The places the unrolled code branches to, as negative targets until
// unrolled resolves them.
const (
	labelGroup     = -1 - iota // H: a group of four trips
	labelPair                  // P: two trips (an index up to a bound)
	labelRemainder             // R: the rolled loop, a trip at a time
	labelExit                  // X: past the loop
	labelCount     = 4
)

// unrolled returns the code that replaces the loop, its branch targets
// counted from the loop's first instruction. A count down to zero:
//
//	      setp.lt.u32 g, c, 4k;  @g bra R
//	H:    add c, c, -4k;  B₀;  setp.ge.u32 g, c, 4k;  B₁…;  B;  B;  B;  @g bra H
//	      setp.ne p, c, 0;  @p bra R;  bra X
//	R:    B;  add c, c, -k;  setp.ne p, c, 0;  @p bra R
//	X:
//
// An index up to a bound, as ptxas compiles the Programming Guide's copy
// loop (apps/h200/pc_guide.sass: sixteen loads a trip while more than three
// of nvcc's trips remain, then eight if more than one does, then the last):
//
//	      (fewer than four trips) → P
//	H:    add i, i, 4k;  B₀;  g = four more trips;  B₁…;  B;  B;  B;  @g bra H
//	      setp.lt p, i, n;  @!p bra X
//	P:    (fewer than two trips) → R
//	      add i, i, 2k;  B;  B;  setp.lt p, i, n;  @!p bra X
//	R:    B;  add i, i, k;  setp.lt p, i, n;  @p bra R
//	X:
//
// Every lane runs the body the same number of times with the same counter
// values as before (groupChecks), and the counter and p end as before; g
// (and d, the bound's distance) are new. The control sits at the group's
// top as in the SASS, so the 13 cycles a compare takes to reach its branch
// pass while the bodies run. The first three copies of a group, and the
// first of a pair, get registers of their own for the body's temporaries
// (bodyTemporaries); the last keeps the body's, which the code after the
// loop may read. The remainder loop's back edge is marked nounroll.
func (l *unrolledLoop) unrolled(p *isa.Program) []isa.Instr {
	body, add, set, br := l.body, l.add, l.set, l.br
	g := newPred(p, "%unroll")
	enter, again, pair := l.groupChecks(p, g)
	var code []isa.Instr
	var at [labelCount]int
	label := func(id int) { at[-1-id] = len(code) }
	bra := func(guard isa.Operand, id int) {
		code = append(code, isa.Instr{Op: isa.OpBra, Guard: guard, Target: int32(id), Class: isa.ClassBranch, Pos: br.Pos})
	}
	step := func(trips int64) isa.Instr {
		s := add
		s.Ops = []isa.Operand{add.Ops[0], add.Ops[0], isa.Imm(uint64(int64(int32(uint32(add.Ops[2].Imm))) * trips))}
		return s
	}
	notP := br.Guard
	notP.Neg = true
	// copies[u]: the first and last+1 index of the group's copy u; the
	// pair's first copy takes copy 0's registers.
	var copies [unrollFactor + 1][2]int
	code = append(code, enter...)
	if l.bound {
		code[len(code)-1].Target = labelPair
	} else {
		code[len(code)-1].Target = labelRemainder
	}
	label(labelGroup)
	copies[0][0] = len(code)
	code = append(code, step(unrollFactor), body[0])
	code = append(code, again...)
	code = append(code, body[1:]...)
	copies[0][1] = len(code)
	for u := 1; u < unrollFactor; u++ {
		copies[u][0] = len(code)
		code = append(code, body...)
		copies[u][1] = len(code)
	}
	bra(g, labelGroup)
	code = append(code, set)
	if l.bound {
		bra(notP, labelExit)
		label(labelPair)
		code = append(code, pair...)
		code[len(code)-1].Target = labelRemainder
		copies[unrollFactor][0] = len(code)
		code = append(code, step(2))
		code = append(code, body...)
		copies[unrollFactor][1] = len(code)
		code = append(code, body...)
		code = append(code, set)
		bra(notP, labelExit)
	} else {
		bra(br.Guard, labelRemainder)
		bra(isa.Operand{}, labelExit)
	}
	label(labelRemainder)
	code = append(code, body...)
	code = append(code, add, set)
	bra(br.Guard, labelRemainder)
	code[len(code)-1].Source |= isa.HintNoUnroll
	label(labelExit)
	for i := range code {
		in := &code[i]
		if in.Ops != nil { // copies must not share operand slices with each other
			in.Ops = append([]isa.Operand(nil), in.Ops...)
		}
		if in.Op == isa.OpBra && in.Target < 0 {
			in.Target = int32(l.t + at[-1-in.Target])
		}
	}
	// ptxas gives each copy's temporaries registers of their own, so the
	// copies' loads can all be in flight (wspipe.cu's consumer: sixteen
	// LDS.U16 before the first add; pc_guide.sass: sixteen LDGs).
	if temps := bodyTemporaries(body); len(temps) > 0 {
		for u := 0; u < unrollFactor-1; u++ {
			ren := map[isa.Loc]isa.Operand{}
			for _, r := range temps {
				if r.Kind == isa.KPred {
					ren[r] = newPred(p, "%unroll")
				} else {
					ren[r] = newReg(p, "%unroll")
				}
			}
			for i := copies[u][0]; i < copies[u][1]; i++ {
				renameRegs(&code[i], ren)
			}
			if u == 0 {
				for i := copies[unrollFactor][0]; i < copies[unrollFactor][1]; i++ {
					renameRegs(&code[i], ren)
				}
			}
		}
	}
	return code
}

// groupChecks returns the unrolled loop's checks on predicate g: enter,
// which ends in a branch (its target set by the caller) taken unless four
// more trips are certain; again, which sets g after a group's counter step
// when four more are; and, for an index up to a bound, pair, which ends in
// a branch taken unless two more are. A count c down to zero has four more
// trips while c ≥ 4k (unsigned). An index i up to n has m more (m ≥ 1)
// while i + (m-1)k < n without overflow: i < n, and then n - i (exact as
// unsigned) greater than (m-1)k, as ptxas compares it (pc_guide.sass:
// ISETP.GT on the bound minus the index, against 0x180 and 0x80 for a step
// of 0x80). The first trip of the loop is certain, so an index at or past
// its bound on entry has one trip: enter and pair send it to the rolled
// loop, which runs one.
func (l *unrolledLoop) groupChecks(p *isa.Program, g isa.Operand) (enter, again, pair []isa.Instr) {
	pos := l.set.Pos
	setp := func(cmp isa.CmpOp, typ isa.Type, a, b isa.Operand, op isa.BoolOp) isa.Instr {
		in := isa.Instr{Op: isa.OpSetp, Type: typ, Cmp: cmp, Bool: op, NDst: 1, Ops: []isa.Operand{g, a, b}, Class: isa.ClassALU, Pos: pos}
		if op != isa.BoolNone {
			in.Ops = append(in.Ops, g)
		}
		return in
	}
	bra := isa.Instr{Op: isa.OpBra, Guard: g, Class: isa.ClassBranch, Pos: l.br.Pos}
	c := l.add.Ops[0]
	if !l.bound {
		four := isa.Imm(uint64(unrollFactor * l.k))
		return []isa.Instr{setp(isa.CmpLt, isa.U32, c, four, isa.BoolNone), bra},
			[]isa.Instr{setp(isa.CmpGe, isa.U32, c, four, isa.BoolNone)}, nil
	}
	n, typ := l.set.Ops[2], l.set.Type
	lt, ge := isa.CmpLt, isa.CmpGe
	if l.set.Cmp == isa.CmpLo {
		lt, ge = isa.CmpLo, isa.CmpHs
	}
	d := newReg(p, "%unroll")
	left := isa.Instr{Op: isa.OpSub, Type: isa.U32, NDst: 1, Ops: []isa.Operand{d, n, c}, Class: isa.ClassALU, Pos: pos}
	fewer := func(m int64) []isa.Instr {
		return []isa.Instr{left, setp(isa.CmpLe, isa.U32, d, isa.Imm(uint64((m-1)*l.k)), isa.BoolNone), setp(ge, typ, c, n, isa.BoolOr), bra}
	}
	three := isa.Imm(uint64((unrollFactor - 1) * l.k))
	again = []isa.Instr{left, setp(isa.CmpGt, isa.U32, d, three, isa.BoolNone), setp(lt, typ, c, n, isa.BoolAnd)}
	return fewer(unrollFactor), again, fewer(2)
}

// newPred and newReg add a predicate and a register to p for a pass's own
// use, named for diagnostics after what the pass made them for.
func newPred(p *isa.Program, name string) isa.Operand {
	p.NumPreds++
	addName(&p.PredNames, name)
	return isa.P(p.NumPreds - 1)
}

func newReg(p *isa.Program, name string) isa.Operand {
	p.NumRegs++
	addName(&p.RegNames, name)
	return isa.R(p.NumRegs - 1)
}

// addName appends name to a program's register or predicate names, when
// it keeps them.
func addName(names *[]string, name string) {
	if *names != nil {
		*names = append(*names, name)
	}
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
