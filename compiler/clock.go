package compiler

import "github.com/smsim/smsim/isa"

// HoistClockReads issues a clock read in the stall of the arithmetic before it.
var HoistClockReads = Pass{
	Name: "HoistClockReads",
	Doc: "ptxas issues a clock read (CS2R SR_CLOCKLO) in the stall of an instruction that waits on a result " +
		"still in flight from a barrier, memory or copy operation: `clock; try_wait; selp; setp; clock` runs " +
		"in 2 cycles on the H200 (calibration/h200 microbench.csv, try_wait_on_completed_phase), which only a " +
		"second clock read issued right behind the try_wait explains. Arithmetic that waits on nothing keeps " +
		"its place before a clock read: the 2-D tensor-copy loop of microbench.cu computes its tile " +
		"coordinates (a division) before its first clock read in its SASS, outside the timed window.",
	Run: hoistClockReads,
}

// hoistClockReads moves a clock read up past instructions of arithmetic
// timing classes that do not touch its destination register and that wait,
// directly or through another such instruction, on a barrier, memory or copy
// operation earlier in the basic block; never past a branch target, a branch,
// a memory, barrier, copy or synchronisation instruction, or another clock
// read — so it never changes which clock value a program observes relative
// to memory and barrier operations. Programs with indirect branches are left
// as they are. Reconvergence points are recomputed.
func hoistClockReads(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	waits := waitingOnLongOps(p, targeted)
	moved := false
	for i := 1; i < len(p.Instrs); i++ {
		if !isClockRead(&p.Instrs[i]) || targeted[i] != 0 {
			continue
		}
		dst := p.Instrs[i].Ops[0]
		j := i
		for j > 0 && targeted[j] == 0 && waits[j-1] && movable(&p.Instrs[j-1], dst) {
			j--
		}
		if j == i {
			continue
		}
		clk, w := p.Instrs[i], waits[i]
		copy(p.Instrs[j+1:i+1], p.Instrs[j:i])
		copy(waits[j+1:i+1], waits[j:i])
		p.Instrs[j], waits[j] = clk, w
		moved = true
	}
	if moved {
		isa.Reconverge(p, nil)
	}
}

// waitingOnLongOps reports, per instruction, whether it reads a register
// (or guard predicate) whose value comes, within the same basic block, from
// a barrier, memory, copy or warp-collective operation — or from another
// instruction that does: what would stall on a variable-latency result.
func waitingOnLongOps(p *isa.Program, targeted []int) []bool {
	waits := make([]bool, len(p.Instrs))
	pending := map[isa.Loc]bool{} // register or predicate -> its value is still in flight
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if targeted[k] != 0 {
			clear(pending)
		}
		w := false
		in.Uses(func(l isa.Loc, def bool) { w = w || !def && pending[l] })
		waits[k] = w
		long := false
		switch in.Class {
		case isa.ClassSyncs, isa.ClassShared, isa.ClassGlobal, isa.ClassLocal, isa.ClassConst, isa.ClassTMA, isa.ClassWarpSync:
			long = true
		}
		in.Uses(func(l isa.Loc, def bool) {
			if def {
				pending[l] = long || w
			}
		})
		if in.Op.IsBranch() {
			clear(pending)
		}
	}
	return waits
}

// movable reports whether a clock read writing dst may move above in.
func movable(in *isa.Instr, dst isa.Operand) bool {
	switch in.Class {
	case isa.ClassALU, isa.ClassIMAD, isa.ClassFMA, isa.ClassFP64, isa.ClassSFU, isa.ClassHalf2, isa.ClassHalf2MMA, isa.ClassCvtFloat:
	default:
		return false
	}
	if in.Op.IsBranch() || isClockRead(in) {
		return false
	}
	r := isa.RegLoc(dst.Reg)
	return !in.Reads(r) && !in.Writes(r)
}
