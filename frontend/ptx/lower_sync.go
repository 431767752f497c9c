package ptx

import (
	"github.com/smsim/smsim/isa"
)

// Modes of the warp collectives, as sm/collective.go defines them.
const (
	voteAll, voteAny, voteUni, voteBallot = 0, 1, 2, 3
	shflUp, shflDown, shflBfly, shflIdx   = 0, 1, 2, 3
	matchAny, matchAll                    = 0, 1
)

// collective lowers vote, shfl, match, redux, activemask and elect.
func (l *lowerer) collective(in *Instr, m *mods) error {
	if in.Op == "activemask" {
		if _, err := l.typ(m); err != nil {
			return err
		}
		ops, err := l.dstVals(in)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpActivemask, Type: isa.B32, NDst: 1, Ops: ops})
		return nil
	}
	if !m.take("sync") {
		return l.unsupported("only the .sync form of %s is supported", in.Op)
	}
	switch in.Op {
	case "vote":
		return l.vote(in, m)
	case "shfl":
		return l.shfl(in, m)
	case "match":
		return l.match(in, m)
	case "redux":
		return l.redux(in, m)
	}
	return l.elect(in)
}

// vote lowers vote.sync.{all,any,uni}.pred and vote.sync.ballot.b32.
func (l *lowerer) vote(in *Instr, m *mods) error {
	modes := map[string]uint8{"all": voteAll, "any": voteAny, "uni": voteUni, "ballot": voteBallot}
	x := isa.Instr{Op: isa.OpVote, NDst: 1}
	mode := m.takeAny("all", "any", "uni", "ballot")
	if mode == "" {
		return l.unsupported("missing mode")
	}
	x.Mode = modes[mode]
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if (mode == "ballot") != (t == isa.B32) || (t != isa.B32 && t != isa.Pred) {
		return l.unsupported("vote.%s on .%s", mode, t)
	}
	x.Type = t
	if err := l.nops(in, 3); err != nil {
		return err
	}
	var d isa.Operand
	if t == isa.Pred {
		d, err = l.pdst(in.Operands[0])
	} else {
		d, err = l.dst(in.Operands[0])
	}
	if err != nil {
		return err
	}
	a, err := l.psrc(in.Operands[1])
	if err != nil {
		return err
	}
	mask, err := l.val(in.Operands[2], isa.B32)
	if err != nil {
		return err
	}
	x.Ops = []isa.Operand{d, a, mask}
	l.emit(x)
	return nil
}

// shfl lowers shfl.sync.mode.b32 d[|p], a, b, c, membermask.
func (l *lowerer) shfl(in *Instr, m *mods) error {
	modes := map[string]uint8{"up": shflUp, "down": shflDown, "bfly": shflBfly, "idx": shflIdx}
	mode := m.takeAny("up", "down", "bfly", "idx")
	if mode == "" {
		return l.unsupported("missing mode")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if t.Bits() != 32 {
		return l.unsupported("shfl on .%s", t)
	}
	if err := l.nops(in, 5); err != nil {
		return err
	}
	x := isa.Instr{Op: isa.OpShfl, Type: isa.B32, Mode: modes[mode], NDst: 1}
	if p, ok := in.Operands[0].(*Pair); ok {
		d, err := l.dst(p.A)
		if err != nil {
			return err
		}
		q, err := l.pdst(p.B)
		if err != nil {
			return err
		}
		x.Ops, x.NDst = []isa.Operand{d, q}, 2
	} else {
		d, err := l.dst(in.Operands[0])
		if err != nil {
			return err
		}
		x.Ops = []isa.Operand{d}
	}
	for _, o := range in.Operands[1:] {
		v, err := l.val(o, isa.B32)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// match lowers match.{any,all}.sync.type d[|p], a, membermask. The
// predicate of match.all (all lanes equal) is d != 0.
func (l *lowerer) match(in *Instr, m *mods) error {
	mode := m.takeAny("any", "all")
	if mode == "" {
		return l.unsupported("missing .any or .all")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if t.Bits() != 32 && t.Bits() != 64 || t.Float() {
		return l.unsupported("match on .%s", t)
	}
	if err := l.nops(in, 3); err != nil {
		return err
	}
	x := isa.Instr{Op: isa.OpMatch, Type: t, NDst: 1}
	if mode == "all" {
		x.Mode = matchAll
	}
	d, p, err := l.matchDsts(in.Operands[0], mode == "all")
	if err != nil {
		return err
	}
	a, err := l.val(in.Operands[1], t)
	if err != nil {
		return err
	}
	mask, err := l.val(in.Operands[2], isa.B32)
	if err != nil {
		return err
	}
	x.Ops = []isa.Operand{d, a, mask}
	l.emit(x)
	if p.Kind != isa.KNone {
		l.emit(isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{p, d, isa.Imm(0)}})
	}
	return nil
}

// matchDsts converts match's d or d|p (p only for match.all); a sink d
// becomes a scratch register.
func (l *lowerer) matchDsts(o Operand, all bool) (d, p isa.Operand, err error) {
	if pr, ok := o.(*Pair); ok {
		if !all {
			return d, p, l.errf("match.any has no predicate destination")
		}
		if p, err = l.pdst(pr.B); err != nil {
			return d, p, err
		}
		o = pr.A
	}
	if d, err = l.dst(o); err != nil || d.Kind != isa.KSink {
		return d, p, err
	}
	tmp, err := l.temp()
	return isa.R(int(tmp)), p, err
}

// redux lowers redux.sync.op.type d, a, membermask.
func (l *lowerer) redux(in *Instr, m *mods) error {
	ops := map[string]isa.AtomOp{"add": isa.AtomAdd, "min": isa.AtomMin, "max": isa.AtomMax,
		"and": isa.AtomAnd, "or": isa.AtomOr, "xor": isa.AtomXor}
	op := m.takeAny("add", "min", "max", "and", "or", "xor")
	if op == "" {
		return l.unsupported("missing operation")
	}
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if t.Bits() != 32 || t.Float() {
		return l.unsupported("redux on .%s", t)
	}
	vs, err := l.dstVals(in, t, isa.B32)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpRedux, Type: t, Atom: ops[op], NDst: 1, Ops: vs})
	return nil
}

// elect lowers elect.sync d|p, membermask.
func (l *lowerer) elect(in *Instr) error {
	if err := l.nops(in, 2); err != nil {
		return err
	}
	p, ok := in.Operands[0].(*Pair)
	if !ok {
		return l.errf("elect.sync needs destinations d|p, found %s", in.Operands[0].String())
	}
	d, err := l.dst(p.A)
	if err != nil {
		return err
	}
	q, err := l.pdst(p.B)
	if err != nil {
		return err
	}
	mask, err := l.val(in.Operands[1], isa.B32)
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpElect, Type: isa.B32, NDst: 2, Ops: []isa.Operand{d, q, mask}})
	return nil
}

// barrier lowers bar.* and barrier.*: CTA barriers (sync, arrive, red),
// bar.warp.sync and the cluster barrier of a cluster of one.
func (l *lowerer) barrier(in *Instr, m *mods) error {
	if in.Op == "bar" && m.take("warp") {
		if !m.take("sync") {
			return l.unsupported("bar.warp needs .sync")
		}
		if err := l.nops(in, 1); err != nil {
			return err
		}
		mask, err := l.val(in.Operands[0], isa.B32)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpBarWarpSync, Ops: []isa.Operand{mask}})
		return nil
	}
	if m.take("cluster") {
		return l.clusterBarrier(in, m)
	}
	m.take("cta")
	aligned := in.Op == "bar" || m.take("aligned")
	switch m.takeAny("sync", "arrive", "red") {
	case "sync":
		return l.barSync(in, isa.OpBarSync, aligned, 1)
	case "arrive":
		return l.barSync(in, isa.OpBarArrive, aligned, 2)
	case "red":
		return l.barRed(in, m)
	}
	if in.Op == "bar" && len(in.Mods) == 0 {
		return l.barSync(in, isa.OpBarSync, true, 1) // "bar 0" is bar.sync 0
	}
	return l.unsupported("missing .sync, .arrive or .red")
}

// barSync emits bar.sync/bar.arrive a[, b]; min is the fewest operands.
func (l *lowerer) barSync(in *Instr, op isa.Op, aligned bool, min int) error {
	if len(in.Operands) < min || len(in.Operands) > 2 {
		return l.errf("bad operand count: %s takes %d or 2 operands, found %d", in.Opcode(), min, len(in.Operands))
	}
	x := isa.Instr{Op: op}
	if aligned {
		x.Flags |= isa.FAligned
	}
	for _, o := range in.Operands {
		v, err := l.val(o, isa.U32)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

// clusterBarrier lowers barrier.cluster.arrive[.release|.relaxed] and
// barrier.cluster.wait[.acquire] (both optionally .aligned): the cluster's
// barrier, which the SMs of the cluster share.
func (l *lowerer) clusterBarrier(in *Instr, m *mods) error {
	sem := m.takeAny("release", "relaxed", "acquire")
	x := isa.Instr{Sem: isa.SemRelease, Scope: isa.ScopeCluster}
	if sem == "relaxed" {
		x.Sem = isa.SemRelaxed
	}
	if m.take("aligned") {
		x.Flags |= isa.FAligned
	}
	if err := l.nops(in, 0); err != nil {
		return err
	}
	switch m.takeAny("arrive", "wait") {
	case "arrive":
		if sem == "acquire" {
			return l.unsupported("barrier.cluster.arrive.acquire")
		}
		x.Op = isa.OpClusterArrive
		l.emit(x)
	case "wait":
		if sem != "" && sem != "acquire" {
			return l.unsupported("barrier.cluster.wait.%s", sem)
		}
		x.Op, x.Sem = isa.OpClusterWait, isa.SemAcquire
		l.emit(x)
	default:
		return l.unsupported("missing .arrive or .wait")
	}
	return nil
}
