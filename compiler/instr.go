package compiler

import "github.com/smsim/smsim/isa"

// predicateRegisters is how many predicate registers a thread has in SASS
// (P0-P6; PT is constant true).
const predicateRegisters = 7

// is32Int reports whether t is a 32-bit integer type.
func is32Int(t isa.Type) bool { return t == isa.S32 || t == isa.U32 || t == isa.B32 }

// arithmetic reports whether c is an arithmetic timing class (the integer,
// floating-point, conversion and division pipes).
func arithmetic(c isa.Class) bool {
	switch c {
	case isa.ClassALU, isa.ClassIMAD, isa.ClassFMA, isa.ClassFP64, isa.ClassSFU, isa.ClassDiv, isa.ClassDiv64,
		isa.ClassIDiv, isa.ClassIDivInv, isa.ClassIDiv64, isa.ClassIDiv64Inv, isa.ClassHalf2, isa.ClassHalf2MMA, isa.ClassCvtFloat:
		return true
	}
	return false
}

// division reports whether c is a class of division, remainder, IEEE
// square root or reciprocal: a long sequence of SASS instructions (or a
// subroutine) where PTX has one.
func division(c isa.Class) bool {
	switch c {
	case isa.ClassDiv, isa.ClassDiv64, isa.ClassIDiv, isa.ClassIDivInv, isa.ClassIDiv64, isa.ClassIDiv64Inv:
		return true
	}
	return false
}

// memoryClass reports whether c is a class of plain loads and stores.
func memoryClass(c isa.Class) bool {
	switch c {
	case isa.ClassShared, isa.ClassGlobal, isa.ClassLocal, isa.ClassConst, isa.ClassParam:
		return true
	}
	return false
}

// isClockRead reports whether in is an unguarded read of the SM clock
// (%clock, %clock64, %clock_hi: SASS's CS2R SR_CLOCKLO).
func isClockRead(in *isa.Instr) bool {
	if in.Op != isa.OpMov || len(in.Ops) < 2 || in.Ops[1].Kind != isa.KSpecial || in.Guard.Kind != isa.KNone {
		return false
	}
	switch in.Ops[1].Special {
	case isa.SClock, isa.SClock64, isa.SClockHi:
		return true
	}
	return false
}

// isConstMov reports a move of an immediate or symbol address into a register.
func isConstMov(in *isa.Instr) bool {
	return in.Op == isa.OpMov && len(in.Ops) == 2 && in.Ops[0].Kind == isa.KReg &&
		(in.Ops[1].Kind == isa.KImm || (in.Ops[1].Kind == isa.KAddr && in.Ops[1].Reg < 0))
}

// callsSubroutine reports whether in is a call in SASS: a 64-bit integer
// division or remainder (a run-time test, then a 32-bit sequence or a
// CALL.REL.NOINC), or a call.
func callsSubroutine(in *isa.Instr) bool {
	if in.Op == isa.OpCall {
		return true
	}
	switch in.Class {
	case isa.ClassIDiv64, isa.ClassIDiv64Inv:
		return true
	}
	return false
}

// usesSharedWindow reports whether in names shared memory through the CTA's
// cluster window: mbarrier updates and waits and bulk copies.
func usesSharedWindow(in *isa.Instr) bool {
	switch in.Op {
	case isa.OpMbarArrive, isa.OpMbarExpectTx, isa.OpMbarTryWait, isa.OpMbarTestWait, isa.OpBulkCopy, isa.OpBulkTensor, isa.OpBulkReduce:
		return true
	}
	return false
}

// isWait reports whether op is an mbarrier wait (try_wait or test_wait).
func isWait(op isa.Op) bool { return op == isa.OpMbarTryWait || op == isa.OpMbarTestWait }

// endsRun reports whether in ends a straight run of instructions: a branch
// or an instruction control never falls through.
func endsRun(in *isa.Instr) bool { return in.Op.IsBranch() || in.Op.Ends() }

// annotated reports whether in carries any modifier, source hint or
// scheduling hint: an add that is the head of a loop kept rolled, the end of
// a convergence region or anything but a plain add is left alone by the
// passes that rewrite plain adds.
func annotated(in *isa.Instr) bool { return in.Flags != 0 || in.Source != 0 || in.Sched != 0 }
