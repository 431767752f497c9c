package ptx

// regPool recycles the registers of inlined function bodies. Once a call
// is lowered its callee's registers are dead, so the code after it (a
// sibling call, the rest of the caller) reuses them; a recursion inlined
// n levels deep then needs n bodies' registers, not one per copy.
type regPool struct {
	free [2][]int32  // reusable registers: general, predicate
	log  []regRecord // registers handed out since the outermost open call
}

// regRecord is one register handed out.
type regRecord struct {
	pred bool
	r    int32
}

func predIndex(pred bool) int {
	if pred {
		return 1
	}
	return 0
}

// reuse takes a free register of the kind, if any.
func (p *regPool) reuse(pred bool) (int32, bool) {
	f := &p.free[predIndex(pred)]
	if len(*f) == 0 {
		return 0, false
	}
	r := (*f)[len(*f)-1]
	*f = (*f)[:len(*f)-1]
	return r, true
}

// mark returns the position of the allocation log, for release.
func (p *regPool) mark() int { return len(p.log) }

// release frees every register handed out since mark m.
func (p *regPool) release(m int) {
	for _, a := range p.log[m:] {
		i := predIndex(a.pred)
		p.free[i] = append(p.free[i], a.r)
	}
	p.log = p.log[:m]
}

// allocReg hands out a register of the kind: a recycled one or a new one.
// Scratch registers (logged false) belong to every instruction and are
// never recycled.
func (l *lowerer) allocReg(pred bool, name string, logged bool) (int32, error) {
	r, ok := l.pool.reuse(pred)
	switch {
	case ok && pred:
		l.prog.PredNames[r] = name
	case ok:
		l.prog.RegNames[r] = name
	case pred:
		if l.prog.NumPreds >= maxRegs {
			return 0, l.errf("kernel uses more than %d predicate registers", maxRegs)
		}
		r = int32(l.prog.NumPreds)
		l.prog.NumPreds++
		l.prog.PredNames = append(l.prog.PredNames, name)
	default:
		if l.prog.NumRegs >= maxRegs {
			return 0, l.errf("kernel uses more than %d registers", maxRegs)
		}
		r = int32(l.prog.NumRegs)
		l.prog.NumRegs++
		l.prog.RegNames = append(l.prog.RegNames, name)
	}
	if logged {
		l.pool.log = append(l.pool.log, regRecord{pred: pred, r: r})
	}
	return r, nil
}
