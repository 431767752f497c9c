package compiler

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// ExpandEx2 is ptxas's code for an exponential whose result may be
// subnormal.
var ExpandEx2 = Pass{
	Name: "ExpandEx2",
	Doc: "MUFU.EX2 flushes subnormal results to zero, so ptxas writes ex2.approx.f32 without .ftz as four " +
		"instructions: FSETP.GEU p, x, -126; @!p FMUL x, x, 0.5; MUFU.EX2 d, x; @!p FMUL d, d, d — below " +
		"-126 the result is the square of the exponential of half the argument (SASS: " +
		"apps/h200/softmax_row.sass, each __expf of the row). smsim issues the same four where the argument " +
		"is a register no other instruction reads; each lane's result is the one ex2.approx.f32 gives.",
	Run: expandEx2,
}

// expandEx2 rewrites each unguarded ex2.approx.f32 d, a (no .ftz) whose
// argument register a no other instruction reads as
//
//	setp.geu.f32 g, a, -126;  @!g mul.f32 a, a, 0.5;  ex2.approx.ftz.f32 d, a;  @!g mul.f32 d, d, d
//
// with g a new predicate. Where a ≥ -126 (or NaN) the MUFU computes the
// result alone; below, a/2 is exact and the product of the two halves'
// exponentials, rounded to nearest with subnormals kept, is what
// ex2.approx.f32 returns (warp's fop.mufuF32 computes it so in one step).
// Halving a in place is safe when every instruction that reads a is such an
// ex2 and reads a value written earlier in its own basic block (an unrolled
// loop's copies each define and read their own): no other read sees it.
func expandEx2(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	local := map[isa.Loc]bool{} // every reader of the register is an ex2 reading a value of its own block
	for k := range p.Instrs {
		in := &p.Instrs[k]
		in.Uses(func(r isa.Loc, def bool) {
			if def {
				return
			}
			ok, seen := local[r]
			local[r] = (ok || !seen) && expandableEx2(in) && in.Ops[1].Kind == isa.KReg &&
				isa.RegLoc(in.Ops[1].Reg) == r && definedBefore(p, targeted, k, r)
		})
	}
	seqs := map[int][]isa.Instr{}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if !expandableEx2(in) {
			continue
		}
		d, a := in.Ops[0], in.Ops[1]
		if d.Kind != isa.KReg || a.Kind != isa.KReg || !local[isa.RegLoc(a.Reg)] {
			continue
		}
		g := newPred(p, "%ex2")
		notG := g
		notG.Neg = true
		f32 := func(v float32) isa.Operand { return isa.Imm(uint64(math.Float32bits(v))) }
		setp := isa.Instr{Op: isa.OpSetp, Type: isa.F32, Cmp: isa.CmpGeu, NDst: 1, Ops: []isa.Operand{g, a, f32(-126)}, Pos: in.Pos}
		half := isa.Instr{Op: isa.OpMul, Type: isa.F32, Guard: notG, NDst: 1, Ops: []isa.Operand{a, a, f32(0.5)}, Pos: in.Pos}
		mufu := *in
		mufu.Flags |= isa.FFtz
		mufu.Ops = []isa.Operand{d, a}
		square := isa.Instr{Op: isa.OpMul, Type: isa.F32, Guard: notG, NDst: 1, Ops: []isa.Operand{d, d, d}, Pos: in.Pos}
		seq := []isa.Instr{setp, half, mufu, square}
		for i := range seq {
			seq[i].Class = isa.ClassOf(&seq[i])
		}
		seqs[k] = seq
	}
	expandInstrs(p, seqs)
}

// expandableEx2 reports whether in is an unguarded ex2.approx.f32 d, a
// without .ftz.
func expandableEx2(in *isa.Instr) bool {
	return in.Op == isa.OpEx2 && in.Type == isa.F32 && !in.Flags.Has(isa.FFtz) && in.Flags.Has(isa.FApprox) &&
		in.Guard.Kind == isa.KNone && in.NDst == 1 && len(in.Ops) == 2
}

// definedBefore reports whether an unguarded instruction of k's basic block
// before k writes r, with no read of r between.
func definedBefore(p *isa.Program, targeted []int, k int, r isa.Loc) bool {
	if targeted[k] != 0 {
		return false
	}
	for j := k - 1; j >= 0; j-- {
		in := &p.Instrs[j]
		if in.Op.IsBranch() || in.Op.Ends() {
			return false
		}
		reads, writes := false, false
		in.Uses(func(l isa.Loc, def bool) {
			if l == r {
				if def {
					writes = true
				} else {
					reads = true
				}
			}
		})
		if reads {
			return false
		}
		if writes {
			return in.Guard.Kind == isa.KNone
		}
		if targeted[j] != 0 {
			return false // the block starts here
		}
	}
	return false
}
