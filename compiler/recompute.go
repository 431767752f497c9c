package compiler

import (
	"sort"

	"github.com/smsim/smsim/isa"
)

// RecomputeCompares recomputes compares in a loop short of predicate registers.
var RecomputeCompares = Pass{
	Name: "RecomputeCompares",
	Doc: "A thread has seven predicate registers (P0-P6). A loop that reads more loop-invariant predicates " +
		"than fit beside the ones it computes itself cannot keep them all, so ptxas keeps five and recomputes " +
		"the others inside the loop from their compare's register operands, in two predicate registers used " +
		"in turn, each compare right after the instruction that read the predicate two before it, so that two " +
		"are in flight while the guarded instructions wait for them. SASS: calibration/h200/README.md, " +
		"microbench.cu's divergent32 loop reads 32 lane predicates nvcc computed before the loop and " +
		"recomputes 27 of them (`ISETP.NE.AND P6, PT, R3, K, PT; NOP; @!P6 SYNCS.ARRIVE`, 13 cycles from each " +
		"ISETP to its ARRIVE, alternating P5 and P6), keeping the last five in P0-P4.",
	Run: recomputeCompares,
}

// recomputeCompares copies compares into loops whose invariant predicates
// do not fit. A loop is a backward branch at b to t, entered only at t and
// holding no call. Recomputed are the predicates the loop reads but never
// writes, when there are more than five of them and they and the predicates
// the loop writes number more than seven: all but the last five in the order
// of their first reads. Each must have one definition in the program, an
// unguarded setp before the loop reading registers that have at most one
// definition each, none in the loop; and the loop must be straight-line from
// t to the last of those first reads (no branch, no branch target). The
// copies go in two predicate registers' turns: the first two at the loop's
// head, each other one right after the first read of the predicate two
// before it. The setp's copy computes the same value again; the definition
// before the loop stays. Programs with indirect branches are left as they
// are.
func recomputeCompares(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	for b := 0; b < len(p.Instrs); b++ {
		if n := recomputeLoop(p, b); n > 0 {
			isa.Reconverge(p, nil)
			b += n
		}
	}
}

// keptPredicates is how many loop-invariant predicates ptxas keeps in
// registers when they do not all fit: seven less the two it recomputes the
// others in.
const keptPredicates = predicateRegisters - 2

// recomputeLoop applies RecomputeCompares to the loop whose back edge is
// instruction b and returns how many instructions it inserted.
func recomputeLoop(p *isa.Program, b int) int {
	br := &p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || t < 0 || t >= b {
		return 0
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if in.Op == isa.OpBra && in.Target >= 0 && (k < t || k > b) && int(in.Target) > t && int(in.Target) <= b {
			return 0 // entered elsewhere than at t
		}
	}
	written := map[isa.Loc]bool{}
	firstRead := map[int32]int{}
	for k := t; k <= b; k++ {
		in := &p.Instrs[k]
		if in.Op == isa.OpCall || in.Op == isa.OpBrx {
			return 0
		}
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				written[r] = true
			} else if _, seen := firstRead[r.N]; r.Kind == isa.KPred && !seen {
				firstRead[r.N] = k
			}
		})
	}
	var inv []int32
	writtenPreds := 0
	for r := range written {
		if r.Kind == isa.KPred {
			writtenPreds++
		}
	}
	for n := range firstRead {
		if !written[isa.PredLoc(n)] {
			inv = append(inv, n)
		}
	}
	if len(inv) <= keptPredicates || len(inv)+writtenPreds <= predicateRegisters {
		return 0
	}
	sort.Slice(inv, func(i, j int) bool { return firstRead[inv[i]] < firstRead[inv[j]] })
	redo := inv[:len(inv)-keptPredicates]
	last := firstRead[redo[len(redo)-1]]
	targeted := isa.BranchTargets(p)
	for k := t; k <= last; k++ {
		if k > t && targeted[k] != 0 || p.Instrs[k].Op.IsBranch() || p.Instrs[k].Op.Ends() {
			return 0
		}
	}
	// Each predicate's one definition, and the definitions of the registers.
	defs := isa.Defs(p)
	setps := make([]isa.Instr, len(redo))
	for i, n := range redo {
		d := defs[isa.PredLoc(n)]
		if len(d) != 1 || d[0] >= t || !invariantCompare(&p.Instrs[d[0]]) || p.Instrs[d[0]].NDst != 1 {
			return 0
		}
		ok := true
		p.Instrs[d[0]].Uses(func(r isa.Loc, dst bool) {
			if !dst && (len(defs[r]) > 1 || written[r]) {
				ok = false
			}
		})
		if !ok {
			return 0
		}
		setps[i] = p.Instrs[d[0]]
	}
	// Where each copy goes: before instruction at[i] (the loop's head for
	// the first two, else right after the first read of the predicate
	// recomputed two before it).
	at := make([]int, len(redo))
	for i := range redo {
		at[i] = t
		if i >= 2 {
			at[i] = firstRead[redo[i-2]] + 1
		}
	}
	out := make([]isa.Instr, 0, len(p.Instrs)+len(redo))
	newIdx := make([]int, len(p.Instrs)+1)
	i := 0
	for k := 0; k <= len(p.Instrs); k++ {
		for i < len(at) && at[i] == k {
			out = append(out, setps[i])
			i++
		}
		newIdx[k] = len(out)
		if k < len(p.Instrs) {
			out = append(out, p.Instrs[k])
		}
	}
	for k := range out {
		in := &out[k]
		if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) > len(p.Instrs) {
			continue
		}
		old := int(in.Target)
		if old == t {
			// The back edge and any entry land on the loop's head, now the
			// first copy; branches from before the loop too (they enter it).
			in.Target = int32(t)
			continue
		}
		in.Target = int32(newIdx[old])
	}
	p.Instrs = out
	return len(redo)
}
