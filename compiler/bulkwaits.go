package compiler

import "github.com/smsim/smsim/isa"

// HoistPastBulkWaits schedules arithmetic across a bulk-group wait.
var HoistPastBulkWaits = Pass{
	Name: "HoistPastBulkWaits",
	Doc: "cp.async.bulk.wait_group is SASS's `DEPBAR.LE SB0, N`, a wait on the bulk stores' scoreboard that " +
		"defines no register, and ptxas computes the arithmetic after it ahead of it: store.cu's loop " +
		"computes the next store's address above each DEPBAR (SASS: calibration/h200 store.sass).",
	Run: hoistPastBulkWaits,
}

// hoistPastBulkWaits moves the run of arithmetic right after each
// cp.async.bulk.wait_group above it. The run ends at the first instruction
// that is not arithmetic (a memory access, a barrier, a bulk operation, a
// clock read, a branch) and at a branch target. Programs with indirect
// branches are left as they are; reconvergence points are recomputed.
func hoistPastBulkWaits(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	any := false
	for w := 0; w < len(p.Instrs); w++ {
		if p.Instrs[w].Op != isa.OpBulkWait {
			continue
		}
		end := w + 1
		for ; end < len(p.Instrs) && targeted[end] == 0; end++ {
			in := &p.Instrs[end]
			if !arithmetic(in.Class) || in.Op.IsBranch() || in.Op.Ends() || isClockRead(in) {
				break
			}
		}
		if end == w+1 {
			continue
		}
		wait := p.Instrs[w]
		copy(p.Instrs[w:end-1], p.Instrs[w+1:end])
		p.Instrs[end-1] = wait
		w = end - 1
		any = true
	}
	if any {
		isa.Reconverge(p, nil)
	}
}
