package ptx

import (
	"github.com/smsim/smsim/isa"
)

// asyncStore lowers st.async and red.async: a store (or reduction) into
// shared::cluster memory that completes tx bytes on an mbarrier there. A
// CTA is a cluster of one, so the target is its own shared memory (mapa of
// another rank traps) and the operation is the store followed by the
// barrier's complete_tx.
func (l *lowerer) asyncStore(in *Instr, m *mods) error {
	red := in.Op == "red"
	x := isa.Instr{Op: isa.OpSt}
	if red {
		x.Op = isa.OpRed
	}
	x.Sem, x.Scope = semScope(m)
	if sp, _ := space(m); sp != isa.Cluster {
		return l.unsupported("%s.async outside .shared::cluster", in.Op)
	}
	x.Space = isa.Cluster
	if !m.take("mbarrier::complete_tx::bytes") {
		return l.unsupported("missing .mbarrier::complete_tx::bytes")
	}
	if red {
		x.Atom = atomOf(m)
		if x.Atom == isa.AtomNone {
			return l.unsupported("missing operation")
		}
	}
	x.Vec = uint8(vec(m))
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if err := l.checkVector(int(x.Vec), t); err != nil {
		return err
	}
	x.Type = t
	if err := l.nops(in, 3); err != nil {
		return err
	}
	a, err := l.mem(in.Operands[0], isa.Cluster)
	if err != nil {
		return err
	}
	if err := l.memData(&x, a, in.Operands[1]); err != nil {
		return err
	}
	bar, err := l.mem(in.Operands[2], isa.Cluster)
	if err != nil {
		return err
	}
	l.emit(x)
	bytes := uint64(t.Bytes()) * uint64(x.Vec)
	l.emit(isa.Instr{Op: isa.OpMbarCompleteTx, Type: isa.B64, Space: isa.Cluster, Flags: isa.FRemote,
		Ops: []isa.Operand{bar, isa.Imm(bytes)}})
	return nil
}

// atomOf consumes an atomic operation modifier.
func atomOf(m *mods) isa.AtomOp {
	for name, op := range atomOps {
		if m.take(name) {
			return op
		}
	}
	return isa.AtomNone
}
