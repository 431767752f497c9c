package compiler

import "github.com/smsim/smsim/isa"

// Half2Pipes puts every other packed-half operation on the tensor pipe.
var Half2Pipes = Pass{
	Name: "Half2Pipes",
	Doc: "ptxas issues packed-half arithmetic on two pipes: every other f16x2/bf16x2 fma, mul, add or sub of a " +
		"straight run goes to the tensor pipe as HFMA2.MMA, the others to the FMA pipe as HFMA2 (or HADD2, " +
		"HMUL2). pipeline.cu's dependent chain of `fma.rn.f16x2` is `HFMA2 (stall 6); HFMA2.MMA (stall 10)` " +
		"repeated (SASS: calibration/h200/README.md), the stall counts being the two forms' latencies.",
	Run: half2Pipes,
}

// half2Pipes leaves the first packed-half fma, mul, add or sub of each
// straight run (no branch target inside it) ClassHalf2, makes the next
// ClassHalf2MMA, and so on; what each computes is unchanged. Programs with
// indirect branches are left as they are.
func half2Pipes(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	n := 0
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if targeted[i] != 0 {
			n = 0
		}
		if in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall {
			n = 0
			continue
		}
		if in.Class != isa.ClassHalf2 {
			continue
		}
		switch in.Op {
		case isa.OpFma, isa.OpMul, isa.OpAdd, isa.OpSub:
		default:
			continue
		}
		if n%2 == 1 {
			in.Class = isa.ClassHalf2MMA
		}
		n++
	}
}
