package isa

// maxScheduleRegion bounds the regions ScheduleLoads reorders (a quadratic
// pass; longer straight-line stretches are left as they are).
const maxScheduleRegion = 512

// ScheduleLoads models ptxas's list scheduling of straight-line code around
// loads: a load issues as soon as its address is computed, ahead of
// arithmetic that waits on earlier loads, so that loads overlap. The SASS
// shows it in every load loop of the calibration kernels: libpipe.cu's
// consumer issues an LDS.128, the loop counter, the next address and the next
// LDS.128 before the adds that consume the first (calibration/h200
// libpipe.sass); pipeline.cu's shared-memory loop likewise.
//
// A region is a maximal run of arithmetic instructions and plain loads
// (ld, not volatile) inside one basic block; every other instruction —
// stores, atomics, barrier, copy and synchronisation operations, clock
// reads, collectives, branches — stays where it is and nothing moves across
// it, so memory ordering and what a clock read observes are unchanged. Within
// a region the instructions are listed again in dependence order (a register
// or predicate read after written, written after read, written after
// written), each time taking the ready instruction that heads the longest
// chain of latencies to the region's end (nominal latencies per class: a
// global load 300 cycles, a shared load 23, arithmetic its class's typical
// latency), ties in program order. Each instruction computes what it did
// before; only the order of independent ones changes. Programs with
// indirect branches are left as they are.
func ScheduleLoads(p *Program) {
	if hasIndirect(p) {
		return
	}
	targeted := branchTargets(p)
	for i := 0; i < len(p.Instrs); {
		if !schedulable(&p.Instrs[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(p.Instrs) && schedulable(&p.Instrs[j]) && targeted[j] == 0 {
			j++
		}
		if n := j - i; n > 2 && n <= maxScheduleRegion && hasLoad(p.Instrs[i:j]) {
			scheduleRegion(p.Instrs[i:j])
		}
		i = j
	}
}

// schedulable reports whether in may move within its region.
func schedulable(in *Instr) bool {
	if in.Op.IsBranch() || in.Op.Ends() || in.Op == OpCall || isClockRead(in) {
		return false
	}
	if arithmetic(in.Class) {
		return true
	}
	return memoryClass(in.Class) && in.Op == OpLd && !in.Flags.Has(FVolatile)
}

func hasLoad(r []Instr) bool {
	for i := range r {
		if r[i].Op == OpLd && (r[i].Class == ClassShared || r[i].Class == ClassGlobal || r[i].Class == ClassLocal) {
			return true
		}
	}
	return false
}

// nominalLatency is the latency ScheduleLoads assumes for a class.
func nominalLatency(c Class) int {
	switch c {
	case ClassGlobal, ClassLocal:
		return 300
	case ClassShared:
		return 23
	case ClassFP64:
		return 8
	case ClassSFU:
		return 17
	case ClassDiv:
		return 45
	case ClassDiv64:
		return 112
	case ClassIDiv, ClassIDivInv, ClassIDiv64, ClassIDiv64Inv:
		return 60
	}
	return 4
}

// scheduleRegion reorders r in place (see ScheduleLoads).
func scheduleRegion(r []Instr) {
	n := len(r)
	preds := make([][]int, n) // i must come after each of preds[i]
	succs := make([][]int, n)
	lastWrite := map[regKey]int{}
	reads := map[regKey][]int{} // reads since the last write
	for i := range r {
		var rd, wr []regKey
		eachUse(&r[i], func(k regKey, dst bool) {
			if dst {
				wr = append(wr, k)
			} else {
				rd = append(rd, k)
			}
		})
		dep := func(j int) {
			for _, x := range preds[i] {
				if x == j {
					return
				}
			}
			preds[i] = append(preds[i], j)
			succs[j] = append(succs[j], i)
		}
		for _, k := range rd {
			if j, ok := lastWrite[k]; ok {
				dep(j) // read after write
			}
		}
		for _, k := range wr {
			if j, ok := lastWrite[k]; ok {
				dep(j) // write after write
			}
			for _, j := range reads[k] {
				if j != i {
					dep(j) // write after read
				}
			}
		}
		for _, k := range rd {
			reads[k] = append(reads[k], i)
		}
		for _, k := range wr {
			lastWrite[k] = i
			reads[k] = nil
		}
	}
	height := make([]int, n)
	for i := n - 1; i >= 0; i-- {
		h := 0
		for _, s := range succs[i] {
			h = max(h, height[s])
		}
		height[i] = h + nominalLatency(r[i].Class)
	}
	left := make([]int, n)
	for i := range r {
		left[i] = len(preds[i])
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
		for _, s := range succs[best] {
			left[s]--
		}
	}
	out := make([]Instr, n)
	for k, i := range order {
		out[k] = r[i]
	}
	copy(r, out)
}
