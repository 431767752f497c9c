package compiler

import (
	"github.com/smsim/smsim/isa"
	"testing"
)

func tryWait(p int) isa.Instr {
	return isa.Instr{Op: isa.OpMbarTryWait, NDst: 1, Ops: []isa.Operand{isa.P(p), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
}

func selp(d int, one, zero uint64, p int) isa.Instr {
	return isa.Instr{Op: isa.OpSelp, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.Imm(one), isa.Imm(zero), isa.P(p)}, Class: isa.ClassALU}
}

func setpImm(cmp isa.CmpOp, q, r int, imm uint64) isa.Instr {
	return isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: cmp, NDst: 1, Ops: []isa.Operand{isa.P(q), isa.R(r), isa.Imm(imm)}, Class: isa.ClassALU}
}

func gbra(g isa.Operand, target int32) isa.Instr {
	return isa.Instr{Op: isa.OpBra, Guard: g, Target: target, Class: isa.ClassBranch}
}

func TestFoldPredicateBranchesBranchesOnTheWaitPredicate(t *testing.T) {
	tests := []struct {
		name      string
		prog      []isa.Instr
		wantOps   []isa.Op
		wantGuard isa.Operand // of the branch after folding (index 1)
	}{
		{"eq zero: retry while the wait is false",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.P(1), 0), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMbarTryWait, isa.OpBra, isa.OpExit}, isa.NotP(0)},
		{"ne zero: branch while the wait is true",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpNe, 1, 1, 0), gbra(isa.P(1), 0), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMbarTryWait, isa.OpBra, isa.OpExit}, isa.P(0)},
		{"negated guard on the branch",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.NotP(1), 0), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMbarTryWait, isa.OpBra, isa.OpExit}, isa.P(0)},
		{"selp 0, 1 inverts",
			[]isa.Instr{tryWait(0), selp(1, 0, 1, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.P(1), 0), {Op: isa.OpExit}},
			[]isa.Op{isa.OpMbarTryWait, isa.OpBra, isa.OpExit}, isa.P(0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: tc.prog}
			FoldPredicateBranches(p)
			got := opsOf(p)
			if len(got) != len(tc.wantOps) {
				t.Fatalf("got %v, want %v", got, tc.wantOps)
			}
			for i := range got {
				if got[i] != tc.wantOps[i] {
					t.Fatalf("got %v, want %v", got, tc.wantOps)
				}
			}
			br := p.Instrs[1]
			if br.Guard != tc.wantGuard || br.Target != 0 {
				t.Errorf("branch guard %+v target %d, want %+v target 0", br.Guard, br.Target, tc.wantGuard)
			}
		})
	}
}

func TestFoldPredicateBranchesKeepsLiveValues(t *testing.T) {
	st := isa.Instr{Op: isa.OpSt, Space: isa.Global, Ops: []isa.Operand{isa.Addr(5, 0), isa.R(1)}, Class: isa.ClassGlobal}
	tests := []struct {
		name string
		prog []isa.Instr
	}{
		{"the selp result is stored too",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.P(1), 0), st, {Op: isa.OpExit}}},
		{"the setp predicate guards something else",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.P(1), 0),
				{Op: isa.OpAdd, Type: isa.U32, Guard: isa.P(1), NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(2), isa.Imm(1)}}, {Op: isa.OpExit}}},
		{"another branch enters at the setp",
			[]isa.Instr{gbra(isa.P(3), 2), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 0), gbra(isa.P(1), 0), {Op: isa.OpExit}}},
		{"the compare is against one, not zero",
			[]isa.Instr{tryWait(0), selp(1, 1, 0, 0), setpImm(isa.CmpEq, 1, 1, 1), gbra(isa.P(1), 0), {Op: isa.OpExit}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := &isa.Program{Instrs: append([]isa.Instr(nil), tc.prog...)}
			FoldPredicateBranches(p)
			if len(p.Instrs) != len(tc.prog) {
				t.Fatalf("got %v, want the program unchanged", opsOf(p))
			}
		})
	}
}

func TestFoldPredicateBranchesRenumbersTargets(t *testing.T) {
	p := &isa.Program{Instrs: []isa.Instr{
		aluI(2, 2),                  // 0
		tryWait(0),                  // 1
		selp(1, 1, 0, 0),            // 2
		setpImm(isa.CmpEq, 1, 1, 0), // 3
		gbra(isa.P(1), 1),           // 4
		gbra(isa.P(2), 6),           // 5 -> exit
		{Op: isa.OpExit},            // 6
	}}
	FoldPredicateBranches(p)
	if got := opsOf(p); len(got) != 5 {
		t.Fatalf("got %v", got)
	}
	if p.Instrs[2].Target != 1 || p.Instrs[3].Target != 4 {
		t.Errorf("targets %d and %d, want 1 and 4", p.Instrs[2].Target, p.Instrs[3].Target)
	}
}

func addI(d int, imm uint64) isa.Instr {
	return isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(d), isa.Imm(imm)}, Class: isa.ClassALU}
}

func fma(d, a int) isa.Instr {
	return isa.Instr{Op: isa.OpFma, Type: isa.F32, NDst: 1, Ops: []isa.Operand{isa.R(d), isa.R(a), isa.R(8), isa.R(9)}, Class: isa.ClassFMA}
}

func TestHoistLoopCountersMovesTheCounterToTheTop(t *testing.T) {
	// 0: mov  1: fma 2: fma 3: fma  4: add c  5: setp p, c, r7  6: @p bra 1  7: exit
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	p := &isa.Program{Instrs: []isa.Instr{aluI(4, 6), fma(1, 1), fma(1, 1), fma(1, 1), addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}}
	HoistLoopCounters(p)
	want := []isa.Op{isa.OpAdd, isa.OpAdd, isa.OpFma, isa.OpSetp, isa.OpFma, isa.OpFma, isa.OpBra, isa.OpExit}
	got := opsOf(p)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if p.Instrs[6].Target != 1 {
		t.Errorf("back edge to %d, want 1", p.Instrs[6].Target)
	}
}

func TestHoistLoopCountersLeavesLoopsThatUseTheCounter(t *testing.T) {
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	tests := []struct {
		name string
		body isa.Instr
	}{
		{"the body reads the counter", isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(4), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body writes the bound", isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(7), isa.R(1), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body reads the predicate", isa.Instr{Op: isa.OpAdd, Type: isa.U32, Guard: isa.P(2), NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.Imm(3)}, Class: isa.ClassALU}},
		{"the body branches", gbra(isa.P(3), 7)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			prog := []isa.Instr{aluI(4, 6), fma(1, 1), tc.body, addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}
			p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...)}
			HoistLoopCounters(p)
			for i := range prog {
				if p.Instrs[i].Op != prog[i].Op {
					t.Fatalf("got %v, want the loop unchanged", opsOf(p))
				}
			}
		})
	}
}

// runCounted interprets the little programs of the unrolling tests: 32-bit
// add, setp (lt/ge unsigned, ne/eq signed) and branches on one thread. It
// returns the registers and predicates at exit, and how many instructions ran.
func runCounted(t *testing.T, p *isa.Program, regs []uint32) ([]uint32, []bool, int) {
	t.Helper()
	preds := make([]bool, p.NumPreds)
	val := func(o isa.Operand) uint32 {
		if o.Kind == isa.KImm {
			return uint32(o.Imm)
		}
		return regs[o.Reg]
	}
	pc, steps := 0, 0
	for ; steps < 1_000_000; steps++ {
		in := &p.Instrs[pc]
		if g := in.Guard; g.Kind == isa.KPred && preds[g.Reg] == g.Neg {
			pc++
			continue
		}
		switch in.Op {
		case isa.OpAdd:
			regs[in.Ops[0].Reg] = val(in.Ops[1]) + val(in.Ops[2])
		case isa.OpSetp:
			a, b := val(in.Ops[1]), val(in.Ops[2])
			var r bool
			switch in.Cmp {
			case isa.CmpLt:
				r = a < b
			case isa.CmpGe:
				r = a >= b
			case isa.CmpNe:
				r = a != b
			case isa.CmpEq:
				r = a == b
			default:
				t.Fatalf("setp %v", in.Cmp)
			}
			preds[in.Ops[0].Reg] = r
		case isa.OpBra:
			pc = int(in.Target)
			continue
		case isa.OpExit:
			return regs, preds, steps
		default:
			t.Fatalf("op %v", in.Op)
		}
		pc++
	}
	t.Fatal("no exit")
	return nil, nil, 0
}

// countedLoop is nvcc's main loop: r0 counts down by k to zero, the body adds
// 1 to r1 and 3 to r2; r3 is untouched.
func countedLoop(k int64, flags isa.Flags) *isa.Program {
	body := isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.Imm(1)}, Class: isa.ClassALU, Flags: flags}
	return &isa.Program{NumRegs: 4, NumPreds: 1, Instrs: []isa.Instr{
		{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(3), isa.R(3), isa.Imm(7)}, Class: isa.ClassALU}, // 0
		body, // 1: loop head
		{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(2), isa.Imm(3)}, Class: isa.ClassALU},
		{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(0), isa.Imm(uint64(-k))}, Class: isa.ClassALU},
		setpImm(isa.CmpNe, 0, 0, 0),
		gbra(isa.P(0), 1),
		{Op: isa.OpExit},
	}}
}

func TestUnrollCountedLoopsRunsTheSameTrips(t *testing.T) {
	for _, k := range []int64{1, 4} {
		for trips := 1; trips <= 41; trips++ {
			ref := countedLoop(k, 0)
			un := countedLoop(k, 0)
			UnrollCountedLoops(un)
			if len(un.Instrs) == len(ref.Instrs) {
				t.Fatalf("k=%d: loop not unrolled", k)
			}
			c0 := uint32(int64(trips) * k)
			wantR, wantP, refSteps := runCounted(t, ref, []uint32{c0, 0, 0, 0})
			gotR, gotP, unSteps := runCounted(t, un, []uint32{c0, 0, 0, 0})
			for i := range wantR {
				if gotR[i] != wantR[i] {
					t.Fatalf("k=%d trips=%d: r%d = %d, want %d", k, trips, i, gotR[i], wantR[i])
				}
			}
			if gotP[0] != wantP[0] {
				t.Fatalf("k=%d trips=%d: p0 = %v, want %v", k, trips, gotP[0], wantP[0])
			}
			if trips >= 8 && unSteps >= refSteps {
				t.Errorf("k=%d trips=%d: %d instructions unrolled, %d rolled", k, trips, unSteps, refSteps)
			}
		}
	}
}

func TestUnrollCountedLoopsLeavesNounrollLoops(t *testing.T) {
	p := countedLoop(4, isa.FNoUnroll)
	n := len(p.Instrs)
	UnrollCountedLoops(p)
	if len(p.Instrs) != n {
		t.Fatalf("got %d instructions, want the loop left rolled (%d)", len(p.Instrs), n)
	}
}

func TestUnrollCountedLoopsOnlyOnce(t *testing.T) {
	p := countedLoop(4, 0)
	UnrollCountedLoops(p)
	n := len(p.Instrs)
	UnrollCountedLoops(p)
	if len(p.Instrs) != n {
		t.Fatalf("a second pass grew the program from %d to %d instructions", n, len(p.Instrs))
	}
}

func TestHoistLoopCountersPutsTheCounterBehindItsLastRead(t *testing.T) {
	cmp := isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(2), isa.R(4), isa.R(7)}, Class: isa.ClassALU}
	addr := isa.Instr{Op: isa.OpShl, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(4), isa.Imm(4)}, Class: isa.ClassALU}
	ld := isa.Instr{Op: isa.OpLd, Space: isa.Shared, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(6), isa.Addr(5, 0)}, Class: isa.ClassShared}
	sum := isa.Instr{Op: isa.OpAdd, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.R(6)}, Class: isa.ClassALU}
	// 0: mov  1: shl (reads c)  2: ld  3: add sum  4: add c  5: setp  6: @p bra 1
	p := &isa.Program{Instrs: []isa.Instr{aluI(4, 6), addr, ld, sum, addI(4, 1), cmp, gbra(isa.P(2), 1), {Op: isa.OpExit}}}
	HoistLoopCounters(p)
	want := []isa.Op{isa.OpAdd, isa.OpShl, isa.OpAdd, isa.OpLd, isa.OpSetp, isa.OpAdd, isa.OpBra, isa.OpExit}
	got := opsOf(p)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if p.Instrs[2].Ops[0].Reg != 4 || p.Instrs[5].Ops[0].Reg != 1 {
		t.Errorf("the counter's add should follow the shl that reads it: %v", opsOf(p))
	}
}

// A loop of barrier arrivals is unrolled (divcode.cu's arrive.expect_tx loop
// runs sixteen a SASS trip); one with a wait in it is not.
func TestUnrollCountedLoopsCopiesArrivesNotWaits(t *testing.T) {
	withOp := func(in isa.Instr) *isa.Program {
		p := countedLoop(4, 0)
		p.Instrs[2] = in
		p.NumPreds = 2
		return p
	}
	arrive := isa.Instr{Op: isa.OpMbarArrive, NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs}
	wait := isa.Instr{Op: isa.OpMbarTestWait, NDst: 1, Ops: []isa.Operand{isa.P(1), isa.Addr(-1, 0), isa.Imm(0)}, Class: isa.ClassSyncs}
	p := withOp(arrive)
	n := len(p.Instrs)
	UnrollCountedLoops(p)
	if len(p.Instrs) == n {
		t.Errorf("loop of arrives left rolled")
	}
	p = withOp(wait)
	n = len(p.Instrs)
	UnrollCountedLoops(p)
	if len(p.Instrs) != n {
		t.Errorf("loop with a wait unrolled (%d -> %d instructions)", n, len(p.Instrs))
	}
}

// The copies of an unrolled body get registers of their own for what each
// trip computes afresh (wspipe.cu's consumer: ptxas keeps sixteen loads in
// flight), the last copy keeps the body's, and the loop computes the same.
func TestUnrollCountedLoopsRenamesEachCopysTemporaries(t *testing.T) {
	mk := func() *isa.Program {
		p := countedLoop(1, 0)
		// body: r4 = r1 + 5 (a temporary), r2 = r2 + r4, r1 = r1 + 1
		p.Instrs[2] = isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(4), isa.R(1), isa.Imm(5)}, Class: isa.ClassALU}
		p.Instrs = append(p.Instrs[:3], append([]isa.Instr{
			{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(2), isa.R(2), isa.R(4)}, Class: isa.ClassALU}}, p.Instrs[3:]...)...)
		p.Instrs[6].Target = 1
		p.NumRegs = 5
		return p
	}
	for trips := 1; trips <= 21; trips++ {
		ref, un := mk(), mk()
		UnrollCountedLoops(un)
		r0 := make([]uint32, 5)
		r0[0] = uint32(trips)
		want, _, _ := runCounted(t, ref, r0)
		r1 := make([]uint32, un.NumRegs)
		r1[0] = uint32(trips)
		got, _, _ := runCounted(t, un, r1)
		for i := 0; i < 5; i++ {
			if got[i] != want[i] {
				t.Fatalf("r%d = %d, want %d", i, got[i], want[i])
			}
		}
	}
	un := mk()
	UnrollCountedLoops(un)
	if un.NumRegs != 5+3 {
		t.Fatalf("%d registers, want 3 more for the first three copies' temporaries", un.NumRegs)
	}
	dsts := map[int32]int{}
	for i := range un.Instrs {
		in := &un.Instrs[i]
		if in.Op == isa.OpAdd && in.Ops[2].Kind == isa.KImm && in.Ops[2].Imm == 5 {
			dsts[in.Ops[0].Reg]++
		}
	}
	// the group's four copies use r4 and three new registers; the remainder loop r4 again
	if len(dsts) != 4 || dsts[4] != 2 {
		t.Errorf("temporary written to %v, want four registers, r4 by the last copy and the remainder", dsts)
	}
}
