package compiler

// DropUnusedTokens discards the state token of an mbarrier.arrive that no
// instruction reads (`SYNCS.ARRIVE.TRANS64 RZ, …` in SASS): CUDA's
// `barrier.arrive()` and inline-PTX helpers return the token into a register
// that is often never used, and ptxas writes it nowhere. Left in place, the
// unused token would serialise back-to-back arrives writing the same virtual
// register on its result latency (calibration/h200 divcode.cu and issue.cu:
// one thread's arrive.expect_tx loop runs 6.4–6.8 cycles an arrive, the
// barrier unit's issue interval, not its 50-cycle round trip).
import "github.com/smsim/smsim/isa"

func DropUnusedTokens(p *isa.Program) {
	read := map[regKey]bool{}
	for k := range p.Instrs {
		eachUse(&p.Instrs[k], func(r regKey, dst bool) {
			if !dst {
				read[r] = true
			}
		})
	}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if in.Op != isa.OpMbarArrive || in.NDst == 0 || in.Ops[0].Kind != isa.KReg {
			continue
		}
		if !read[regKey{isa.KReg, in.Ops[0].Reg}] {
			in.Ops[0] = isa.Sink()
		}
	}
}
