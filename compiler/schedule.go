package compiler

import "github.com/smsim/smsim/isa"

// maxScheduleRegion bounds the regions ScheduleLoads reorders (a quadratic
// pass; longer straight-line stretches are left as they are).
const maxScheduleRegion = 512

// ScheduleLoads is ptxas's list scheduling of straight-line code around
// loads.
var ScheduleLoads = Pass{
	Name: "ScheduleLoads",
	Doc: "ptxas list-schedules straight-line code so that a load issues as soon as its address is computed, " +
		"ahead of arithmetic that waits on earlier loads, and the loads overlap: libpipe.cu's consumer issues " +
		"an LDS.128, the loop counter, the next address and the next LDS.128 before the adds that consume the " +
		"first (SASS: calibration/h200/libpipe.sass; pipeline.cu's shared-memory loop likewise). In a loop " +
		"trip of arithmetic alone it interleaves independent chains (SASS: calibration/h200/convert.sass, " +
		"eight chains' F2FP.PACK_AB and HADD2.F32 interleaved where the PTX has each chain's two conversions " +
		"back to back). Loads pass plain stores to another state space: the Programming Guide's producer, " +
		"`ld.global; st.shared` four times a trip in the PTX, issues the trip's LDGs before its first STS " +
		"(SASS: apps/h200/pc_guide.sass).",
	Run: scheduleLoads,
}

// scheduleLoads reorders regions: maximal runs of arithmetic instructions,
// plain loads (ld, not volatile) and plain stores (st, neither volatile nor
// with memory-model semantics) inside one basic block. Every other
// instruction — atomics, barrier, copy and synchronisation operations,
// clock reads, collectives, branches, ordered accesses — stays where it is
// and nothing moves across it, so memory ordering and what a clock read
// observes are unchanged. Within a region the instructions are listed
// again in dependence order (isa.Dependences: registers and predicates, and
// memory by state space: a load and a store, or two stores, keep their
// order where their spaces may alias, a generic address aliasing every
// space; loads never order each other), each time taking the ready
// instruction that heads the longest chain of latencies to the region's
// end (o.Latencies), ties in program order. Each instruction computes what
// it did before; only the order of independent ones changes, so a global
// load passes a shared store as in ptxas's schedule (apps/h200/pc_guide.sass:
// the producer's LDGs all issue before its first STS).
//
// A region with no load is reordered only when it is the whole trip of a
// loop (the instruction after it is the back edge to its first), and then
// as an in-order issue slot is filled (fillStalls). Programs with indirect
// branches are left as they are.
func scheduleLoads(p *isa.Program, o *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	for i := 0; i < len(p.Instrs); {
		if !schedulable(&p.Instrs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(p.Instrs) && schedulable(&p.Instrs[j]) && targeted[j] == 0 {
			j++
		}
		if n := j - i; n > 2 && n <= maxScheduleRegion {
			if hasLoad(p.Instrs[i:j]) {
				scheduleRegion(p.Instrs[i:j], &o.Latencies)
			} else if computeLoopBody(p, i, j) {
				fillStalls(p.Instrs[i:j], &o.Latencies)
			}
		}
		i = j
	}
}

// schedulable reports whether in may move within its region: arithmetic,
// and loads and stores that order nothing but their own space's accesses.
func schedulable(in *isa.Instr) bool {
	if endsRun(in) || in.Op == isa.OpCall || isClockRead(in) {
		return false
	}
	if arithmetic(in.Class) {
		return true
	}
	if !memoryClass(in.Class) || in.Flags.Has(isa.FVolatile) {
		return false
	}
	return in.Op == isa.OpLd || in.Op == isa.OpSt && in.Sem == isa.SemNone
}

// computeLoopBody reports whether region [i, j) is the whole body of a loop
// that does nothing but arithmetic: instruction j is its back edge, to i.
func computeLoopBody(p *isa.Program, i, j int) bool {
	if j >= len(p.Instrs) {
		return false
	}
	br := &p.Instrs[j]
	return br.Op == isa.OpBra && int(br.Target) == i
}

// hasLoad reports whether r holds a load from shared, global or local memory.
func hasLoad(r []isa.Instr) bool {
	for i := range r {
		if r[i].Op == isa.OpLd && (r[i].Class == isa.ClassShared || r[i].Class == isa.ClassGlobal || r[i].Class == isa.ClassLocal) {
			return true
		}
	}
	return false
}

// scheduleRegion reorders r in place by longest path first (see
// scheduleLoads).
func scheduleRegion(r []isa.Instr, lat *Latencies) {
	n := len(r)
	d := isa.Dependences(r, true)
	height := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		h := 0
		for _, s := range d.Succs[i] {
			h = max(h, height[s])
		}
		height[i] = h + lat.Class[r[i].Class]
	}
	left := make([]int, n)
	for i := range r {
		left[i] = len(d.Preds[i])
	}
	done := make([]bool, n)
	order := make([]int, 0, n)
	for len(order) < n {
		best := -1
		for i := 0; i < n; i++ {
			if !done[i] && left[i] == 0 && (best < 0 || height[i] > height[best]) {
				best = i
			}
		}
		done[best] = true
		order = append(order, best)
		for _, s := range d.Succs[best] {
			left[s]--
		}
	}
	reorder(r, order)
}

// fillStalls reorders a loop trip of arithmetic the way an in-order issue
// slot is filled: one instruction a cycle, in program order while the next
// is ready; when it waits on a result, the first later instruction that is
// ready goes instead, or else the one ready soonest. Code without stalls
// keeps its order. A predicate counts lat.Pred cycles to the guard or
// branch that reads it.
func fillStalls(r []isa.Instr, lat *Latencies) {
	n := len(r)
	preds := isa.Dependences(r, true).Preds
	latency := func(i int) int {
		if r[i].NDst > 0 && r[i].Dst(0).Kind == isa.KPred {
			return lat.Pred
		}
		return lat.Class[r[i].Class]
	}
	issued := make([]int, n)
	done := make([]bool, n)
	order := make([]int, 0, n)
	cycle := 0
	for len(order) < n {
		best, bestAt := -1, 0
		for i := 0; i < n; i++ {
			if done[i] {
				continue
			}
			at, ok := 0, true
			for _, j := range preds[i] {
				if !done[j] {
					ok = false
					break
				}
				at = max(at, issued[j]+latency(j))
			}
			if !ok {
				continue
			}
			if at <= cycle {
				best, bestAt = i, at
				break
			}
			if best < 0 || at < bestAt {
				best, bestAt = i, at
			}
		}
		cycle = max(cycle, bestAt)
		issued[best], done[best] = cycle, true
		order = append(order, best)
		cycle++
	}
	reorder(r, order)
}
