package compiler

import "github.com/smsim/smsim/isa"

// elideCopies removes copies that ptxas's register allocation makes free
// (ElideMoves, ElideNarrowingCvts): each instruction that isCopy matches (`op t, x`, a
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
		readOps := 0 // the readers' operands that read t (isa.ReadCounts counts operands)
		redefined, ok := false, true
		for j := i + 1; j < len(p.Instrs) && ok; j++ {
			in := &p.Instrs[j]
			if targeted[j] != 0 {
				break
			}
			nT, writesT, writesX := 0, false, false
			in.Uses(func(r isa.Loc, dst bool) {
				if r.Kind != isa.KReg {
					return
				}
				switch {
				case r.N == t && !dst:
					nT++
				case r.N == t && dst:
					writesT = true
				case r.N == x && dst:
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
				if stillRead(p, j+1, t, targeted, reads[isa.RegLoc(t)] > readOps) {
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
		if !redefined && reads[isa.RegLoc(t)] != readOps {
			continue // t may be read beyond the run
		}
		for _, j := range readers {
			in := &p.Instrs[j]
			for k := int(in.NDst); k < len(in.Ops); k++ {
				if (in.Ops[k].Kind == isa.KReg || in.Ops[k].Kind == isa.KAddr) && in.Ops[k].Reg == t {
					in.Ops[k].Reg = x
					reads[isa.RegLoc(t)]--
					reads[isa.RegLoc(x)]++
				}
			}
		}
		reads[isa.RegLoc(x)]-- // the cvt read it
		del[i] = true
	}
	dropMarked(p, del)
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
		in.Uses(func(r isa.Loc, dst bool) {
			if r.Kind == isa.KReg && r.N == t {
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
