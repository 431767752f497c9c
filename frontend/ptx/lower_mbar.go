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
		// Only arrive, arrive_drop, expect_tx and complete_tx reach a
		// barrier in another CTA's shared memory (PTX ISA, mbarrier support
		// with shared memory).
		if kind != "arrive" && kind != "arrive_drop" && kind != "expect_tx" && kind != "complete_tx" {
			return l.unsupported("mbarrier.%s on .shared::cluster", kind)
		}
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
		// .layout::v0 is the default layout. .layout::v1 differs only in a
		// payload report that report-on operations write (fabric and
		// report-mechanism copies, newer than sm_90, none of which smsim
		// lowers); without one it stays zero and the conditional phase
		// completes with the primary one, as in .layout::v0.
		m.takeAny("layout::v0", "layout::v1")
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
	if _, sink := in.Operands[0].(*Sink); x.Space == isa.Cluster && !sink {
		return l.errf("%s cannot return a state from a .shared::cluster barrier: its destination must be _", in.Opcode())
	}
	return l.mbarOps(in, x, 1, len(in.Operands))
}

// mbarWait lowers test_wait and try_wait (token or .parity; try_wait may
// carry a suspend-time hint). With .phase_type::primary the destination
// may be waitComplete|reportPredicate, optionally followed by a
// reportValue operand before [addr].
func (l *lowerer) mbarWait(in *Instr, m *mods, x isa.Instr, try bool) error {
	x.Op = isa.OpMbarTestWait
	if try {
		x.Op = isa.OpMbarTryWait
	}
	if m.take("parity") {
		x.Flags |= isa.FParity
	}
	// The conditional phase completes independently of the primary one only
	// on a .layout::v1 barrier that a report-on operation wrote a non-zero
	// report to; smsim runs none (see mbarrier.init), so it completes with
	// the primary phase, which the waits test.
	phase := m.takeAny("phase_type::primary", "phase_type::conditional")
	if phase == "phase_type::conditional" && !x.Flags.Has(isa.FParity) {
		return l.errf("%s: .phase_type::conditional needs .parity", in.Opcode())
	}
	ops := in.Operands
	var report []Operand
	if len(ops) > 0 {
		if pr, ok := ops[0].(*Pair); ok {
			if phase != "phase_type::primary" {
				return l.errf("%s has no report predicate (it needs .phase_type::primary)", in.Opcode())
			}
			report = []Operand{pr.B}
			ops = append([]Operand{pr.A}, ops[1:]...)
			if len(ops) > 1 {
				if _, isAddr := ops[1].(*Addr); !isAddr {
					report = append(report, ops[1])
					ops = append([]Operand{ops[0]}, ops[2:]...)
				}
			}
		}
	}
	if len(ops) != 3 && (!try || len(ops) != 4) {
		want := "3"
		if try {
			want = "3 or 4"
		}
		return l.errf("bad operand count: %s takes %s operands besides the report, found %d", in.Opcode(), want, len(ops))
	}
	if len(ops) == 4 {
		x.Flags |= isa.FHint
	}
	p, err := l.pdst(ops[0])
	if err != nil {
		return err
	}
	a, err := l.mem(ops[1], x.Space)
	if err != nil {
		return err
	}
	x.NDst, x.Ops = 1, []isa.Operand{p, a}
	for _, o := range ops[2:] {
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
	return l.mbarReport(report)
}

// mbarReport writes the report of a .phase_type::primary wait: the payload
// report is zero on a .layout::v0 barrier, and on a .layout::v1 one that no
// report-on operation wrote, so reportPredicate is false and reportValue 0.
func (l *lowerer) mbarReport(report []Operand) error {
	if len(report) == 0 {
		return nil
	}
	q, err := l.pdst(report[0])
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMov, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{q, isa.Imm(0)}})
	if len(report) == 1 {
		return nil
	}
	d, err := l.dst(report[1])
	if err != nil {
		return err
	}
	t := isa.B64
	switch l.regWidth(report[1]) {
	case 8:
		t = isa.B8
	case 16:
		t = isa.B16
	case 32:
		t = isa.B32
	}
	l.emit(isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{d, isa.Imm(0)}})
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
