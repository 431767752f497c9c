package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

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
func countedLoop(k int64, hints isa.SourceHints) *isa.Program {
	body := isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(1), isa.Imm(1)}, Class: isa.ClassALU, Source: hints}
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
			apply(UnrollCountedLoops, un)
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
	p := countedLoop(4, isa.HintNoUnroll)
	n := len(p.Instrs)
	apply(UnrollCountedLoops, p)
	if len(p.Instrs) != n {
		t.Fatalf("got %d instructions, want the loop left rolled (%d)", len(p.Instrs), n)
	}
}

func TestUnrollCountedLoopsOnlyOnce(t *testing.T) {
	p := countedLoop(4, 0)
	apply(UnrollCountedLoops, p)
	n := len(p.Instrs)
	apply(UnrollCountedLoops, p)
	if len(p.Instrs) != n {
		t.Fatalf("a second pass grew the program from %d to %d instructions", n, len(p.Instrs))
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
	apply(UnrollCountedLoops, p)
	if len(p.Instrs) == n {
		t.Errorf("loop of arrives left rolled")
	}
	p = withOp(wait)
	n = len(p.Instrs)
	apply(UnrollCountedLoops, p)
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
		apply(UnrollCountedLoops, un)
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
	apply(UnrollCountedLoops, un)
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
