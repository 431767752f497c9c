package isa

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
func ElideNarrowingCvts(p *Program) {
	if hasIndirect(p) {
		return
	}
	reads := readCounts(p)
	targeted := branchTargets(p)
	del := make([]bool, len(p.Instrs))
	for i := range p.Instrs {
		cv := &p.Instrs[i]
		if !narrowingCvt(cv) {
			continue
		}
		t, x := cv.Ops[0].Reg, cv.Ops[1].Reg
		var readers []int
		redefined, ok := false, true
		for j := i + 1; j < len(p.Instrs) && ok; j++ {
			in := &p.Instrs[j]
			if targeted[j] != 0 {
				break
			}
			readsT, writesT, writesX := false, false, false
			eachUse(in, func(r regKey, dst bool) {
				if r.kind != KReg {
					return
				}
				switch {
				case r.n == t && !dst:
					readsT = true
				case r.n == t && dst:
					writesT = true
				case r.n == x && dst:
					writesX = true
				}
			})
			if readsT {
				if !lowBitsReader(in, t) {
					ok = false
					break
				}
				readers = append(readers, j)
			}
			if writesT {
				redefined = true
				break
			}
			if writesX {
				// x changes here: t's value must not be read after it.
				if stillRead(p, j+1, t, targeted, reads[regKey{KReg, t}] > len(readers)) {
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
		if !redefined && reads[regKey{KReg, t}] != len(readers) {
			continue // t may be read beyond the run
		}
		for _, j := range readers {
			in := &p.Instrs[j]
			for k := int(in.NDst); k < len(in.Ops); k++ {
				if in.Ops[k].Kind == KReg && in.Ops[k].Reg == t {
					in.Ops[k].Reg = x
				}
			}
			reads[regKey{KReg, t}]-- // an instruction counts once, however many operands
			reads[regKey{KReg, x}]++
		}
		reads[regKey{KReg, x}]-- // the cvt read it
		del[i] = true
	}
	dropMarked(p, del)
}

// narrowingCvt reports whether in is an unguarded integer conversion from 64
// to 32 bits, register to register, without rounding or saturation.
func narrowingCvt(in *Instr) bool {
	if in.Op != OpCvt || in.Guard.Kind != KNone || in.NDst != 1 || len(in.Ops) != 2 ||
		in.Ops[0].Kind != KReg || in.Ops[1].Kind != KReg || in.Flags.Has(FSat) || in.Rnd != RNone {
		return false
	}
	return is32Int(in.Type) && (in.Type2 == U64 || in.Type2 == S64 || in.Type2 == B64)
}

// lowBitsReader reports whether in reads register t only where its low 32
// bits alone decide the result.
func lowBitsReader(in *Instr, t int32) bool {
	if in.Guard.Kind == KPred || !is32Int(in.Type) || in.Flags.Has(FSat) || in.Flags.Has(FCC) || in.Flags.Has(FCarryIn) {
		return false
	}
	switch in.Op {
	case OpAdd, OpSub, OpAnd, OpOr, OpXor:
		return true
	case OpMul, OpMad:
		if in.Flags.Has(FHi) {
			return false
		}
		// The addend of a .wide multiply-add is 64-bit.
		if in.Op == OpMad && in.Flags.Has(FWide) && in.NSrc() == 3 && in.Src(2).Kind == KReg && in.Src(2).Reg == t {
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
func stillRead(p *Program, from int, t int32, targeted []int, readElsewhere bool) bool {
	for j := from; j < len(p.Instrs); j++ {
		if targeted[j] != 0 {
			return readElsewhere
		}
		in := &p.Instrs[j]
		read, written := false, false
		eachUse(in, func(r regKey, dst bool) {
			if r.kind == KReg && r.n == t {
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
