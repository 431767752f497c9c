package compiler

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/warp"
)

// ex2Program is `mov.b32 r0, r2; ex2.approx[.ftz].f32 r1, r0; exit`.
func ex2Program(flags isa.Flags) *isa.Program {
	mov := isa.Instr{Op: isa.OpMov, Type: isa.B32, NDst: 1, Ops: []isa.Operand{isa.R(0), isa.R(2)}}
	ex2 := isa.Instr{Op: isa.OpEx2, Type: isa.F32, Flags: isa.FApprox | flags, NDst: 1, Ops: []isa.Operand{isa.R(1), isa.R(0)}}
	p := &isa.Program{NumRegs: 3, Instrs: []isa.Instr{mov, ex2, {Op: isa.OpExit}}}
	for i := range p.Instrs {
		p.Instrs[i].Class = isa.ClassOf(&p.Instrs[i])
	}
	return p
}

// runStraight runs p's straight-line code on one warp whose r2 holds x, each
// instruction under its guard, and returns r1.
func runStraight(t *testing.T, p *isa.Program, x *warp.Vec) warp.Vec {
	t.Helper()
	w := warp.New(0, 0, p, warp.FullMask, warp.Env{})
	*w.Reg(2) = *x
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op == isa.OpExit {
			break
		}
		if err := w.ExecALU(in, w.GuardMask(in, warp.FullMask), 0); err != nil {
			t.Fatalf("%v: %v", in, err)
		}
	}
	return *w.Reg(1)
}

// ptxas's four instructions for ex2.approx.f32 give every lane the result
// the one instruction gives: arguments either side of -126, subnormal,
// zero, infinite and NaN, and random ones over the whole range.
func TestExpandEx2KeepsEveryResult(t *testing.T) {
	ref, un := ex2Program(0), ex2Program(0)
	apply(ExpandEx2, un)
	if got := len(un.Instrs); got != 6 {
		t.Fatalf("%d instructions after the pass, want the mov, four and the exit", got)
	}
	edges := []float32{-125.99999, -126, -126.00001, -126.5, -127, -140, -149, -149.5, -150, -151, -200, -1e30,
		0, float32(math.Copysign(0, -1)), 1e-40, -1e-40, 1, -1, 127.99, 128, 129,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN())}
	rng := rand.New(rand.NewPCG(5, 6))
	var x warp.Vec
	for round := 0; round < 400; round++ {
		for l := range x {
			v := float32(rng.Float64()*340 - 210)
			if round == 0 && l < len(edges) {
				v = edges[l]
			}
			if round == 1 {
				v = math.Float32frombits(rng.Uint32()) // every exponent, subnormals and NaNs
			}
			x[l] = uint64(math.Float32bits(v))
		}
		want, got := runStraight(t, ref, &x), runStraight(t, un, &x)
		for l := range want {
			if uint32(got[l]) != uint32(want[l]) {
				t.Fatalf("ex2(%g): expanded %#x, one instruction %#x", math.Float32frombits(uint32(x[l])), uint32(got[l]), uint32(want[l]))
			}
		}
	}
}

// With .ftz the MUFU alone is the instruction; an argument another
// instruction reads, or one written in another block, is left alone (the
// halving is in place).
func TestExpandEx2OnlyWhereTheHalvingIsUnseen(t *testing.T) {
	p := ex2Program(isa.FFtz)
	apply(ExpandEx2, p)
	if len(p.Instrs) != 3 {
		t.Errorf(".ftz form expanded to %d instructions", len(p.Instrs))
	}
	p = ex2Program(0)
	p.Instrs = append(p.Instrs[:2], append([]isa.Instr{{Op: isa.OpAdd, Type: isa.F32, NDst: 1,
		Ops: []isa.Operand{isa.R(2), isa.R(0), isa.R(0)}, Class: isa.ClassFMA}}, p.Instrs[2:]...)...)
	apply(ExpandEx2, p)
	if len(p.Instrs) != 4 {
		t.Errorf("argument read again after the ex2: expanded to %d instructions", len(p.Instrs))
	}
	p = ex2Program(0)
	p.Instrs = append([]isa.Instr{p.Instrs[0], {Op: isa.OpBra, Target: 2, Class: isa.ClassBranch}}, p.Instrs[1:]...)
	apply(ExpandEx2, p)
	if len(p.Instrs) != 4 {
		t.Errorf("argument written in another block: expanded to %d instructions", len(p.Instrs))
	}
}
