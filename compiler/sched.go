package compiler

// HoistClockReads models how ptxas schedules clock reads (CS2R SR_CLOCKLO):
// within a basic block, an instruction that would stall on a result still in
// flight from a barrier, memory or copy operation of the block lets a later
// clock read issue ahead of it, in the stall. The H200 measurements need it:
// `clock; try_wait; selp; setp; clock` measured 2 cycles (microbench.csv,
// latency try_wait_on_completed_phase), which only a second clock read issued
// right behind the try_wait explains. Arithmetic that waits on nothing keeps
// its place before a clock read: the 2-D tensor-copy loop of microbench.cu
// computes its tile coordinates (a division) before its first clock read in
// the SASS the H200 ran, outside the timed window.
//
// A read moves up past instructions of arithmetic timing classes that do not
// touch its destination register and that wait, directly or through another
// such instruction, on a barrier, memory or copy operation earlier in the
// block; never past a branch target, a branch, a memory, barrier, copy or
// synchronisation instruction, or another clock read — so it never changes
// which clock value a program observes relative to memory and barrier
// operations. Programs with indirect branches are left as they are.
// Reconvergence points are recomputed.
import "github.com/smsim/smsim/isa"

func HoistClockReads(p *isa.Program) {
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpBrx {
			return
		}
	}
	target := make([]bool, len(p.Instrs)+1)
	for i := range p.Instrs {
		if in := &p.Instrs[i]; in.Op == isa.OpBra && int(in.Target) < len(target) && in.Target >= 0 {
			target[in.Target] = true
		}
	}
	waits := waitingOnLongOps(p, target)
	moved := false
	for i := 1; i < len(p.Instrs); i++ {
		if !isClockRead(&p.Instrs[i]) || target[i] {
			continue
		}
		dst := p.Instrs[i].Ops[0]
		j := i
		for j > 0 && !target[j] && waits[j-1] && movable(&p.Instrs[j-1], dst) {
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
func waitingOnLongOps(p *isa.Program, target []bool) []bool {
	waits := make([]bool, len(p.Instrs))
	type reg struct {
		kind isa.Kind
		n    int32
	}
	pending := map[reg]bool{} // register or predicate -> its value is still in flight
	key := func(o isa.Operand) reg {
		if o.Kind == isa.KAddr {
			return reg{isa.KReg, o.Reg} // an address reads a general register
		}
		return reg{o.Kind, o.Reg}
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if target[k] {
			clear(pending)
		}
		w := in.Guard.Kind == isa.KPred && pending[key(in.Guard)]
		for d := int(in.NDst); d < len(in.Ops); d++ {
			if o := in.Ops[d]; (o.Kind == isa.KReg || o.Kind == isa.KPred || o.Kind == isa.KAddr && o.Reg >= 0) && pending[key(o)] {
				w = true
			}
		}
		waits[k] = w
		long := false
		switch in.Class {
		case isa.ClassSyncs, isa.ClassShared, isa.ClassGlobal, isa.ClassLocal, isa.ClassConst, isa.ClassTMA, isa.ClassWarpSync:
			long = true
		}
		for d := 0; d < int(in.NDst); d++ {
			if o := in.Ops[d]; o.Kind == isa.KReg || o.Kind == isa.KPred {
				pending[key(o)] = long || w
			}
		}
		if in.Op.IsBranch() {
			clear(pending)
		}
	}
	return waits
}

func isClockRead(in *isa.Instr) bool {
	if in.Op != isa.OpMov || len(in.Ops) < 2 || in.Ops[1].Kind != isa.KSpecial || in.Guard.Kind != isa.KNone {
		return false
	}
	switch in.Ops[1].Special {
	case isa.SClock, isa.SClock64, isa.SClockHi:
		return true
	}
	return false
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
	for k := range in.Ops {
		if o := in.Ops[k]; (o.Kind == isa.KReg || o.Kind == isa.KAddr) && o.Reg == dst.Reg {
			return false
		}
	}
	return !(in.Guard.Kind == isa.KReg && in.Guard.Reg == dst.Reg)
}

// IfConvert models ptxas's if-conversion of short forward branches: a
// conditional branch that skips one instruction, possibly preceded by moves
// of constants (which ptxas materialises outside the branch),
//
//	@p bra L;  [mov r, const;]...  X;  L:
//
// becomes predicated instructions @!p ..., so the warp does not diverge.
// The H200 measured it: lane-serial arrives cost ~7.5 cycles per lane
// (microbench.csv arrive_wait_loop divergent32), and an elected arrive with a
// count operand costs no more than one without (elected_arrive32 against
// elected_count1). Only plain, unguarded, non-control instructions that no
// other branch targets are converted. A condition that may differ between
// lanes keeps ptxas's convergence barrier (markConvergence). Branch targets
// are renumbered and reconvergence points recomputed.
func IfConvert(p *isa.Program) {
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpBrx {
			return
		}
	}
	for {
		i := findSkip(p)
		if i < 0 {
			return
		}
		varying := varyingRegs(p)
		br := p.Instrs[i]
		for k := i + 1; k < int(br.Target); k++ {
			x := &p.Instrs[k]
			x.Guard = br.Guard
			x.Guard.Neg = !x.Guard.Neg
		}
		p.Instrs = append(p.Instrs[:i], p.Instrs[i+1:]...)
		for k := range p.Instrs {
			if in := &p.Instrs[k]; in.Op == isa.OpBra && int(in.Target) > i {
				in.Target--
			}
		}
		isa.Reconverge(p, nil)
		if varying[regKey{isa.KPred, br.Guard.Reg}] {
			markConvergence(p, int(br.Target)-1)
		}
	}
}

// findSkip returns the index of the first convertible branch, or -1.
func findSkip(p *isa.Program) int {
	targeted := make([]int, len(p.Instrs)+1)
	for k := range p.Instrs {
		if in := &p.Instrs[k]; in.Op == isa.OpBra && in.Target >= 0 && int(in.Target) < len(targeted) {
			targeted[in.Target]++
		}
	}
	for i := 0; i+2 < len(p.Instrs); i++ {
		br := &p.Instrs[i]
		end := int(br.Target)
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || end <= i+1 || end > len(p.Instrs) {
			continue
		}
		ok := true
		for k := i + 1; k < end && ok; k++ {
			x := &p.Instrs[k]
			plain := x.Guard.Kind == isa.KNone && !x.Op.IsBranch() && !x.Op.Ends() && x.Op != isa.OpCall &&
				x.Op != isa.OpBarSync && x.Op != isa.OpBarWarpSync && targeted[k] == 0
			ok = plain && (k == end-1 || isConstMov(x))
		}
		if ok {
			return i
		}
	}
	return -1
}

// isConstMov reports a move of an immediate or symbol address into a register.
func isConstMov(in *isa.Instr) bool {
	return in.Op == isa.OpMov && len(in.Ops) == 2 && in.Ops[0].Kind == isa.KReg &&
		(in.Ops[1].Kind == isa.KImm || (in.Ops[1].Kind == isa.KAddr && in.Ops[1].Reg < 0))
}

// HoistDivisors models what ptxas does with an integer division or remainder
// inside a loop whose divisor the loop never changes: it computes the
// divisor's reciprocal (I2F, MUFU.RCP, F2I and their fix-ups) once before the
// loop, and each trip only multiplies and corrects. Such an instruction takes
// the class ClassIDivInv or ClassIDiv64Inv instead of ClassIDiv or ClassIDiv64.
// The H200 measured it (calibration/h200/latency2.csv): rem.u32 by an
// invariant divisor 61.5 cycles against 129.4 for div.u32 by a changing one,
// rem.u64 266 against 316.
//
// A loop is the range from a backward branch's target to the branch, in
// program order (nvcc emits loops that way); the innermost one that holds the
// instruction decides, and it must be one basic block (oneBlock). The divisor is invariant when it is a register that no
// instruction of that range writes; a range with a call is never invariant. A
// division in no loop keeps its full latency. (A constant divisor is class
// imad already: ClassOf.)
func HoistDivisors(p *isa.Program) {
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if (in.Class != isa.ClassIDiv && in.Class != isa.ClassIDiv64) || in.NSrc() < 2 {
			continue
		}
		lo, hi := innermostLoop(p, i)
		if lo < 0 || !oneBlock(p, lo, hi) || !invariantIn(p, *in.Src(1), lo, hi) {
			continue
		}
		if in.Class == isa.ClassIDiv {
			in.Class = isa.ClassIDivInv
		} else {
			in.Class = isa.ClassIDiv64Inv
		}
	}
}

// oneBlock reports whether the loop [lo, hi] is one basic block: no branch
// before its back edge at hi. ptxas hoists a divisor's reciprocal out of
// such a loop (latency2.csv's chains) but recomputes it every trip in a loop
// with branches inside (calibration/h200 prodonly.cu, pipeline.cu: I2F,
// MUFU.RCP and F2I at the loop's top, whose body holds a conditional barrier
// wait; 107 cycles a trip for the remainder against 61.5 hoisted).
func oneBlock(p *isa.Program, lo, hi int) bool {
	for k := lo; k < hi; k++ {
		if p.Instrs[k].Op.IsBranch() {
			return false
		}
	}
	return true
}

// innermostLoop returns the shortest range [target, branch] of a backward
// branch that contains instruction i, or -1, -1.
func innermostLoop(p *isa.Program, i int) (lo, hi int) {
	lo, hi = -1, -1
	for b := i; b < len(p.Instrs); b++ {
		in := &p.Instrs[b]
		if in.Op != isa.OpBra || in.Target < 0 || int(in.Target) > i {
			continue
		}
		if lo < 0 || b-int(in.Target) < hi-lo {
			lo, hi = int(in.Target), b
		}
	}
	return lo, hi
}

// invariantIn reports whether no instruction in [lo, hi] can change o.
func invariantIn(p *isa.Program, o isa.Operand, lo, hi int) bool {
	if o.Kind != isa.KReg {
		return false
	}
	for k := lo; k <= hi; k++ {
		in := &p.Instrs[k]
		if in.Op == isa.OpCall {
			return false
		}
		for d := 0; d < int(in.NDst); d++ {
			if x := in.Ops[d]; x.Kind == isa.KReg && x.Reg == o.Reg {
				return false
			}
		}
	}
	return true
}

// HoistPastWaitLoops models how ptxas lays out a barrier wait loop
//
//	L: mbarrier.try_wait p, ...; ...; @!p bra L;  S...
//
// its retry path goes out of line, and the arithmetic at the head of S that
// neither reads what the loop writes nor writes what it touches is scheduled
// before the wait. The SASS of microbench.cu's k_arrive_wait shows it: the
// loop counter's UIADD3 and ISETP sit before the TRYWAIT, the parity flip
// (whose register the wait reads) after it (calibration/h200/README.md).
//
// The loop must be one block ending in its only backward branch, hold an
// mbarrier try_wait or test_wait, and be entered by falling into it; S must be
// reached only by falling out of it, or also by one guarded forward branch
// over straight-line arithmetic and the loop — an if-then region around the
// wait, `if (t >= stages) wait(...)` — and then the moved instructions go
// before that branch, which they may not feed, when one of them is a
// division: they run on both paths, and ptxas moves long-latency work up
// (ptxpipe.cu's producer in cuda::ptx terms computes its next tile's
// coordinates, two divisions, before the branch and the TRYWAIT,
// calibration/h200 ptxpipe.sass; prodonly.cu's multiply and mask stay after
// it). Moved are the unguarded arithmetic
// instructions (the arithmetic timing classes, divisions included; no clock
// read) at S's head, up to its first instruction that is neither arithmetic
// nor a barrier arrive (arrives stay after the wait: wspipe.cu's producer
// computes the next tile's coordinates, two divisions, before its TRYWAIT on
// the empty slot and arms the full barrier after it), that keep their order
// with those left behind. Each runs as often as before, on the same
// lanes (every lane that enters the loop leaves it into S). Programs with
// indirect branches are left as they are.
func HoistPastWaitLoops(p *isa.Program) {
	for i := range p.Instrs {
		if p.Instrs[i].Op == isa.OpBrx {
			return
		}
	}
	for i := 0; i < len(p.Instrs); i++ {
		if moved := hoistPastWaitLoop(p, i); moved {
			isa.Reconverge(p, nil)
		}
	}
}

// passable reports whether arithmetic after a wait loop may be scheduled
// above in (it stays where it is): a barrier arrive, which reads only its
// operands and the barrier. wspipe.cu's producer computes its next tile's
// coordinates (two divisions) before waiting for the empty slot, and arms
// the full barrier and starts the copy right after the wait.
func passable(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx:
		return true
	case isa.OpBarWarpSync:
		// __syncwarp() with the full mask as an immediate: a NOP in the SASS
		// of a converged warp (microbench.cu's elected loop), which ptxas
		// schedules around (syncwarp.cu with it after the wait: the loop's
		// compare still sits before the TRYWAIT).
		return in.NSrc() == 1 && in.Src(0).Kind == isa.KImm && uint32(in.Src(0).Imm) == 0xffffffff
	}
	return false
}

// syncSeparated reports whether the straight-line code just above the wait
// loop that starts at t ends in a barrier arrive followed by a full-mask
// __syncwarp() (and nothing but arithmetic): the elected arrive of
// microbench.cu's elected loops, `if (lane == 0) arrive; __syncwarp();`.
// ptxas schedules that loop differently from the converged one: the
// __syncwarp() is a NOP right after the ARRIVE, the counter's UIADD3 sits
// before the TRYWAIT, and its ISETP after the TRYWAIT, not before it
// (calibration/h200/README.md, the elected loop's schedule: `ARRIVE; NOP;
// UIADD3; TRYWAIT`, 3 cycles from arrive to wait, against the converged
// loop's `ARRIVE; UIADD3; ISETP; TRYWAIT`, 8 cycles).
func syncSeparated(p *isa.Program, t int) bool {
	sync := false
	for k := t - 1; k >= 0; k-- {
		in := &p.Instrs[k]
		switch {
		case in.Op == isa.OpBarWarpSync && passable(in):
			sync = true
		case in.Op == isa.OpMbarArrive:
			// Only the plain arrive (A1T0, no count operand): with a count
			// (ART0), ptxas keeps the converged schedule, the NOP added
			// (microbench.cu's elected_arrive32 loop).
			return sync && in.NSrc() == 1 && !in.Flags.Has(isa.FExpectTx)
		case in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall || !arithmetic(in.Class) || isClockRead(in):
			return false
		}
	}
	return false
}

// holdsDivision reports whether one of the instructions is a division (a
// long-latency sequence in SASS): what ptxas moves above the branch of an
// if-then region around a wait. ptxpipe.cu's producer has its two divisions
// and the coordinates' multiplies before the branch; prodonly.cu's producer,
// the same region followed by a multiply and a mask, keeps them after the
// TRYWAIT (calibration/h200 ptxpipe.sass; prodonly.cu's SASS, read in the
// thirteenth session).
func holdsDivision(ins []isa.Instr) bool {
	for i := range ins {
		if nominalLatency(ins[i].Class) >= nominalLatency(isa.ClassDiv) {
			return true
		}
	}
	return false
}

// skipBranch returns the index of the branch that makes the wait loop
// [t..b] the body of an if-then region — a guarded forward bra to b+1, the
// only other way into S, followed by straight-line arithmetic up to the
// loop (the parity and the barrier's address) — or -1 when there is none.
func skipBranch(p *isa.Program, t, b int, targeted []int) int {
	if targeted[b+1] != 1 {
		return -1
	}
	for k := t - 1; k >= 0; k-- {
		in := &p.Instrs[k]
		if in.Op == isa.OpBra {
			if int(in.Target) == b+1 && in.Guard.Kind == isa.KPred {
				return k
			}
			return -1
		}
		if targeted[k] != 0 || in.Op.Ends() || in.Op == isa.OpCall || !arithmetic(in.Class) || isClockRead(in) {
			return -1
		}
	}
	return -1
}

// hoistPastWaitLoop applies HoistPastWaitLoops to the loop whose back edge
// is instruction b, and reports whether it moved anything.
func hoistPastWaitLoop(p *isa.Program, b int) bool {
	br := &p.Instrs[b]
	t := int(br.Target)
	if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || t < 0 || t >= b || b+1 >= len(p.Instrs) {
		return false
	}
	targeted := make([]int, len(p.Instrs)+1)
	for k := range p.Instrs {
		if in := &p.Instrs[k]; in.Op == isa.OpBra && in.Target >= 0 && int(in.Target) <= len(p.Instrs) {
			targeted[in.Target]++
		}
	}
	if targeted[t] != 1 {
		return false
	}
	type reg = regKey
	read, written := map[reg]bool{}, map[reg]bool{}
	uses := eachUse
	// from is where the moved instructions go: the loop's head, or, when
	// the loop sits in an if-then region (a branch at skip jumps over an
	// arithmetic preamble and the loop to S), before that branch.
	from := t
	if targeted[b+1] != 0 {
		skip := skipBranch(p, t, b, targeted)
		if skip < 0 {
			return false
		}
		from = skip
		for k := skip; k < t; k++ {
			uses(&p.Instrs[k], func(r reg, dst bool) {
				if dst {
					written[r] = true
				} else {
					read[r] = true
				}
			})
		}
	}
	wait := false
	for k := t; k <= b; k++ {
		in := &p.Instrs[k]
		if k > t && targeted[k] != 0 || k < b && (in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall) {
			return false
		}
		if in.Op == isa.OpMbarTryWait || in.Op == isa.OpMbarTestWait {
			wait = true
		}
		uses(in, func(r reg, dst bool) {
			if dst {
				written[r] = true
			} else {
				read[r] = true
			}
		})
	}
	if !wait {
		return false
	}
	// A __syncwarp() between the warp's arrive and the wait keeps the loop's
	// compares after the wait (see syncSeparated).
	keepCompares := syncSeparated(p, from)
	// Walk S's head: move what is independent of the loop and of the
	// instructions left behind.
	var moved, late, kept []isa.Instr
	keptRead, keptWritten := map[reg]bool{}, map[reg]bool{}
	end := b + 1
	for ; end < len(p.Instrs); end++ {
		in := &p.Instrs[end]
		if end > b+1 && targeted[end] != 0 {
			break
		}
		arith := false
		if arithmetic(in.Class) {
			arith = !in.Op.IsBranch() && !in.Op.Ends() && !isClockRead(in)
		}
		if !arith && !passable(in) {
			break
		}
		ok := arith && in.Guard.Kind == isa.KNone
		uses(in, func(r reg, dst bool) {
			if dst {
				ok = ok && !read[r] && !written[r] && !keptRead[r] && !keptWritten[r]
			} else {
				ok = ok && !written[r] && !keptWritten[r]
			}
		})
		if ok && keepCompares && in.Op == isa.OpSetp && from == t {
			late = append(late, *in)
			continue
		}
		if ok {
			moved = append(moved, *in)
			continue
		}
		kept = append(kept, *in)
		uses(in, func(r reg, dst bool) {
			if dst {
				keptWritten[r] = true
			} else {
				keptRead[r] = true
			}
		})
	}
	if len(moved)+len(late) == 0 || from < t && !holdsDivision(moved) {
		return false
	}
	// The late compares go right behind the loop's try_wait (w), in the
	// loop: they read nothing the loop writes, so each retry computes the
	// same predicate again.
	w := b
	if len(late) > 0 {
		for w = t; p.Instrs[w].Op != isa.OpMbarTryWait && p.Instrs[w].Op != isa.OpMbarTestWait; w++ {
		}
	}
	// New order: [..from) moved [from..w] late (w..b] kept [end..). Old
	// index -> new index; S's head is targeted only at b+1 (by the skipping
	// branch), the kept part's start.
	m, l := len(moved), len(late)
	newIdx := func(old int) int {
		switch {
		case old < from:
			return old
		case old <= w:
			return old + m
		case old <= b+1:
			return old + m + l
		}
		return old
	}
	out := make([]isa.Instr, 0, len(p.Instrs))
	out = append(out, p.Instrs[:from]...)
	out = append(out, moved...)
	out = append(out, p.Instrs[from:w+1]...)
	out = append(out, late...)
	out = append(out, p.Instrs[w+1:b+1]...)
	out = append(out, kept...)
	out = append(out, p.Instrs[end:]...)
	for k := range out {
		if in := &out[k]; in.Op == isa.OpBra && in.Target >= 0 {
			in.Target = int32(newIdx(int(in.Target)))
		}
	}
	p.Instrs = out
	return true
}

// HoistPastBulkWaits models ptxas scheduling arithmetic across a bulk-group
// wait. cp.async.bulk.wait_group is SASS's `DEPBAR.LE SB0, N`, a wait on the
// bulk stores' scoreboard that defines no register, and ptxas computes the
// arithmetic after it ahead of it: store.cu's loop computes the next store's
// address above each DEPBAR (calibration/h200 store.sass). The run of
// arithmetic right after a wait_group moves above it; the run ends at the
// first instruction that is not arithmetic (a memory access, a barrier, a
// bulk operation, a clock read, a branch) and at a branch target. Programs
// with indirect branches are left as they are.
func HoistPastBulkWaits(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	targeted := branchTargets(p)
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
