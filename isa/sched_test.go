package isa

import (
	"fmt"
	"reflect"
	"testing"
)

func clock(r int) Instr {
	return Instr{Op: OpMov, Type: U64, NDst: 1, Ops: []Operand{R(r), Spec(SClock64)}, Class: ClassSpecial}
}

func aluI(d, s int) Instr {
	return Instr{Op: OpAdd, Type: U32, NDst: 1, Ops: []Operand{R(d), R(s), Imm(1)}, Class: ClassALU}
}

func TestClockReadsMoveAboveIndependentArithmeticOnly(t *testing.T) {
	tw := Instr{Op: OpMbarTryWait, NDst: 1, Ops: []Operand{P(0), Addr(-1, 0), Imm(0)}, Class: ClassSyncs}
	selp := Instr{Op: OpSelp, Type: U32, NDst: 1, Ops: []Operand{R(1), Imm(1), Imm(0), P(0)}, Class: ClassALU}
	ld := Instr{Op: OpLd, Space: Shared, NDst: 1, Ops: []Operand{R(2), Addr(5, 0)}, Class: ClassShared}
	tests := []struct {
		name string
		prog []Instr
		want []Op // the opcode sequence after scheduling
	}{
		{"clock passes selp and setp up to the try_wait they wait on",
			[]Instr{clock(0), tw, selp, aluI(3, 1), clock(4), {Op: OpExit}},
			[]Op{OpMov, OpMbarTryWait, OpMov, OpSelp, OpAdd, OpExit}},
		{"clock passes arithmetic that waits on a load",
			[]Instr{ld, aluI(3, 2), clock(4), {Op: OpExit}},
			[]Op{OpLd, OpMov, OpAdd, OpExit}},
		{"clock stays below arithmetic that waits on nothing",
			[]Instr{tw, aluI(1, 2), aluI(3, 1), clock(4), {Op: OpExit}},
			[]Op{OpMbarTryWait, OpAdd, OpAdd, OpMov, OpExit}},
		{"clock stays below an instruction that writes its register",
			[]Instr{ld, aluI(4, 2), clock(4), {Op: OpExit}},
			[]Op{OpLd, OpAdd, OpMov, OpExit}},
		{"clock does not pass a branch target",
			[]Instr{ld, {Op: OpBra, Guard: P(1), Target: 3}, aluI(3, 2), aluI(6, 2), clock(4), {Op: OpExit}},
			[]Op{OpLd, OpBra, OpAdd, OpAdd, OpMov, OpExit}},
		{"clock does not pass a store",
			[]Instr{{Op: OpSt, Space: Global, Ops: []Operand{Addr(1, 0), R(2)}, Class: ClassGlobal}, clock(4), {Op: OpExit}},
			[]Op{OpSt, OpMov, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			HoistClockReads(p)
			for i, op := range tc.want {
				if p.Instrs[i].Op != op {
					t.Fatalf("got %v at %d, want %v (program %v)", p.Instrs[i].Op, i, op, opsOf(p))
				}
			}
		})
	}
}

func opsOf(p *Program) []Op {
	var out []Op
	for i := range p.Instrs {
		out = append(out, p.Instrs[i].Op)
	}
	return out
}

func TestIfConvertTurnsASkipOfOneInstructionIntoPredication(t *testing.T) {
	arrive := Instr{Op: OpMbarArrive, NDst: 1, Ops: []Operand{Sink(), Addr(-1, 0)}, Class: ClassSyncs}
	p := &Program{Instrs: []Instr{
		aluI(1, 1),
		{Op: OpBra, Guard: P(0), Target: 3},
		arrive,
		{Op: OpBarWarpSync, Ops: []Operand{Imm(0xffffffff)}},
		{Op: OpBra, Guard: P(1), Target: 0},
		{Op: OpExit},
	}}
	IfConvert(p)
	if got := opsOf(p); len(got) != 5 || got[1] != OpMbarArrive {
		t.Fatalf("got %v, want the branch removed", got)
	}
	if g := p.Instrs[1].Guard; g.Kind != KPred || g.Reg != 0 || !g.Neg {
		t.Errorf("got guard %+v, want @!p0", g)
	}
	if p.Instrs[3].Target != 0 {
		t.Errorf("loop branch target %d, want 0", p.Instrs[3].Target)
	}
}

func TestIfConvertLeavesLongerAndTargetedBlocksAlone(t *testing.T) {
	p := &Program{Instrs: []Instr{
		{Op: OpBra, Guard: P(0), Target: 3},
		aluI(1, 1),
		aluI(2, 2),
		{Op: OpExit},
	}}
	IfConvert(p)
	if len(p.Instrs) != 4 {
		t.Errorf("a two-instruction block was converted: %v", opsOf(p))
	}
}

func divI(typ Type, d, a, b int) Instr {
	in := Instr{Op: OpRem, Type: typ, NDst: 1, Ops: []Operand{R(d), R(a), R(b)}}
	in.Class = ClassOf(&in)
	return in
}

func TestDivisionClassesFollowTypeAndForm(t *testing.T) {
	tests := []struct {
		in   Instr
		want Class
	}{
		{Instr{Op: OpDiv, Type: U32}, ClassIDiv},
		{Instr{Op: OpRem, Type: S32}, ClassIDiv},
		{Instr{Op: OpDiv, Type: U64}, ClassIDiv64},
		{Instr{Op: OpDiv, Type: F32, Rnd: RN}, ClassDiv},
		{Instr{Op: OpDiv, Type: F32, Flags: FApprox}, ClassDiv},
		{Instr{Op: OpDiv, Type: F64, Rnd: RN}, ClassDiv64},
		{Instr{Op: OpSqrt, Type: F32, Rnd: RN}, ClassDiv},
		{Instr{Op: OpSqrt, Type: F32, Flags: FApprox}, ClassSFU},
		{Instr{Op: OpRcp, Type: F64, Rnd: RN}, ClassDiv64},
		{Instr{Op: OpRem, Type: S64, NDst: 1, Ops: []Operand{R(1), R(2), Imm(2)}}, ClassIMAD},
		{Instr{Op: OpRsqrt, Type: F32, Flags: FApprox}, ClassSFU},
	}
	for _, tc := range tests {
		if got := ClassOf(&tc.in); got != tc.want {
			t.Errorf("%v.%v (flags %v): class %v, want %v", tc.in.Op, tc.in.Type, tc.in.Flags, got, tc.want)
		}
	}
}

func TestHoistDivisorsOnlyForDivisorsTheLoopNeverWrites(t *testing.T) {
	loopBack := func(target int) Instr {
		return Instr{Op: OpBra, Guard: P(0), Target: int32(target), Class: ClassBranch}
	}
	tests := []struct {
		name string
		prog []Instr
		at   int
		want Class
	}{
		{"invariant divisor in a loop", []Instr{aluI(1, 1), divI(U32, 2, 1, 5), loopBack(0), {Op: OpExit}}, 1, ClassIDivInv},
		{"64-bit invariant divisor", []Instr{aluI(1, 1), divI(U64, 2, 1, 5), loopBack(0), {Op: OpExit}}, 1, ClassIDiv64Inv},
		{"divisor written in the loop", []Instr{aluI(5, 5), divI(U32, 2, 1, 5), loopBack(0), {Op: OpExit}}, 1, ClassIDiv},
		{"divisor written after the division, in the loop", []Instr{divI(U32, 2, 1, 5), aluI(5, 2), loopBack(0), {Op: OpExit}}, 0, ClassIDiv},
		{"no loop", []Instr{aluI(1, 1), divI(U32, 2, 1, 5), {Op: OpExit}}, 1, ClassIDiv},
		{"a forward branch is not a loop", []Instr{{Op: OpBra, Guard: P(0), Target: 2}, divI(U32, 2, 1, 5), {Op: OpExit}}, 1, ClassIDiv},
		{"innermost loop decides", []Instr{aluI(5, 5), aluI(1, 1), divI(U32, 2, 1, 5), loopBack(1), loopBack(0), {Op: OpExit}}, 2, ClassIDivInv},
		{"a call in the loop may write anything", []Instr{{Op: OpCall}, divI(U32, 2, 1, 5), loopBack(0), {Op: OpExit}}, 1, ClassIDiv},
		{"a loop with a branch inside (prodonly.cu)", []Instr{divI(U32, 2, 1, 5), {Op: OpBra, Guard: P(1), Target: 2, Class: ClassBranch}, aluI(3, 3), loopBack(0), {Op: OpExit}}, 0, ClassIDiv},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			HoistDivisors(p)
			if got := p.Instrs[tc.at].Class; got != tc.want {
				t.Errorf("class %v, want %v", got, tc.want)
			}
		})
	}
}

// waitLoopProg is k_arrive_wait's main loop in PTX: arrive; the try_wait
// retry loop on parity r3; the parity flip, the counter and its test; the
// back edge. tail is what follows the wait loop.
func waitLoopProg(tail ...Instr) []Instr {
	arrive := Instr{Op: OpMbarArrive, NDst: 1, Ops: []Operand{R(9), Addr(-1, 0)}, Class: ClassSyncs}
	tw := Instr{Op: OpMbarTryWait, Flags: FParity, NDst: 1, Ops: []Operand{P(0), Addr(-1, 0), R(3)}, Class: ClassSyncs}
	retry := Instr{Op: OpBra, Guard: NotP(0), Target: 1, Class: ClassBranch}
	prog := []Instr{arrive, tw, retry}
	prog = append(prog, tail...)
	return append(prog, Instr{Op: OpExit, Class: ClassBranch})
}

func TestArithmeticAfterAWaitLoopMovesAboveIt(t *testing.T) {
	flip := Instr{Op: OpXor, Type: B32, NDst: 1, Ops: []Operand{R(3), R(3), Imm(1)}, Class: ClassALU} // the wait reads r3
	count := aluI(4, 4)
	test := Instr{Op: OpSetp, Type: S32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(1), R(4), R(5)}, Class: ClassALU}
	back := Instr{Op: OpBra, Guard: P(1), Target: 0, Class: ClassBranch}
	useWaitResult := Instr{Op: OpSelp, Type: U32, NDst: 1, Ops: []Operand{R(6), Imm(1), Imm(0), P(0)}, Class: ClassALU}
	tests := []struct {
		name string
		prog []Instr
		want []Op
	}{
		{"the counter and its test move, the parity flip stays",
			waitLoopProg(flip, count, test, back),
			[]Op{OpMbarArrive, OpAdd, OpSetp, OpMbarTryWait, OpBra, OpXor, OpBra, OpExit}},
		{"what reads the wait's predicate stays, and what follows it in order",
			waitLoopProg(useWaitResult, count, back),
			[]Op{OpMbarArrive, OpAdd, OpMbarTryWait, OpBra, OpSelp, OpBra, OpExit}},
		{"nothing passes a clock read",
			waitLoopProg(clock(7), count, back),
			[]Op{OpMbarArrive, OpMbarTryWait, OpBra, OpMov, OpAdd, OpBra, OpExit}},
		{"nothing passes a memory operation",
			waitLoopProg(Instr{Op: OpLd, Space: Shared, NDst: 1, Ops: []Operand{R(8), Addr(5, 0)}, Class: ClassShared}, count, back),
			[]Op{OpMbarArrive, OpMbarTryWait, OpBra, OpLd, OpAdd, OpBra, OpExit}},
		{"arithmetic passes a barrier arrive, which stays behind the wait",
			// wspipe.cu's producer: arm the full barrier, then the next tile's coordinates
			waitLoopProg(Instr{Op: OpMbarArrive, Flags: FExpectTx, NDst: 1, Ops: []Operand{Sink(), Addr(-1, 8), R(8)}, Class: ClassSyncs},
				Instr{Op: OpRem, Type: S32, NDst: 1, Ops: []Operand{R(10), R(4), R(5)}, Class: ClassIDiv}, count, back),
			[]Op{OpMbarArrive, OpRem, OpAdd, OpMbarTryWait, OpBra, OpMbarArrive, OpBra, OpExit}},
		{"arithmetic that reads what the arrive writes stays behind it",
			waitLoopProg(Instr{Op: OpMbarArrive, NDst: 1, Ops: []Operand{R(11), Addr(-1, 8)}, Class: ClassSyncs},
				aluI(12, 11), count, back),
			[]Op{OpMbarArrive, OpAdd, OpMbarTryWait, OpBra, OpMbarArrive, OpAdd, OpBra, OpExit}},
		{"a guarded instruction stays",
			waitLoopProg(Instr{Op: OpAdd, Type: U32, Guard: P(2), NDst: 1, Ops: []Operand{R(4), R(4), Imm(1)}, Class: ClassALU}, back),
			[]Op{OpMbarArrive, OpMbarTryWait, OpBra, OpAdd, OpBra, OpExit}},
		{"arithmetic passes a full-mask __syncwarp(), a NOP in SASS",
			// syncwarp.cu's MODE 2: the loop's compare stays before the TRYWAIT
			waitLoopProg(Instr{Op: OpBarWarpSync, Ops: []Operand{Imm(0xffffffff)}, Class: ClassWarpSync}, count, test, back),
			[]Op{OpMbarArrive, OpAdd, OpSetp, OpMbarTryWait, OpBra, OpBarWarpSync, OpBra, OpExit}},
		{"nothing passes a __syncwarp(mask) with a run-time mask (WARPSYNC R)",
			waitLoopProg(Instr{Op: OpBarWarpSync, Ops: []Operand{R(13)}, Class: ClassWarpSync}, count, back),
			[]Op{OpMbarArrive, OpMbarTryWait, OpBra, OpBarWarpSync, OpAdd, OpBra, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			Reconverge(p, nil)
			HoistPastWaitLoops(p)
			got := opsOf(p)
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i, op := range tc.want {
				if got[i] != op {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
			// The retry branch still targets the try_wait, the back edge the arrive.
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != OpBra {
					continue
				}
				if tgt := p.Instrs[in.Target].Op; in.Guard.Neg && tgt != OpMbarTryWait || !in.Guard.Neg && tgt != OpMbarArrive {
					t.Errorf("branch %d targets %v", i, tgt)
				}
			}
		})
	}
}

// A wait loop inside an if-then region — `@p bra S; parity and address;
// L: try_wait; @!q bra L; S: ...` — is what ptxpipe.cu's producer makes of
// `if (t >= S) while (!mbarrier_try_wait_parity(...)) {}`: the arithmetic at
// S's head runs on both paths, and ptxas computes it (the next tile's
// coordinates, two divisions) before the branch (ptxpipe.sass, k_ptx).
func TestArithmeticAfterAGuardedWaitLoopMovesAboveTheGuard(t *testing.T) {
	skip := Instr{Op: OpBra, Guard: P(2), Target: 5, Class: ClassBranch}
	parity := Instr{Op: OpAnd, Type: B32, NDst: 1, Ops: []Operand{R(3), R(7), Imm(1)}, Class: ClassALU}
	tw := Instr{Op: OpMbarTryWait, Flags: FParity, NDst: 1, Ops: []Operand{P(0), Addr(-1, 0), R(3)}, Class: ClassSyncs}
	retry := Instr{Op: OpBra, Guard: NotP(0), Target: 3, Class: ClassBranch}
	rem := Instr{Op: OpRem, Type: S32, NDst: 1, Ops: []Operand{R(10), R(7), R(5)}, Class: ClassIDiv}
	arm := Instr{Op: OpMbarArrive, Flags: FExpectTx, NDst: 1, Ops: []Operand{Sink(), Addr(-1, 8), R(8)}, Class: ClassSyncs}
	usesParity := Instr{Op: OpAdd, Type: U32, NDst: 1, Ops: []Operand{R(11), R(3), Imm(1)}, Class: ClassALU}
	writesGuard := Instr{Op: OpSetp, Type: S32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(2), R(4), R(5)}, Class: ClassALU}
	tests := []struct {
		name string
		tail []Instr
		want []Op
	}{
		{"the division moves above the guard, the arrive stays behind the wait",
			[]Instr{rem, arm},
			[]Op{OpSetp, OpRem, OpBra, OpAnd, OpMbarTryWait, OpBra, OpMbarArrive, OpExit}},
		{"what reads the preamble's result stays",
			[]Instr{usesParity, rem},
			[]Op{OpSetp, OpRem, OpBra, OpAnd, OpMbarTryWait, OpBra, OpAdd, OpExit}},
		{"what writes the guard's predicate stays, a division after it moves",
			[]Instr{writesGuard, rem},
			[]Op{OpSetp, OpRem, OpBra, OpAnd, OpMbarTryWait, OpBra, OpSetp, OpExit}},
		{"cheap arithmetic alone stays behind the wait (prodonly.cu's offset)",
			[]Instr{aluI(12, 7), arm},
			[]Op{OpSetp, OpBra, OpAnd, OpMbarTryWait, OpBra, OpAdd, OpMbarArrive, OpExit}},
		{"cheap arithmetic moves with a division",
			[]Instr{aluI(12, 7), rem, arm},
			[]Op{OpSetp, OpAdd, OpRem, OpBra, OpAnd, OpMbarTryWait, OpBra, OpMbarArrive, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test := Instr{Op: OpSetp, Type: U32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(2), R(7), Imm(2)}, Class: ClassALU}
			prog := append([]Instr{test, skip, parity, tw, retry}, tc.tail...)
			prog = append(prog, Instr{Op: OpExit, Class: ClassBranch})
			p := &Program{Instrs: prog}
			Reconverge(p, nil)
			HoistPastWaitLoops(p)
			got := opsOf(p)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			// The guard still skips to the first instruction after the loop,
			// the retry branch still targets the try_wait.
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != OpBra {
					continue
				}
				switch {
				case in.Guard.Neg && p.Instrs[in.Target].Op != OpMbarTryWait:
					t.Errorf("retry branch %d targets %v", i, p.Instrs[in.Target].Op)
				case !in.Guard.Neg && (in.Target < 1 || p.Instrs[in.Target-1].Op != OpBra || !p.Instrs[in.Target-1].Guard.Neg):
					t.Errorf("guard branch %d targets %d, not the loop's successor", i, in.Target)
				}
			}
		})
	}
}

// A wait loop that another branch enters, or whose successor another branch
// reaches over more than arithmetic (here a barrier arrive), is left alone:
// moving code there would change those paths.
func TestWaitLoopsWithOtherEntriesAreLeftAlone(t *testing.T) {
	count := aluI(4, 4)
	for name, prog := range map[string][]Instr{
		"loop entered by a jump": append([]Instr{{Op: OpBra, Guard: P(2), Target: 2, Class: ClassBranch}}, waitLoopProg(count)...),
		"successor reached by a jump": func() []Instr {
			p := waitLoopProg(count)
			return append([]Instr{{Op: OpBra, Guard: P(2), Target: 4, Class: ClassBranch}}, p...)
		}(),
	} {
		t.Run(name, func(t *testing.T) {
			p := &Program{Instrs: prog}
			for i := range p.Instrs[1:] { // waitLoopProg's targets are relative to its start
				if in := &p.Instrs[i+1]; in.Op == OpBra {
					in.Target++
				}
			}
			Reconverge(p, nil)
			before := opsOf(p)
			HoistPastWaitLoops(p)
			after := opsOf(p)
			for i := range before {
				if before[i] != after[i] {
					t.Fatalf("moved: %v -> %v", before, after)
				}
			}
		})
	}
}

// ptxas computes what follows a bulk-group wait (DEPBAR) ahead of it when
// it does not depend on what stays behind: store.cu's next address sits
// above each DEPBAR (calibration/h200 store.sass).
func TestArithmeticAfterABulkWaitMovesAboveIt(t *testing.T) {
	wait := Instr{Op: OpBulkWait, Ops: []Operand{Imm(0)}, Flags: FRead, Class: ClassTMA}
	store := Instr{Op: OpBulkCopy, Ops: []Operand{Addr(4, 0), Addr(5, 0), R(6)}, Class: ClassTMA}
	clock := Instr{Op: OpMov, Type: U64, NDst: 1, Ops: []Operand{R(7), Spec(SClock64)}, Class: ClassSpecial}
	ld := Instr{Op: OpLd, Type: U32, Space: Shared, NDst: 1, Ops: []Operand{R(2), Addr(3, 0)}, Class: ClassShared}
	tests := []struct {
		name string
		prog []Instr
		want []Op // the order after the pass
	}{
		{"the next address", []Instr{store, wait, aluI(4, 4), aluI(4, 4), store, {Op: OpExit}},
			[]Op{OpBulkCopy, OpAdd, OpAdd, OpBulkWait, OpBulkCopy, OpExit}},
		{"not past a memory access", []Instr{store, wait, ld, aluI(4, 2), aluI(8, 8), {Op: OpExit}},
			[]Op{OpBulkCopy, OpBulkWait, OpLd, OpAdd, OpAdd, OpExit}},
		{"not a clock read, nor what follows it", []Instr{store, wait, clock, aluI(8, 8), {Op: OpExit}},
			[]Op{OpBulkCopy, OpBulkWait, OpMov, OpAdd, OpExit}},
		{"not past a branch target", []Instr{store, wait, aluI(4, 4), gbra(NotP(0), 2), {Op: OpExit}},
			[]Op{OpBulkCopy, OpBulkWait, OpAdd, OpBra, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: append([]Instr(nil), tc.prog...), NumPreds: 2, NumRegs: 10}
			Reconverge(p, nil)
			HoistPastBulkWaits(p)
			if len(p.Instrs) != len(tc.want) {
				t.Fatalf("%d instructions, want %d", len(p.Instrs), len(tc.want))
			}
			for i, op := range tc.want {
				if p.Instrs[i].Op != op {
					t.Errorf("instruction %d is %v, want %v (%v)", i, p.Instrs[i].Op, op, opsOf(p))
					break
				}
			}
		})
	}
}

// ptxas schedules the elected loop, `if (lane == 0) arrive; __syncwarp();`
// then the wait, as `ARRIVE; NOP; UIADD3; TRYWAIT; ISETP; BRA`: the
// counter's add before the wait, its compare behind the TRYWAIT. With a count
// operand on the arrive (ART0) it keeps the converged order, compare first
// (calibration/h200/README.md; microbench.cu's elected loops).
func TestElectedLoopKeepsItsCompareBehindTheTryWait(t *testing.T) {
	plain := Instr{Op: OpMbarArrive, Guard: NotP(5), NDst: 1, Ops: []Operand{Sink(), Addr(-1, 0)}, Class: ClassSyncs}
	counted := Instr{Op: OpMbarArrive, Guard: NotP(5), NDst: 1, Ops: []Operand{Sink(), Addr(-1, 0), Imm(32)}, Class: ClassSyncs}
	sync := Instr{Op: OpBarWarpSync, Ops: []Operand{Imm(0xffffffff)}, Class: ClassWarpSync}
	prog := func(head ...Instr) []Instr {
		w := int32(len(head))
		tw := Instr{Op: OpMbarTryWait, Flags: FParity, NDst: 1, Ops: []Operand{P(0), Addr(-1, 0), R(3)}, Class: ClassSyncs}
		out := append(append([]Instr(nil), head...), tw,
			Instr{Op: OpBra, Guard: NotP(0), Target: w, Class: ClassBranch},
			Instr{Op: OpXor, Type: B32, NDst: 1, Ops: []Operand{R(3), R(3), Imm(1)}, Class: ClassALU},
			aluI(4, 4),
			Instr{Op: OpSetp, Type: S32, Cmp: CmpLt, NDst: 1, Ops: []Operand{P(1), R(4), R(5)}, Class: ClassALU},
			Instr{Op: OpBra, Guard: P(1), Target: 0, Class: ClassBranch})
		return append(out, Instr{Op: OpExit, Class: ClassBranch})
	}
	tests := []struct {
		name string
		prog []Instr
		want []Op
	}{
		{"the elected arrive and __syncwarp(): the compare goes behind the try_wait",
			prog(plain, sync),
			[]Op{OpMbarArrive, OpBarWarpSync, OpAdd, OpMbarTryWait, OpSetp, OpBra, OpXor, OpBra, OpExit}},
		{"an arrive with a count: the converged order",
			prog(counted, sync),
			[]Op{OpMbarArrive, OpBarWarpSync, OpAdd, OpSetp, OpMbarTryWait, OpBra, OpXor, OpBra, OpExit}},
		{"no __syncwarp(): the converged order",
			prog(plain),
			[]Op{OpMbarArrive, OpAdd, OpSetp, OpMbarTryWait, OpBra, OpXor, OpBra, OpExit}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &Program{Instrs: tc.prog}
			Reconverge(p, nil)
			HoistPastWaitLoops(p)
			if got := opsOf(p); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range p.Instrs {
				in := &p.Instrs[i]
				if in.Op != OpBra {
					continue
				}
				if tgt := p.Instrs[in.Target].Op; in.Guard.Neg && tgt != OpMbarTryWait || !in.Guard.Neg && tgt != OpMbarArrive {
					t.Errorf("branch %d targets %v", i, tgt)
				}
			}
		})
	}
}
