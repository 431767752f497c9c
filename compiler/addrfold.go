package compiler

import "github.com/smsim/smsim/isa"

// FoldSharedAddressAdds marks the adds ptxas folds into a shared access's address.
var FoldSharedAddressAdds = Pass{
	Name: "FoldSharedAddressAdds",
	Doc: "SASS's LDS and STS take an address of a register plus a uniform register plus an immediate " +
		"([R+UR+imm]), so `add.u32 d, x, base; ld.shared.u32 v, [d]` is one `LDS v, [Rx+URbase]` when base is " +
		"a value the uniform datapath holds (SASS: calibration/h200 window.sass, `LDS R6, [R6+UR4]`; " +
		"window.cu's chain of loads through `add; ld` costs what a bare LDS chain costs). Under a " +
		"lane-dependent branch ptxas computes in vector registers and the add stays (pipeline.sass: the " +
		"consumer's `IMAD R4, R25, 0x10, R24; LDS.128 R4, [R4]`).",
	Run: foldSharedAddressAdds,
}

// foldSharedAddressAdds marks (SchedFoldedAddr) an add that is a 32-bit integer
// add without guard or flags, whose result is read once in the program, by
// the address of a later ld or st of the shared space in the same straight
// run (addressUse), and one of whose sources is an immediate or a register
// the uniform datapath can hold: the same in every lane (varyingRegs) and
// computed outside lane-dependent control flow, or a constant (an immediate
// or a shared variable's address, which ptxas forms ahead). The SM makes a
// flagged add's result ready at once; the add still takes its issue slot,
// where SASS has no instruction. Programs with indirect branches are left as
// they are.
func foldSharedAddressAdds(p *isa.Program, _ *Options) {
	if p.HasIndirect() {
		return
	}
	reads := isa.ReadCounts(p)
	varying := varyingRegs(p)
	vary := varies(varying)
	divergent := underLaneControl(p, vary)
	// vectorDefs: registers some instruction under lane-dependent control
	// writes with anything but a constant.
	vectorDefs := map[int32]bool{}
	for k := range p.Instrs {
		in := &p.Instrs[k]
		if !divergent[k] || in.Guard.Kind == isa.KNone && isConstMov(in) {
			continue
		}
		for d := 0; d < int(in.NDst); d++ {
			if in.Ops[d].Kind == isa.KReg {
				vectorDefs[in.Ops[d].Reg] = true
			}
		}
	}
	uniform := func(o isa.Operand) bool {
		return o.Kind == isa.KImm || o.Kind == isa.KReg && !varying[isa.RegLoc(o.Reg)] && !vectorDefs[o.Reg]
	}
	targeted := isa.BranchTargets(p)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		if in.Op != isa.OpAdd || in.Guard.Kind != isa.KNone || in.NDst != 1 || len(in.Ops) != 3 ||
			in.Ops[0].Kind != isa.KReg || annotated(in) || !is32Int(in.Type) {
			continue
		}
		d, a, b := in.Ops[0].Reg, in.Ops[1], in.Ops[2]
		if reads[isa.RegLoc(d)] != 1 || a.Kind != isa.KReg && a.Kind != isa.KImm || b.Kind != isa.KReg && b.Kind != isa.KImm ||
			!uniform(a) && !uniform(b) {
			continue
		}
		if j := addressUse(p, i, targeted); j >= 0 && (p.Instrs[j].Op == isa.OpLd || p.Instrs[j].Op == isa.OpSt) &&
			p.Instrs[j].Space == isa.Shared {
			in.Sched |= isa.SchedFoldedAddr
		}
	}
}

// addressUse returns the instruction after i, in the same straight run,
// whose address operand reads add i's result, or -1: -1 also when an
// instruction between reads it otherwise or writes it or the add's sources.
func addressUse(p *isa.Program, i int, targeted []int) int {
	add := &p.Instrs[i]
	d := add.Ops[0].Reg
	for j := i + 1; j < len(p.Instrs); j++ {
		if targeted[j] != 0 {
			return -1
		}
		u := &p.Instrs[j]
		for k := int(u.NDst); k < len(u.Ops); k++ {
			if o := u.Ops[k]; o.Kind == isa.KAddr && o.Reg == d {
				return j
			}
		}
		stop := u.Op.IsBranch() || u.Op.Ends()
		u.Uses(func(r isa.Loc, dst bool) {
			if r.Kind != isa.KReg {
				return
			}
			if r.N == d || dst && (add.Ops[1].Kind == isa.KReg && r.N == add.Ops[1].Reg || add.Ops[2].Kind == isa.KReg && r.N == add.Ops[2].Reg) {
				stop = true
			}
		})
		if stop {
			return -1
		}
	}
	return -1
}
