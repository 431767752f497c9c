package compiler

// ElideNarrowingCvts models that a 64-to-32-bit integer conversion is no
// instruction in SASS: a 64-bit value lives in a register pair, and the
// 32-bit value is its low register. pipeline.cu's chain
// `cvt.u32.u64 t, x; mad.wide.u32 x, t, a, b` runs 4.36 cycles a link on the
// H200, one IMAD.WIDE's latency (calibration/h200 pipeline.sass); run as two
// instructions it took 8.2.
//
// `cvt.{u32,s32,b32}.{u64,s64,b64} t, x` (unguarded, no rounding or
// saturation) is removed, and its readers read x instead, when every reader of
// that value of t is in the straight run of instructions after it, reads it
// where only its low 32 bits matter — a multiplicand of a 32-bit .wide or .lo
// multiply or multiply-add, or an operand of a 32-bit add, subtract, and, or
// or xor without carry or saturation — and x is not written before the last
// of them reads it (that reader may write x itself). Every lane computes the
// same values. Programs with indirect branches are left as they are.
import "github.com/smsim/smsim/isa"

func ElideNarrowingCvts(p *isa.Program) {
	elideCopies(p, narrowingCvt, lowBitsReader)
}

// ElideMoves models ptxas's register coalescing: a register-to-register
// `mov` is no instruction in SASS when the copy and its source can share a
// register (convert.cu's chains: `cvt.rn.f32.u32 t, x; mov.b32 x, t` is one
// I2FP.F32.U32 a link, 4.25 cycles; run as two instructions it took 8.3).
// An unguarded mov of a register to a register is removed, and its readers
// read the source instead, under the conditions of ElideNarrowingCvts (every
// reader in the straight run after it, the source not written before the
// last of them reads it); any reader qualifies.
//
// A mov whose source is read by nothing else is removed the other way too,
// its source's definition writing the mov's destination instead, when that
// definition is an unguarded instruction of one destination in the straight
// run before the mov and the destination is neither read nor written between
// them (the last link of a chain carried around a loop: `cvt t, x; mov x, t`).
func ElideMoves(p *isa.Program) {
	elideCopies(p, plainMove, func(*isa.Instr, int32) bool { return true })
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		mv := &p.Instrs[i]
		if !plainMove(mv) || reads[regKey{isa.KReg, mv.Ops[1].Reg}] != 1 {
			continue
		}
		x, t := mv.Ops[0].Reg, mv.Ops[1].Reg
		for j := i - 1; j >= 0; j-- {
			in := &p.Instrs[j]
			if del[j] || in.Op.IsBranch() || in.Op.Ends() {
				break
			}
			writesT, touchesX := false, false
			eachUse(in, func(r regKey, dst bool) {
				if r.kind != isa.KReg {
					return
				}
				if r.n == t && dst {
					writesT = true
				}
				if r.n == x {
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

// elideCopies removes each instruction that isCopy matches (`op t, x`, a
// copy of x or of the part of it its readers use) when every reader of that
// value of t is in the straight run of instructions after it and readerOK,
// and x is not written before the last of them reads it (that reader may
// write x itself); the readers read x instead. Programs with indirect
// branches are left as they are.
func elideCopies(p *isa.Program, isCopy func(*isa.Instr) bool, readerOK func(*isa.Instr, int32) bool) {
	reads, targeted, del, ok := straightRunState(p)
	if !ok {
		return
	}
	for i := range p.Instrs {
		cv := &p.Instrs[i]
		if !isCopy(cv) {
			continue
		}
		t, x := cv.Ops[0].Reg, cv.Ops[1].Reg
		var readers []int
		readOps := 0 // the readers' operands that read t (readCounts counts operands)
		redefined, ok := false, true
		for j := i + 1; j < len(p.Instrs) && ok; j++ {
			in := &p.Instrs[j]
			if targeted[j] != 0 {
				break
			}
			nT, writesT, writesX := 0, false, false
			eachUse(in, func(r regKey, dst bool) {
				if r.kind != isa.KReg {
					return
				}
				switch {
				case r.n == t && !dst:
					nT++
				case r.n == t && dst:
					writesT = true
				case r.n == x && dst:
					writesX = true
				}
			})
			if nT > 0 {
				if !readerOK(in, t) {
					ok = false
					break
				}
				readers = append(readers, j)
				readOps += nT
			}
			if writesT {
				redefined = true
				break
			}
			if writesX {
				// x changes here: t's value must not be read after it.
				if stillRead(p, j+1, t, targeted, reads[regKey{isa.KReg, t}] > readOps) {
					ok = false
				} else {
					redefined = true // no later reader: the value ends here
				}
				break
			}
			if in.Op.IsBranch() || in.Op.Ends() {
				break
			}
		}
		if !ok || len(readers) == 0 {
			continue
		}
		if !redefined && reads[regKey{isa.KReg, t}] != readOps {
			continue // t may be read beyond the run
		}
		for _, j := range readers {
			in := &p.Instrs[j]
			for k := int(in.NDst); k < len(in.Ops); k++ {
				if (in.Ops[k].Kind == isa.KReg || in.Ops[k].Kind == isa.KAddr) && in.Ops[k].Reg == t {
					in.Ops[k].Reg = x
					reads[regKey{isa.KReg, t}]--
					reads[regKey{isa.KReg, x}]++
				}
			}
		}
		reads[regKey{isa.KReg, x}]-- // the cvt read it
		del[i] = true
	}
	dropMarked(p, del)
}

// narrowingCvt reports whether in is an unguarded integer conversion from 64
// to 32 bits, register to register, without rounding or saturation.
func narrowingCvt(in *isa.Instr) bool {
	if in.Op != isa.OpCvt || in.Guard.Kind != isa.KNone || in.NDst != 1 || len(in.Ops) != 2 ||
		in.Ops[0].Kind != isa.KReg || in.Ops[1].Kind != isa.KReg || in.Flags.Has(isa.FSat) || in.Rnd != isa.RNone {
		return false
	}
	return is32Int(in.Type) && (in.Type2 == isa.U64 || in.Type2 == isa.S64 || in.Type2 == isa.B64)
}

// lowBitsReader reports whether in reads register t only where its low 32
// bits alone decide the result.
func lowBitsReader(in *isa.Instr, t int32) bool {
	if in.Guard.Kind == isa.KPred || !is32Int(in.Type) || in.Flags.Has(isa.FSat) || in.Flags.Has(isa.FCC) || in.Flags.Has(isa.FCarryIn) {
		return false
	}
	switch in.Op {
	case isa.OpAdd, isa.OpSub, isa.OpAnd, isa.OpOr, isa.OpXor:
		return true
	case isa.OpMul, isa.OpMad:
		if in.Flags.Has(isa.FHi) {
			return false
		}
		// The addend of a .wide multiply-add is 64-bit.
		if in.Op == isa.OpMad && in.Flags.Has(isa.FWide) && in.NSrc() == 3 && in.Src(2).Kind == isa.KReg && in.Src(2).Reg == t {
			return false
		}
		return true
	}
	return false
}

// stillRead reports whether register t is read at or after instruction from
// in the straight run there, before it is written; where the run ends
// without either, whether it is read elsewhere (readElsewhere: the program
// reads t more often than the readers found so far).
func stillRead(p *isa.Program, from int, t int32, targeted []int, readElsewhere bool) bool {
	for j := from; j < len(p.Instrs); j++ {
		if targeted[j] != 0 {
			return readElsewhere
		}
		in := &p.Instrs[j]
		read, written := false, false
		eachUse(in, func(r regKey, dst bool) {
			if r.kind == isa.KReg && r.n == t {
				if dst {
					written = true
				} else {
					read = true
				}
			}
		})
		if read {
			return true
		}
		if written {
			return false
		}
		if in.Op.IsBranch() || in.Op.Ends() {
			return readElsewhere
		}
	}
	return readElsewhere
}

// DropDeadResults models ptxas's dead-code elimination: an unguarded
// arithmetic instruction (classes alu, imad, fma, fp64 and sfu; no clock or
// special-register read, no memory or barrier operation) whose destinations
// no instruction reads is no SASS instruction. convert.cu's
// `mov.b32 {h, hh}, t` unpacks a register into two halves of which the loop
// reads one: ptxas emits nothing for the other (convert.sass), smsim ran a
// bit-field extract for it. Removal repeats until nothing more is dead.
func DropDeadResults(p *isa.Program) {
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
				if o.Kind != isa.KReg && o.Kind != isa.KPred || reads[regKey{o.Kind, o.Reg}] > 0 {
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
