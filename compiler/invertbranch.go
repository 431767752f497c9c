package compiler

import "github.com/smsim/smsim/isa"

// InvertBranchesOverJumps inverts a conditional branch over a jump.
var InvertBranchesOverJumps = Pass{
	Name: "InvertBranchesOverJumps",
	Doc: "The wait loop CUTLASS and its relatives write in inline PTX, `L: mbarrier.try_wait.parity P1, [bar], " +
		"phase, hint; @P1 bra DONE; bra L; DONE:`, is the same SASS loop as CUDA's: ptxas inverts the " +
		"conditional branch over the unconditional one, `@!P1 BRA L`, which falls through when the wait " +
		"succeeds (a taken branch costs branch.taken, one that falls through latency.branch).",
	Run: invertBranchesOverJumps,
}

// invertBranchesOverJumps turns `@p bra X; bra L; X:` into `@!p bra L` when
// no other branch enters the jump. Programs with indirect branches are left
// as they are; branch targets are renumbered and reconvergence points
// recomputed.
func invertBranchesOverJumps(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	targeted := isa.BranchTargets(p)
	del := make([]bool, len(p.Instrs))
	any := false
	for i := 0; i+2 <= len(p.Instrs)-1; i++ {
		br, j := &p.Instrs[i], &p.Instrs[i+1]
		if br.Op != isa.OpBra || br.Guard.Kind != isa.KPred || int(br.Target) != i+2 || del[i] ||
			j.Op != isa.OpBra || j.Guard.Kind != isa.KNone || targeted[i+1] != 0 {
			continue
		}
		br.Guard.Neg = !br.Guard.Neg
		br.Target = j.Target
		del[i+1] = true
		any = true
		i++
	}
	if any {
		deleteInstrs(p, del)
		isa.Reconverge(p, nil)
	}
}
