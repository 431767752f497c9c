package ptx

import (
	"github.com/smsim/smsim/isa"
)

// mbarrier lowers every mbarrier instruction to the operand conventions of
// isa/op.go (destinations first).
func (l *lowerer) mbarrier(in *Instr, m *mods) error {
	x := isa.Instr{Type: isa.B64}
	x.Sem, x.Scope = semScope(m)
	kind := m.takeAny("init", "inval", "arrive", "arrive_drop", "expect_tx", "complete_tx", "test_wait",
		"try_wait", "pending_count")
	if kind == "pending_count" {
		return l.pendingCount(in, m)
	}
	sp, _ := space(m)
	x.Space = sp
	switch sp {
	case isa.Cluster:
		x.Flags |= isa.FRemote
	case isa.Generic, isa.Shared:
	default:
		return l.unsupported("mbarrier in .%s", sp)
	}
	if t, err := l.typ(m); err != nil || t != isa.B64 {
		return l.unsupported("mbarrier needs .b64")
	}
	switch kind {
	case "init":
		x.Op = isa.OpMbarInit
		return l.mbarOps(in, x, 0, 2)
	case "inval":
		x.Op = isa.OpMbarInval
		return l.mbarOps(in, x, 0, 1)
	case "arrive", "arrive_drop":
		return l.mbarArrive(in, m, x, kind == "arrive_drop")
	case "expect_tx", "complete_tx":
		x.Op = isa.OpMbarExpectTx
		if kind == "complete_tx" {
			x.Op = isa.OpMbarCompleteTx
		}
		return l.mbarOps(in, x, 0, 2)
	case "test_wait", "try_wait":
		return l.mbarWait(in, m, x, kind == "try_wait")
	}
	return l.unsupported("unknown mbarrier operation")
}

// mbarArrive lowers arrive and arrive_drop with .expect_tx / .noComplete.
func (l *lowerer) mbarArrive(in *Instr, m *mods, x isa.Instr, drop bool) error {
	x.Op = isa.OpMbarArrive
	if drop {
		x.Flags |= isa.FDrop
	}
	n := []int{2, 3} // state, [addr] [, count]
	if m.take("expect_tx") {
		x.Flags |= isa.FExpectTx
		n = []int{3} // state, [addr], txCount
	}
	if m.take("noComplete") {
		if x.Flags.Has(isa.FExpectTx) {
			return l.unsupported(".noComplete with .expect_tx")
		}
		x.Flags |= isa.FNoComplete
		n = []int{3}
	}
	if err := l.nops(in, n...); err != nil {
		return err
	}
	return l.mbarOps(in, x, 1, len(in.Operands))
}

// mbarWait lowers test_wait and try_wait (token or .parity; try_wait may
// carry a suspend-time hint).
func (l *lowerer) mbarWait(in *Instr, m *mods, x isa.Instr, try bool) error {
	x.Op = isa.OpMbarTestWait
	if try {
		x.Op = isa.OpMbarTryWait
	}
	if m.take("parity") {
		x.Flags |= isa.FParity
	}
	n := []int{3}
	if try {
		n = []int{3, 4}
	}
	if err := l.nops(in, n...); err != nil {
		return err
	}
	if len(in.Operands) == 4 {
		x.Flags |= isa.FHint
	}
	p, err := l.pdst(in.Operands[0])
	if err != nil {
		return err
	}
	a, err := l.mem(in.Operands[1], x.Space)
	if err != nil {
		return err
	}
	x.NDst, x.Ops = 1, []isa.Operand{p, a}
	for _, o := range in.Operands[2:] {
		t := isa.B64
		if x.Flags.Has(isa.FParity) || len(x.Ops) == 3 {
			t = isa.U32
		}
		v, err := l.val(o, t)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// mbarOps converts ndst destinations (the arrival state, or "_"), the
// barrier address and n-ndst-1 value operands, and emits x.
func (l *lowerer) mbarOps(in *Instr, x isa.Instr, ndst, n int) error {
	if err := l.nops(in, n); err != nil {
		return err
	}
	for i, o := range in.Operands {
		var v isa.Operand
		var err error
		switch {
		case i < ndst:
			v, err = l.dst(o)
		case i == ndst:
			v, err = l.mem(o, x.Space)
		default:
			v, err = l.val(o, isa.U32)
		}
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	x.NDst = uint8(ndst)
	l.emit(x)
	return nil
}

// pendingCount lowers mbarrier.pending_count.b64 count, state.
func (l *lowerer) pendingCount(in *Instr, m *mods) error {
	if t, err := l.typ(m); err != nil || t != isa.B64 {
		return l.unsupported("mbarrier.pending_count needs .b64")
	}
	ops, err := l.dstVals(in, isa.B64)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMbarPendingCount, Type: isa.B64, NDst: 1, Ops: ops})
	return nil
}
