package compiler

import "github.com/smsim/smsim/isa"

// HoistLoopCounters computes a counted loop's control at the top of its body.
var HoistLoopCounters = Pass{
	Name: "HoistLoopCounters",
	Doc: "In a one-block loop that ends `add c; setp p, c, x; @p bra`, ptxas computes the counter and the " +
		"compare at the top of the body (UIADD3 first, ISETP after the body's first instruction), so that the " +
		"13 cycles a predicate takes to reach its branch pass while the body runs (SASS: calibration/h200 " +
		"branch.sass, every loop); when the body reads the counter, right after its last read " +
		"(pipeline.sass's shared-memory loop: the address IMAD, the counter's IMAD and ISETP, then the LDS " +
		"and the adds that wait for it).",
	Run: hoistLoopCounters,
}

// hoistLoopCounters moves a counted loop's control to the top of its body.
// In a loop that is one basic block ending
//
//	add c, c, s;  setp.cmp p, c, x;  @p bra L
//
// the add moves behind the body's last read of c (to the loop's head when
// there is none) and the setp one instruction later, when the body neither
// writes c nor touches p, and writes neither s nor x: each runs as often as
// before and computes the same values. Programs with indirect branches are
// left as they are.
func hoistLoopCounters(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	for b := range p.Instrs {
		br := &p.Instrs[b]
		t := int(br.Target)
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || t < 0 || t+3 > b {
			continue
		}
		add, set := p.Instrs[b-2], p.Instrs[b-1]
		if add.Op != isa.OpAdd || add.Guard.Kind != isa.KNone || add.NDst != 1 || len(add.Ops) != 3 ||
			add.Ops[0].Kind != isa.KReg || add.Ops[1].Kind != isa.KReg || add.Ops[1].Reg != add.Ops[0].Reg ||
			add.Flags&(isa.FSat|isa.FCC|isa.FCarryIn) != 0 {
			continue
		}
		c := add.Ops[0].Reg
		if set.Op != isa.OpSetp || set.Guard.Kind != isa.KNone || set.NDst != 1 || set.Bool != isa.BoolNone || len(set.Ops) != 3 ||
			set.Ops[0].Kind != isa.KPred || set.Ops[0].Reg != br.Guard.Reg {
			continue
		}
		if !(set.Ops[1].Kind == isa.KReg && set.Ops[1].Reg == c) && !(set.Ops[2].Kind == isa.KReg && set.Ops[2].Reg == c) {
			continue
		}
		ok := true
		for k := t + 1; k <= b && ok; k++ {
			ok = targeted[k] == 0
		}
		lastRead := -1 // the body's last instruction that reads c (relative to t)
		for k := t; k < b-2 && ok; k++ {
			in := &p.Instrs[k]
			if in.Op.IsBranch() || in.Op.Ends() || in.Op == isa.OpCall {
				ok = false
				break
			}
			in.Uses(func(r isa.Loc, dst bool) {
				switch {
				case r == isa.RegLoc(c) && !dst:
					lastRead = k - t
				case r == isa.RegLoc(c) || r == isa.PredLoc(set.Ops[0].Reg):
					ok = false
				case dst && (r == isa.Loc{Kind: add.Ops[2].Kind, N: add.Ops[2].Reg} && add.Ops[2].Kind == isa.KReg ||
					r == isa.Loc{Kind: set.Ops[1].Kind, N: set.Ops[1].Reg} && set.Ops[1].Kind == isa.KReg ||
					r == isa.Loc{Kind: set.Ops[2].Kind, N: set.Ops[2].Reg} && set.Ops[2].Kind == isa.KReg):
					ok = false
				}
			})
		}
		body := b - 2 - t
		if !ok || lastRead >= body-1 {
			continue
		}
		// body[:lastRead+1], add, body[lastRead+1], setp, body[lastRead+2:], bra.
		out := make([]isa.Instr, 0, body+2)
		out = append(out, p.Instrs[t:t+lastRead+1]...)
		out = append(out, add, p.Instrs[t+lastRead+1], set)
		out = append(out, p.Instrs[t+lastRead+2:b-2]...)
		copy(p.Instrs[t:b], out)
	}
}
