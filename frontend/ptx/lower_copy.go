package ptx

import (
	"github.com/smsim/smsim/isa"
)

// copyAsync lowers the cp.* family: cp.async (non-bulk), its groups and
// mbarrier arrive, the bulk and tensor copies, and the bulk reductions.
func (l *lowerer) copyAsync(in *Instr, m *mods) error {
	if m.take("reduce") {
		return l.bulkReduce(in, m)
	}
	if !m.take("async") {
		return l.unsupported("unknown cp form")
	}
	switch {
	case m.take("bulk"):
		return l.bulk(in, m)
	case m.take("mbarrier"):
		return l.cpAsyncArrive(in, m)
	case m.take("commit_group"):
		l.emit(isa.Instr{Op: isa.OpCpAsyncCommit})
		return l.nops(in, 0)
	case m.take("wait_all"):
		l.emit(isa.Instr{Op: isa.OpCpAsyncWait})
		return l.nops(in, 0)
	case m.take("wait_group"):
		if err := l.nops(in, 1); err != nil {
			return err
		}
		n, err := l.val(in.Operands[0], isa.U32)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpCpAsyncWait, Ops: []isa.Operand{n}})
		return nil
	}
	return l.cpAsync(in, m)
}

// cpAsync lowers cp.async.{ca,cg}.shared.global [dst], [src], cpSize[,
// srcSize][, cachePolicy] to [dst], [src], cpSize[, srcSize] (the cache
// policy changes no result and is dropped).
func (l *lowerer) cpAsync(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpCpAsync}
	if m.takeAny("ca", "cg") == "cg" {
		x.Flags |= isa.FBypassL1
	}
	x.Space, _ = space(m)
	x.Space2, _ = space(m)
	if (x.Space != isa.Shared && x.Space != isa.Cluster) || x.Space2 != isa.Global {
		return l.unsupported("cp.async from .%s to .%s", x.Space2, x.Space)
	}
	ops := in.Operands
	if cacheHints(m) && len(ops) > 3 {
		ops = ops[:len(ops)-1]
	}
	if len(ops) != 3 && len(ops) != 4 {
		return l.nops(in, 3, 4)
	}
	if size, ok := immValue(ops[2]); !ok || (size != 4 && size != 8 && size != 16) {
		return l.unsupported("copy size %s (want 4, 8 or 16)", ops[2].String())
	}
	d, err := l.mem(ops[0], x.Space)
	if err != nil {
		return err
	}
	s, err := l.mem(ops[1], isa.Global)
	if err != nil {
		return err
	}
	x.Ops = []isa.Operand{d, s}
	for _, o := range ops[2:] {
		if _, isPred := o.(*Not); isPred {
			return l.unsupported("the ignore-src predicate")
		}
		v, err := l.val(o, isa.U32)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// immValue returns the value of an integer immediate operand.
func immValue(o Operand) (uint64, bool) {
	x, ok := o.(*Imm)
	if !ok || x.Kind != ImmInt || x.Int < 0 {
		return 0, false
	}
	return uint64(x.Int), true
}

// cpAsyncArrive lowers cp.async.mbarrier.arrive[.noinc][.shared].b64 [mbar]:
// an arrival once the thread's earlier cp.async copies have landed.
func (l *lowerer) cpAsyncArrive(in *Instr, m *mods) error {
	if !m.take("arrive") {
		return l.unsupported("missing .arrive")
	}
	x := isa.Instr{Op: isa.OpCpAsyncMbarArrive, Type: isa.B64}
	if m.take("noinc") {
		x.Flags |= isa.FNoInc
	}
	x.Space, _ = space(m)
	if x.Space != isa.Generic && x.Space != isa.Shared {
		return l.unsupported("cp.async.mbarrier.arrive in .%s", x.Space)
	}
	if t, err := l.typ(m); err != nil || t != isa.B64 {
		return l.unsupported("needs .b64")
	}
	if err := l.nops(in, 1); err != nil {
		return err
	}
	a, err := l.mem(in.Operands[0], x.Space)
	if err != nil {
		return err
	}
	x.Ops = []isa.Operand{a}
	l.emit(x)
	return nil
}
