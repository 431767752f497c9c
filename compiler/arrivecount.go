package compiler

import "github.com/smsim/smsim/isa"

// FoldArriveCounts folds a constant arrive count into the arrive.
var FoldArriveCounts = Pass{
	Name: "FoldArriveCounts",
	Doc: "ptxas never lets a barrier arrive wait for its count: `mov.u32 t, 32; mbarrier.arrive … [bar], t` " +
		"(nvcc's PTX for an arrive with a constant count inside a loop) has the constant in a register long " +
		"before the SYNCS.ARRIVE.TRANS64.ART0 that reads it — microbench.cu's elected_arrive32 loop computes " +
		"it once before the loop (`@!P0 IMAD.MOV.U32 R6, RZ, RZ, 0x20`), elect.cu's lane0_count32 loop four " +
		"cycles ahead of the arrive (SASS: calibration/h200 microbench.sass, elect.sass).",
	Run: foldArriveCounts,
}

// foldArriveCounts removes a mov of an immediate whose register is read by
// nothing but the count operand of one mbarrier.arrive, under the same guard
// (or none on the mov), in the straight run of instructions after it, with
// nothing writing that register in between; the arrive reads the immediate.
// Programs with indirect branches are left as they are.
func foldArriveCounts(p *isa.Program, _ *Options) {
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		mv := &p.Instrs[i]
		if mv.Op != isa.OpMov || mv.NDst != 1 || len(mv.Ops) != 2 || mv.Ops[0].Kind != isa.KReg || mv.Ops[1].Kind != isa.KImm ||
			reads[isa.RegLoc(mv.Ops[0].Reg)] != 1 {
			continue
		}
		t := mv.Ops[0].Reg
		for j := i + 1; j < len(p.Instrs) && targeted[j] == 0; j++ {
			in := &p.Instrs[j]
			readsT, writesT := false, false
			in.Uses(func(r isa.Loc, dst bool) {
				if r.Kind == isa.KReg && r.N == t {
					readsT = readsT || !dst
					writesT = writesT || dst
				}
			})
			if readsT {
				if in.Op == isa.OpMbarArrive && in.NSrc() == 2 && !in.Flags.Has(isa.FExpectTx) && !in.Flags.Has(isa.FNoComplete) &&
					in.Src(1).Kind == isa.KReg && in.Src(1).Reg == t && (mv.Guard.Kind == isa.KNone || mv.Guard == in.Guard) {
					*in.Src(1) = mv.Ops[1]
					del[i] = true
				}
				break
			}
			if writesT || in.Op.IsBranch() || in.Op.Ends() {
				break
			}
		}
	}
	dropMarked(p, del)
}
