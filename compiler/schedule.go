package compiler

// maxScheduleRegion bounds the regions ScheduleLoads reorders (a quadratic
// pass; longer straight-line stretches are left as they are).
import "github.com/smsim/smsim/isa"

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
//
// A region with no load is reordered only when it is the whole trip of a
// loop (the instruction after it is the back edge to its first), and then
// as an in-order issue slot is filled (fillStalls): program order while the
// next instruction is ready, the first ready one after it when it is not.
// ptxas interleaves independent chains there (calibration/h200
// convert.sass: eight chains' F2FP.PACK_AB and HADD2.F32 interleaved where
// the PTX has each chain's two conversions back to back): convert.csv's
// f2h_pair rows went from +119 % to -3 %, its i2f_u16 rows from +31 % to
// +4 %, branch.csv from 4.76 to 4.55 %, and no other file moved. Ordering
// such trips by longest path instead, as load regions are, took the same
// convert.csv rows but moved throughput.csv's already interleaved chains
// away from the H200.
func ScheduleLoads(p *isa.Program) {
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
		if n := j - i; n > 2 && n <= maxScheduleRegion {
			if hasLoad(p.Instrs[i:j]) {
				scheduleRegion(p.Instrs[i:j])
			} else if computeLoopBody(p, i, j) {
				fillStalls(p.Instrs[i:j])
			}
		}
		i = j
	}
}

// schedulable reports whether in may move within its region.
func schedulable(in *isa.Instr) bool {
	if in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall || isClockRead(in) {
		return false
	}
	if arithmetic(in.Class) {
		return true
	}
	return memoryClass(in.Class) && in.Op == isa.OpLd && !in.Flags.Has(isa.FVolatile)
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

func hasLoad(r []isa.Instr) bool {
	for i := range r {
		if r[i].Op == isa.OpLd && (r[i].Class == isa.ClassShared || r[i].Class == isa.ClassGlobal || r[i].Class == isa.ClassLocal) {
			return true
		}
	}
	return false
}

// nominalLatency is the latency ScheduleLoads assumes for a class.
func nominalLatency(c isa.Class) int {
	switch c {
	case isa.ClassGlobal, isa.ClassLocal:
		return 300
	case isa.ClassShared:
		return 23
	case isa.ClassFP64:
		return 8
	case isa.ClassSFU:
		return 17
	case isa.ClassDiv:
		return 45
	case isa.ClassDiv64:
		return 112
	case isa.ClassIDiv, isa.ClassIDivInv, isa.ClassIDiv64, isa.ClassIDiv64Inv:
		return 60
	case isa.ClassHalf2:
		return 6
	case isa.ClassHalf2MMA:
		return 10
	case isa.ClassCvtFloat:
		return 5
	}
	return 4
}

// scheduleRegion reorders r in place (see ScheduleLoads).
func scheduleRegion(r []isa.Instr) {
	n := len(r)
	preds, succs := dependences(r)
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
	reorder(r, order)
}

// fillStalls reorders a loop trip of arithmetic (see ScheduleLoads) the way
// an in-order issue slot is filled: one instruction a cycle, in program
// order while the next is ready; when it waits on a result, the first
// later instruction that is ready goes instead, or else the one ready
// soonest. Code without stalls keeps its order. A predicate counts its
// 13 cycles to the guard or branch that reads it (latency.pred).
func fillStalls(r []isa.Instr) {
	n := len(r)
	preds, _ := dependences(r)
	lat := func(i int) int {
		if r[i].NDst > 0 && r[i].Dst(0).Kind == isa.KPred {
			return 13
		}
		return nominalLatency(r[i].Class)
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
				at = max(at, issued[j]+lat(j))
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

// reorder puts r's instructions in the order given (indices into r).
func reorder(r []isa.Instr, order []int) {
	out := make([]isa.Instr, len(r))
	for k, i := range order {
		out[k] = r[i]
	}
	copy(r, out)
}

// dependences lists, for each instruction of r, those it must follow (a
// register or predicate read after written, written after read, written
// after written) and those that must follow it.
func dependences(r []isa.Instr) (preds, succs [][]int) {
	n := len(r)
	preds = make([][]int, n) // i must come after each of preds[i]
	succs = make([][]int, n)
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
	return preds, succs
}
