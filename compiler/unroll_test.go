package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// runCounted interprets the little programs of the unrolling tests: 32-bit
// add and sub, setp (signed for .s32, else unsigned; and/or with a third
// predicate) and branches on one thread. It returns the registers and
// predicates at exit, and how many instructions ran.
func runCounted(t *testing.T, p *isa.Program, regs []uint32) ([]uint32, []bool, int) {
	t.Helper()
	r, preds, steps, _ := interpret(t, p, regs)
	return r, preds, steps
}

// interpret is runCounted, also counting the branches taken backwards.
func interpret(t *testing.T, p *isa.Program, regs []uint32) ([]uint32, []bool, int, int) {
	t.Helper()
	back := 0
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
		case isa.OpSub:
			regs[in.Ops[0].Reg] = val(in.Ops[1]) - val(in.Ops[2])
		case isa.OpSetp:
			a, b := int64(val(in.Ops[1])), int64(val(in.Ops[2]))
			if in.Type == isa.S32 {
				a, b = int64(int32(a)), int64(int32(b))
			}
			var r bool
			switch in.Cmp {
			case isa.CmpLt, isa.CmpLo:
				r = a < b
			case isa.CmpLe:
				r = a <= b
			case isa.CmpGt:
				r = a > b
			case isa.CmpGe, isa.CmpHs:
				r = a >= b
			case isa.CmpNe:
				r = a != b
			case isa.CmpEq:
				r = a == b
			default:
				t.Fatalf("setp %v", in.Cmp)
			}
			switch in.Bool {
			case isa.BoolAnd:
				r = r && preds[in.Ops[3].Reg]
			case isa.BoolOr:
				r = r || preds[in.Ops[3].Reg]
			}
			preds[in.Ops[0].Reg] = r
		case isa.OpBra:
			if int(in.Target) <= pc {
				back++
			}
			pc = int(in.Target)
			continue
		case isa.OpExit:
			return regs, preds, steps, back
		default:
			t.Fatalf("op %v", in.Op)
		}
		pc++
	}
	t.Fatal("no exit")
	return nil, nil, 0, 0
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

// boundLoop is the Programming Guide's copy loop as nvcc leaves it: an index
// r0 steps up by k while it is below the bound r5 (setp.lt of type typ and
// comparison cmp), the body adds 1 to r1 and 3 to r2; r3 is untouched.
func boundLoop(k int64, typ isa.Type, cmp isa.CmpOp) *isa.Program {
	p := countedLoop(k, 0)
	p.NumRegs = 6
	p.Instrs[3].Ops[2] = isa.Imm(uint64(k))
	p.Instrs[4] = isa.Instr{Op: isa.OpSetp, Type: typ, Cmp: cmp, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.R(0), isa.R(5)}, Class: isa.ClassALU}
	return p
}

// An index loop runs the same trips unrolled as rolled for every start and
// bound, at the ends of the signed and unsigned ranges too, where i + 3k
// would overflow; four more trips go as a group, two as a pair, so that up
// to seven run without a back edge (pc_guide.sass: sixteen, eight, four).
func TestUnrollCountedLoopsUnrollsIndexLoopsExactly(t *testing.T) {
	const max32, min32 = 1<<31 - 1, -1 << 31
	starts := []int64{0, 5, -7, max32 - 3, max32, min32, min32 + 9, 1<<32 - 5}
	for _, form := range []struct {
		typ isa.Type
		cmp isa.CmpOp
	}{{isa.S32, isa.CmpLt}, {isa.U32, isa.CmpLt}, {isa.U32, isa.CmpLo}} {
		for _, k := range []int64{1, 3, 128} {
			for _, i0 := range starts {
				for m := int64(-3); m <= 21*3; m++ {
					n := i0 + m/3*k + m%3 - 1 // each multiple of k, one below and one above
					if indexTrips(form.typ, i0, n, k) > 1000 {
						continue // the counter wraps around: billions of trips
					}
					ref, un := boundLoop(k, form.typ, form.cmp), boundLoop(k, form.typ, form.cmp)
					apply(UnrollCountedLoops, un)
					if len(un.Instrs) == len(ref.Instrs) {
						t.Fatalf("%v %v k=%d: loop not unrolled", form.typ, form.cmp, k)
					}
					r := []uint32{uint32(i0), 0, 0, 0, 0, uint32(n)}
					want, wantP, refSteps := runCounted(t, ref, append([]uint32(nil), r...))
					got, gotP, unSteps, back := interpret(t, un, append(append([]uint32(nil), r...), make([]uint32, un.NumRegs-6)...))
					for j := 0; j < 6; j++ {
						if got[j] != want[j] {
							t.Fatalf("%v %v k=%d i0=%d n=%d: r%d = %d, want %d", form.typ, form.cmp, k, i0, n, j, got[j], want[j])
						}
					}
					if gotP[0] != wantP[0] {
						t.Fatalf("%v %v k=%d i0=%d n=%d: p0 = %v, want %v", form.typ, form.cmp, k, i0, n, gotP[0], wantP[0])
					}
					below := uint32(i0) < uint32(n)
					if form.typ == isa.S32 {
						below = int32(i0) < int32(n)
					}
					// (a start past the bound that wraps around to it runs rolled)
					if below && want[1] >= 8 && unSteps >= refSteps {
						t.Errorf("%v %v k=%d i0=%d n=%d: %d instructions unrolled, %d rolled", form.typ, form.cmp, k, i0, n, unSteps, refSteps)
					}
					// up to seven trips go as a group, a pair and one, none looping back
					if below && want[1] < 8 && back != 0 {
						t.Errorf("%v %v k=%d i0=%d n=%d: %d trips took %d back edges", form.typ, form.cmp, k, i0, n, want[1], back)
					}
				}
			}
		}
	}
}

// A bound the body writes is not a bound: such a loop stays rolled, as does
// one whose step is not a positive immediate.
func TestUnrollCountedLoopsLeavesIndexLoopsWithAMovingBound(t *testing.T) {
	p := boundLoop(4, isa.S32, isa.CmpLt)
	p.Instrs[2] = isa.Instr{Op: isa.OpAdd, Type: isa.S32, NDst: 1, Ops: []isa.Operand{isa.R(5), isa.R(5), isa.Imm(1)}, Class: isa.ClassALU}
	n := len(p.Instrs)
	apply(UnrollCountedLoops, p)
	if len(p.Instrs) != n {
		t.Errorf("loop whose body moves its bound unrolled (%d -> %d instructions)", n, len(p.Instrs))
	}
	p = boundLoop(-4, isa.S32, isa.CmpLt)
	n = len(p.Instrs)
	apply(UnrollCountedLoops, p)
	if len(p.Instrs) != n {
		t.Errorf("loop stepping down to a bound unrolled (%d -> %d instructions)", n, len(p.Instrs))
	}
}

// indexTrips counts the trips of boundLoop from i0 to n (32-bit, wrapping),
// up to 1001.
func indexTrips(typ isa.Type, i0, n, k int64) int {
	i := uint32(i0)
	for trips := 1; trips <= 1000; trips++ {
		i += uint32(k)
		more := i < uint32(n)
		if typ == isa.S32 {
			more = int32(i) < int32(n)
		}
		if !more {
			return trips
		}
	}
	return 1001
}
