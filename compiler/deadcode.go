package compiler

import "github.com/smsim/smsim/isa"

// DropDeadResults removes arithmetic whose results nothing reads.
var DropDeadResults = Pass{
	Name: "DropDeadResults",
	Doc: "ptxas's dead-code elimination emits no instruction for arithmetic whose results nothing reads: " +
		"convert.cu's `mov.b32 {h, hh}, t` unpacks a register into two halves of which the loop reads one, " +
		"and the SASS has nothing for the other (calibration/h200 convert.sass).",
	Run: dropDeadResults,
}

// dropDeadResults removes each unguarded arithmetic instruction (pureArith)
// whose destinations no instruction reads, and repeats until nothing more is
// dead. Programs with indirect branches are left as they are.
func dropDeadResults(p *isa.Program, _ *Options) {
	for {
		reads, _, del, ok := straightRunState(p)
		if !ok {
			return
		}
		found := false
		for i := range p.Instrs {
			in := &p.Instrs[i]
			if !pureArith(in) {
				continue
			}
			dead := true
			for k := 0; k < int(in.NDst); k++ {
				o := in.Ops[k]
				if o.Kind != isa.KReg && o.Kind != isa.KPred || reads[isa.Loc{Kind: o.Kind, N: o.Reg}] > 0 {
					dead = false
				}
			}
			if dead {
				del[i], found = true, true
			}
		}
		if !found {
			return
		}
		dropMarked(p, del)
	}
}

// pureArith reports whether in is an unguarded arithmetic instruction with
// destinations and no effect beyond writing them.
func pureArith(in *isa.Instr) bool {
	if in.Guard.Kind != isa.KNone || in.NDst == 0 {
		return false
	}
	switch in.Class {
	case isa.ClassALU, isa.ClassIMAD, isa.ClassFMA, isa.ClassFP64, isa.ClassSFU, isa.ClassHalf2, isa.ClassHalf2MMA, isa.ClassCvtFloat:
	default:
		return false
	}
	switch in.Op {
	case isa.OpElect, isa.OpActivemask, isa.OpMapa, isa.OpIsspacep, isa.OpGriddepctl, isa.OpNop:
		return false
	}
	for _, o := range in.Ops {
		if o.Kind == isa.KSpecial {
			return false
		}
	}
	return !in.Op.IsBranch() && !in.Op.Ends() && !in.Op.IsMbarrier()
}
