package compiler

import (
	"reflect"
	"testing"

	"github.com/smsim/smsim/isa"
)

// lanePredLoop is microbench.cu's divergent32 loop in PTX: n lane compares
// hoisted before the loop (`setp.ne p_k, r3, k`), then a loop of
// `@!p_k mbarrier.arrive; bar.warp.sync -1` for each, the counter and the back
// edge.
func lanePredLoop(n int) []isa.Instr {
	var prog []isa.Instr
	for k := 0; k < n; k++ {
		prog = append(prog, isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{isa.P(k + 1), isa.R(3), isa.Imm(uint64(k))}, Class: isa.ClassALU})
	}
	for k := 0; k < n; k++ {
		prog = append(prog,
			isa.Instr{Op: isa.OpMbarArrive, Guard: isa.NotP(k + 1), NDst: 1, Ops: []isa.Operand{isa.Sink(), isa.Addr(-1, 0)}, Class: isa.ClassSyncs},
			isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{isa.Imm(0xffffffff)}, Class: isa.ClassWarpSync})
	}
	prog = append(prog, aluI(4, 4),
		isa.Instr{Op: isa.OpSetp, Type: isa.S32, Cmp: isa.CmpLt, NDst: 1, Ops: []isa.Operand{isa.P(0), isa.R(4), isa.R(5)}, Class: isa.ClassALU},
		isa.Instr{Op: isa.OpBra, Guard: isa.P(0), Target: int32(n), Class: isa.ClassBranch},
		isa.Instr{Op: isa.OpExit, Class: isa.ClassBranch})
	return prog
}

func TestRecomputeCompares(t *testing.T) {
	t.Run("twelve lane predicates: seven recomputed, two ahead of their reads", func(t *testing.T) {
		const n = 12
		p := &isa.Program{Instrs: lanePredLoop(n)}
		isa.Reconverge(p, nil)
		apply(RecomputeCompares, p)
		// The loop now starts at n with the copies of p1 and p2; the copy
		// of p_k (k >= 3) follows the arrive guarded by p_{k-2}.
		var want []int
		for k := 1; k <= n; k++ {
			want = append(want, 100+k)
		}
		want = append(want, 101, 102)
		for k := 1; k <= n; k++ {
			want = append(want, -1) // the arrive
			if k+2 <= n-keptPredicates {
				want = append(want, 100+k+2)
			}
			want = append(want, -1) // bar.warp.sync
		}
		want = append(want, 4, 100, -100-n, -1)
		if got := shapeOf(p); !reflect.DeepEqual(got, want) {
			t.Fatalf("got  %v\nwant %v", got, want)
		}
		// Each arrive reads a predicate computed before it in the trip.
		for i := n; i < len(p.Instrs); i++ {
			in := &p.Instrs[i]
			if in.Op != isa.OpMbarArrive || int(in.Guard.Reg) > n-keptPredicates {
				continue
			}
			found := false
			for j := n; j < i; j++ {
				if d := &p.Instrs[j]; d.Op == isa.OpSetp && d.Ops[0].Reg == in.Guard.Reg {
					found = true
				}
			}
			if !found {
				t.Errorf("arrive %d reads p%d, not recomputed in the loop before it", i, in.Guard.Reg)
			}
		}
	})
	t.Run("five lane predicates fit", func(t *testing.T) {
		prog := lanePredLoop(5)
		p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...)}
		apply(RecomputeCompares, p)
		if !reflect.DeepEqual(shapeOf(p), shapeOf(&isa.Program{Instrs: prog})) {
			t.Errorf("changed: %v", shapeOf(p))
		}
	})
	t.Run("not when the loop writes a compare's register", func(t *testing.T) {
		prog := lanePredLoop(12)
		prog[len(prog)-4] = aluI(3, 3) // the counter is now r3, which the compares read
		p := &isa.Program{Instrs: append([]isa.Instr(nil), prog...)}
		apply(RecomputeCompares, p)
		if len(p.Instrs) != len(prog) {
			t.Errorf("recomputed compares of a register the loop writes: %v", shapeOf(p))
		}
	})
}
