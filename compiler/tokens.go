package compiler

import "github.com/smsim/smsim/isa"

// DropUnusedTokens writes an unread arrive token nowhere, as ptxas does.
var DropUnusedTokens = Pass{
	Name: "DropUnusedTokens",
	Doc: "CUDA's barrier.arrive() and inline-PTX helpers return an mbarrier.arrive's state token into a " +
		"register that is often never read, and ptxas writes it nowhere (SASS: `SYNCS.ARRIVE.TRANS64 RZ, …`). " +
		"Kept, the unused token would serialise back-to-back arrives writing the same virtual register on " +
		"their result latency; the H200 runs one thread's arrive.expect_tx loop at the barrier unit's issue " +
		"interval (calibration/h200 divcode.csv, issue.csv), not its round trip.",
	Run: dropUnusedTokens,
}

// dropUnusedTokens makes the token destination of every mbarrier.arrive
// whose register no instruction reads a sink ("_").
func dropUnusedTokens(p *isa.Program, _ *Options) {
	read := map[isa.Loc]bool{}
	for k := range p.Instrs {
		p.Instrs[k].Uses(func(r isa.Loc, def bool) {
			if !def {
				read[r] = true
			}
		})
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if in.Op != isa.OpMbarArrive || in.NDst == 0 || in.Ops[0].Kind != isa.KReg {
			continue
		}
		if !read[isa.RegLoc(in.Ops[0].Reg)] {
			in.Ops[0] = isa.Sink()
		}
	}
}
