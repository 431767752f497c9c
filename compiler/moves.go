package compiler

import "github.com/smsim/smsim/isa"

// ElideMoves makes register-to-register moves free, as ptxas's coalescing does.
var ElideMoves = Pass{
	Name: "ElideMoves",
	Doc: "ptxas coalesces a register-to-register mov with its source: the copy is no SASS instruction when the " +
		"two can share a register. convert.cu's chains `cvt.rn.f32.u32 t, x; mov.b32 x, t` run as one " +
		"I2FP.F32.U32 a link (SASS: calibration/h200 convert.sass; 4.25 cycles a link on the H200, one I2FP's " +
		"latency).",
	Run: elideMoves,
}

// elideMoves removes an unguarded mov of a register to a register, its
// readers reading the source instead, under elideCopies's conditions (every
// reader in the straight run after it, the source not written before the
// last of them reads it); any reader qualifies.
//
// A mov whose source is read by nothing else is removed the other way too,
// its source's definition writing the mov's destination instead, when that
// definition is an unguarded instruction of one destination in the straight
// run before the mov and the destination is neither read nor written between
// them (the last link of a chain carried around a loop: `cvt t, x; mov x, t`).
// Programs with indirect branches are left as they are.
func elideMoves(p *isa.Program, _ *Options) {
	elideCopies(p, plainMove, func(*isa.Instr, int32) bool { return true })
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		mv := &p.Instrs[i]
		if !plainMove(mv) || reads[isa.RegLoc(mv.Ops[1].Reg)] != 1 {
			continue
		}
		x, t := mv.Ops[0].Reg, mv.Ops[1].Reg
		for j := i - 1; j >= 0; j-- {
			in := &p.Instrs[j]
			if del[j] || in.Op.IsBranch() || in.Op.Ends() {
				break
			}
			writesT, touchesX := false, false
			in.Uses(func(r isa.Loc, dst bool) {
				if r.Kind != isa.KReg {
					return
				}
				if r.N == t && dst {
					writesT = true
				}
				if r.N == x {
					touchesX = true
				}
			})
			if writesT {
				if in.NDst == 1 && in.Guard.Kind == isa.KNone && in.Ops[0].Kind == isa.KReg && in.Ops[0].Reg == t {
					in.Ops[0].Reg = x
					del[i] = true
				}
				break
			}
			if touchesX || targeted[j] != 0 {
				break
			}
		}
	}
	dropMarked(p, del)
}

// plainMove reports whether in is an unguarded register-to-register mov.
func plainMove(in *isa.Instr) bool {
	return in.Op == isa.OpMov && in.Guard.Kind == isa.KNone && in.NDst == 1 && len(in.Ops) == 2 &&
		in.Ops[0].Kind == isa.KReg && in.Ops[1].Kind == isa.KReg && in.Type != isa.Pred && in.Ops[0].Reg != in.Ops[1].Reg
}
