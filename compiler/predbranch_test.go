package compiler

import (
	"testing"

	"github.com/smsim/smsim/isa"
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
			apply(FoldPredicateBranches, p)
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
			apply(FoldPredicateBranches, p)
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
	apply(FoldPredicateBranches, p)
	if got := opsOf(p); len(got) != 5 {
		t.Fatalf("got %v", got)
	}
	if p.Instrs[2].Target != 1 || p.Instrs[3].Target != 4 {
		t.Errorf("targets %d and %d, want 1 and 4", p.Instrs[2].Target, p.Instrs[3].Target)
	}
}
