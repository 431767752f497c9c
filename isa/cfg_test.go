package isa

import (
	"reflect"
	"testing"
)

func TestCFGBlocksSplitAtBranchesAndTargets(t *testing.T) {
	// 0: nop; 1: @p bra 4; 2: nop; 3: bra 1; 4: nop; 5: @p exit; 6: exit
	p := prog([3]int{nop, 0, 0}, [3]int{bra, 1, 4}, [3]int{nop, 0, 0}, [3]int{bra, 0, 1},
		[3]int{nop, 0, 0}, [3]int{exit, 1, 0}, [3]int{exit, 0, 0})
	c := NewCFG(p, nil)
	var spans [][2]int
	for _, b := range c.Blocks {
		spans = append(spans, [2]int{b.Start, b.End})
	}
	if want := [][2]int{{0, 1}, {1, 2}, {2, 4}, {4, 6}, {6, 7}}; !reflect.DeepEqual(spans, want) {
		t.Errorf("got blocks %v, want %v", spans, want)
	}
	if got, want := c.Blocks[1].Succ, []int{3, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("got successors %v of the branch's block, want %v", got, want)
	}
	if got, want := c.Blocks[1].Pred, []int{0, 2}; !reflect.DeepEqual(got, want) {
		t.Errorf("got predecessors %v of the loop head, want %v", got, want)
	}
	if got, want := c.Succ[5], []int32{7, 6}; !reflect.DeepEqual(got, want) {
		t.Errorf("got successors %v of a guarded exit, want the exit node and the next (%v)", got, want)
	}
	if got, want := c.Targeted, []int{0, 1, 0, 0, 1, 0, 0, 0}; !reflect.DeepEqual(got, want) {
		t.Errorf("got branch-target counts %v, want %v", got, want)
	}
}

func TestLoopsNaturalBodyAndSpan(t *testing.T) {
	// A loop whose retry path is laid out after the latch:
	// 0: nop; 1: @p bra 5 (out of line); 2: nop; 3: @p bra 1 (latch); 4: exit; 5: bra 2
	p := prog([3]int{nop, 0, 0}, [3]int{bra, 1, 5}, [3]int{nop, 0, 0}, [3]int{bra, 1, 1},
		[3]int{exit, 0, 0}, [3]int{bra, 0, 2})
	loops := NewCFG(p, nil).Loops(p)
	if len(loops) != 1 {
		t.Fatalf("got %d loops, want 1", len(loops))
	}
	l := loops[0]
	if l.Head != 1 || l.Latch != 3 || !reflect.DeepEqual(l.Body, []int{1, 2, 3, 5}) {
		t.Errorf("got loop %+v, want head 1, latch 3, body [1 2 3 5]", l)
	}
	if !l.Contains(5) || l.InSpan(5) || !l.InSpan(2) || l.Contains(4) {
		t.Errorf("the out-of-line path is in the body and not the span; got Contains(5)=%v InSpan(5)=%v",
			l.Contains(5), l.InSpan(5))
	}
	if in, ok := Innermost(loops, 2); !ok || in.Latch != 3 {
		t.Errorf("got innermost loop %+v (%v) of instruction 2, want the loop closed at 3", in, ok)
	}
	if _, ok := Innermost(loops, 0); ok {
		t.Errorf("instruction 0 is in no loop")
	}
}

func TestUsesReadsAddressBasesAndGuards(t *testing.T) {
	in := Instr{Op: OpLd, Space: Shared, NDst: 1, Guard: NotP(2), Ops: []Operand{R(1), Addr(3, 8)}}
	var got []string
	in.Uses(func(l Loc, def bool) {
		got = append(got, Operand{Kind: l.Kind, Reg: l.N}.String()+map[bool]string{true: " def", false: " use"}[def])
	})
	if want := []string{"p2 use", "r1 def", "r3 use"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if !in.Reads(RegLoc(3)) || in.Reads(RegLoc(1)) || !in.Writes(RegLoc(1)) || !in.Reads(PredLoc(2)) {
		t.Errorf("Reads/Writes disagree with Uses")
	}
}

func TestDependencesOrderMemoryByStateSpace(t *testing.T) {
	ld := func(s Space, d, a int) Instr {
		return Instr{Op: OpLd, Space: s, NDst: 1, Ops: []Operand{R(d), Addr(a, 0)}}
	}
	st := func(s Space, a, v int) Instr { return Instr{Op: OpSt, Space: s, Ops: []Operand{Addr(a, 0), R(v)}} }
	tests := []struct {
		name string
		r    []Instr
		want [][]int // Preds with memory
	}{
		{"loads never order each other", []Instr{ld(Shared, 1, 0), ld(Global, 2, 0), ld(Shared, 3, 0)}, [][]int{nil, nil, nil}},
		{"a shared store orders shared loads, not global ones",
			[]Instr{ld(Shared, 1, 0), ld(Global, 2, 0), st(Shared, 5, 6), ld(Shared, 3, 0), ld(Global, 4, 0)},
			[][]int{nil, nil, {0}, {2}, nil}},
		{"a generic store aliases every space",
			[]Instr{ld(ParamSpace, 1, 0), st(Generic, 5, 6), ld(Const, 3, 0)}, [][]int{nil, {0}, {1}}},
		{"an acquire keeps later accesses after it, not earlier ones before it",
			[]Instr{ld(Global, 1, 0), {Op: OpLd, Space: Global, Sem: SemAcquire, NDst: 1, Ops: []Operand{R(2), Addr(0, 0)}}, ld(Shared, 3, 0)},
			[][]int{nil, nil, {1}}},
		{"a release keeps earlier accesses before it, not later ones after it",
			[]Instr{ld(Global, 1, 0), {Op: OpSt, Space: Global, Sem: SemRelease, Ops: []Operand{Addr(0, 0), R(5)}}, ld(Shared, 3, 0)},
			[][]int{nil, {0}, nil}},
		{"a fence orders every access", []Instr{ld(Global, 1, 0), {Op: OpFence}, ld(Local, 2, 0), {Op: OpAdd, NDst: 1, Ops: []Operand{R(7), R(8), R(9)}}},
			[][]int{nil, {0}, {1}, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Dependences(tc.r, true).Preds; !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
			for i, p := range Dependences(tc.r, false).Preds {
				if len(p) != 0 {
					t.Errorf("without memory, instruction %d depends on %v (no register is shared)", i, p)
				}
			}
		})
	}
}
