package compiler

// Half2Pipes models how ptxas issues packed-half arithmetic: it puts every
// other f16x2/bf16x2 fma, mul, add or sub of a straight run on the tensor
// pipe as HFMA2.MMA, the others on the FMA pipe as HFMA2 (or HADD2, HMUL2).
// pipeline.cu's dependent chain of `fma.rn.f16x2` is `HFMA2 (stall 6);
// HFMA2.MMA (stall 10)` repeated (calibration/h200 README.md, twelfth
// session): the stall counts are the two forms' latencies, and the H200 runs
// the chain at 8.59 cycles an FMA, their mean and the loop's share. In each
// straight run (no branch target inside it) the first such instruction stays
// ClassHalf2 and the next becomes ClassHalf2MMA, and so on; what each
// computes is unchanged. Programs with indirect branches are left as they
// are.
import "github.com/smsim/smsim/isa"

func Half2Pipes(p *isa.Program) {
	if hasIndirect(p) {
		return
	}
	targeted := branchTargets(p)
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
