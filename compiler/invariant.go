package compiler

import "github.com/smsim/smsim/isa"

// HoistInvariantCompares computes a loop-invariant compare once, before the loop.
var HoistInvariantCompares = Pass{
	Name: "HoistInvariantCompares",
	Doc: "ptxas keeps a loop-invariant compare in a predicate register: nvcc leaves the lane test of `if (lane " +
		"== 0) arrive` inside the loop (`setp.ne p, lane, 0; @!p mbarrier.arrive` in every trip of " +
		"calibration/h200 dsweep.cu's loop), and the SASS computes it before the loop (`LOP3.LUT P1, RZ, R4, " +
		"0x1f, …`), so the guarded arrive does not wait latency.pred every trip. Only compares move, and only " +
		"while the loop's predicates fit the seven predicate registers: with more, ptxas recomputes them " +
		"(microbench.cu's divergent32 loop).",
	Run: hoistInvariantCompares,
}

// hoistInvariantCompares moves loop-invariant compares before their loop.
// A loop is a backward branch at b to t; it must be entered only at t (no
// branch from outside [t, b] lands inside it) and hold no call. Hoisted are
// the unguarded setp instructions reading registers and immediates that every
// trip executes (no branch before them in the loop jumps past them or out of
// the loop), whose sources the loop does not write, and whose destination the
// loop writes only there and does not read before it — and only when the
// loop's predicates fit the SASS's seven predicate registers (with more,
// RecomputeCompares applies instead). Each then runs once per entry into the
// loop instead of once per trip, with the same value. Loops are taken in the
// order of their back edges (an inner loop's comes first), again after each
// change. Branches into t from outside the loop now enter the hoisted block;
// programs with indirect branches are left as they are.
func hoistInvariantCompares(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	for changed := true; changed; {
		changed = false
		for b := range p.Instrs {
			if hoistCompares(p, b) {
				isa.Reconverge(p, nil)
				changed = true
				break
			}
		}
	}
}

// hoistCompares hoists the invariant compares of the loop whose back edge is
// instruction b, and reports whether it moved any.
func hoistCompares(p *isa.Program, b int) bool {
	br := &p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || t < 0 || t >= b {
		return false
	}
	// Entered only at t; no call inside.
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if in.Op != isa.OpBra || in.Target < 0 {
			continue
		}
		if (k < t || k > b) && int(in.Target) > t && int(in.Target) <= b {
			return false
		}
	}
	written := map[isa.Loc]int{}
	preds := map[int32]bool{}
	for k := t; k <= b; k++ {
		in := &p.Instrs[k]
		if in.Op == isa.OpCall || in.Op == isa.OpBrx {
			return false
		}
		in.Uses(func(r isa.Loc, dst bool) {
			if dst {
				written[r]++
			}
			if r.Kind == isa.KPred {
				preds[r.N] = true
			}
		})
	}
	if len(preds) > predicateRegisters {
		return false // ptxas recomputes compares when the loop's predicates do not fit
	}
	var hoist []int
	always := true // every trip reaches k
	readBefore := map[isa.Loc]bool{}
	for k := t; k < b; k++ {
		in := &p.Instrs[k]
		if always && invariantCompare(in) {
			ok := true
			in.Uses(func(r isa.Loc, dst bool) {
				switch {
				case dst:
					ok = ok && written[r] == 1 && !readBefore[r]
				default:
					ok = ok && written[r] == 0
				}
			})
			if ok {
				hoist = append(hoist, k)
				// Its destination is now written outside the loop only.
				in.Uses(func(r isa.Loc, dst bool) {
					if dst {
						written[r] = 0
					}
				})
				continue
			}
		}
		in.Uses(func(r isa.Loc, dst bool) {
			if !dst {
				readBefore[r] = true
			}
		})
		if in.Op.IsBranch() || in.Op.Ends() {
			if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) < t || int(in.Target) > b {
				always = false // the trip may leave the loop here
			} else if int(in.Target) > k {
				always = false // a forward branch may skip what follows
			}
			// A backward branch inside the loop (an inner loop) always
			// falls through eventually.
		}
	}
	if len(hoist) == 0 {
		return false
	}
	moved := make([]bool, len(p.Instrs))
	for _, k := range hoist {
		moved[k] = true
	}
	m := len(hoist)
	// New order: [..t) hoisted [t..b] without them [b+1..).
	newIdx := make([]int, len(p.Instrs)+1)
	pos := t + m
	for k := 0; k <= len(p.Instrs); k++ {
		switch {
		case k < t:
			newIdx[k] = k
		case k <= b:
			newIdx[k] = pos
			if k < len(p.Instrs) && !moved[k] {
				pos++
			}
		default:
			newIdx[k] = k
		}
	}
	out := make([]isa.Instr, 0, len(p.Instrs))
	out = append(out, p.Instrs[:t]...)
	for _, k := range hoist {
		out = append(out, p.Instrs[k])
	}
	for k := t; k <= b; k++ {
		if !moved[k] {
			out = append(out, p.Instrs[k])
		}
	}
	out = append(out, p.Instrs[b+1:]...)
	for k := range out {
		in := &out[k]
		if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) > len(p.Instrs) {
			continue
		}
		old := int(in.Target)
		from := k // the branch's new index; inside the loop iff in [t+m, b]
		if old == t && (from < t+m || from > b) {
			in.Target = int32(t) // enter through the hoisted block
			continue
		}
		in.Target = int32(newIdx[old])
	}
	p.Instrs = out
	return true
}

// invariantCompare reports whether in is a compare that may be hoisted if its
// operands allow: an unguarded setp reading registers and immediates.
func invariantCompare(in *isa.Instr) bool {
	if in.Op != isa.OpSetp || in.Guard.Kind != isa.KNone || in.NDst == 0 || in.Source.Has(isa.HintNoUnroll) {
		return false // HintNoUnroll marks the loop UnrollCountedLoops must keep rolled
	}
	for _, o := range in.Ops {
		switch o.Kind {
		case isa.KReg, isa.KPred, isa.KImm:
		default:
			return false
		}
	}
	return true
}
