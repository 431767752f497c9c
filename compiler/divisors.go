package compiler

import "github.com/smsim/smsim/isa"

// HoistDivisors computes an invariant divisor's reciprocal once, before the loop.
var HoistDivisors = Pass{
	Name: "HoistDivisors",
	Doc: "ptxas computes the reciprocal of a loop-invariant integer divisor (I2F, MUFU.RCP, F2I and their " +
		"fix-ups) once before the loop, and each trip only multiplies and corrects: the H200 runs rem.u32 by " +
		"an invariant divisor in 61.5 cycles against 129.4 for div.u32 by a changing one, rem.u64 in 266 " +
		"against 316 (calibration/h200 latency2.csv, latency2.sass). In a loop with branches inside it " +
		"recomputes the reciprocal every trip (prodonly.sass, pipeline.sass: I2F, MUFU.RCP and F2I at the " +
		"loop's top).",
	Run: hoistDivisors,
}

// hoistDivisors gives the class ClassIDivInv or ClassIDiv64Inv instead of
// ClassIDiv or ClassIDiv64 to a division or remainder whose innermost loop
// (the natural loop of the shortest span that holds it, isa.Innermost) is
// one basic block (oneBlock) and never writes the divisor: a register that
// no instruction of the loop's span writes, a span with a call never
// invariant. A division in no loop keeps its full latency; a constant divisor
// is class imad already (isa.ClassOf).
func hoistDivisors(p *isa.Program, _ *Options) {
	var loops []isa.Loop // found at the first division
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if (in.Class != isa.ClassIDiv && in.Class != isa.ClassIDiv64) || in.NSrc() < 2 {
			continue
		}
		if loops == nil {
			loops = isa.NewCFG(p, nil).Loops(p)
		}
		l, ok := isa.Innermost(loops, i)
		if !ok || !oneBlock(p, l.Head, l.Latch) || !invariantIn(p, *in.Src(1), l.Head, l.Latch) {
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
