package sass

import "github.com/smsim/smsim/isa"

// The thread-block cluster's forms, as cluster_probe.cu's PTX twins show
// them (testdata/cluster):
//
//	UCGABAR_ARV    barrier.cluster.arrive; .release when the fence group
//	               before it holds MEMBAR.ALL.GPU (ptxas's release), else .relaxed
//	UCGABAR_WAIT   barrier.cluster.wait.acquire (CCTL.IVALL after it is the acquire's)
//	CGAERRBAR      the cluster's error barrier before a cluster barrier or a
//	               remote arrive: an ordering point, like ERRBAR
//	SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [a], RZ   mbarrier.arrive.shared::cluster
//	               on the barrier a names, of any CTA of the cluster
//
// A shared::cluster address is a shared address whose bits 24 and up hold
// the CTA's rank (isa.Program.RankedShared): ptxas builds mapa from
// SR_CgaCtaId (the rank) with ULEA/UPRMT, so no instruction of its own
// stands for it.

// lowerClusterBarrier: UCGABAR_ARV and UCGABAR_WAIT.
func lowerClusterBarrier(l *lowerer) error {
	if err := l.mods(); err != nil {
		return err
	}
	if err := l.nops(0); err != nil {
		return err
	}
	if l.in.Op == "UCGABAR_WAIT" {
		l.set(isa.OpClusterWait, isa.TNone, 0)
		l.out.Sem = isa.SemAcquire
	} else {
		l.set(isa.OpClusterArrive, isa.TNone, 0)
		l.out.Sem = isa.SemRelaxed
		if l.releasedBefore() {
			l.out.Sem = isa.SemRelease
		}
	}
	l.out.Scope = isa.ScopeCluster
	l.out.Flags |= isa.FAligned
	l.out.Class = isa.ClassBar
	return nil
}

// releasedBefore reports whether the fence group just before the
// instruction (MEMBAR, ERRBAR, CGAERRBAR, in the same guard) holds a
// GPU- or system-scope MEMBAR: the release ptxas emits for a .release
// operation at cluster scope (barrier.cluster.arrive's default,
// mbarrier.arrive.release.cluster). The operation carries it, as its PTX
// twin does: the SM times a cluster release (cluster.release) there.
func (l *lowerer) releasedBefore() bool {
	ins := l.fn.Instructions
	for i := l.idx - 1; i >= 0; i-- {
		p := &ins[i]
		if p.Guard != l.in.Guard {
			return false
		}
		switch p.Op {
		case "ERRBAR", "CGAERRBAR":
			continue
		case "MEMBAR":
			if p.HasMod("GPU") || p.HasMod("SYS") {
				return true
			}
			continue
		}
		return false
	}
	return false
}

// remoteArrive lowers SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [a], RZ: an
// arrival of one on the barrier at shared::cluster address a, which may be
// another CTA's; it returns no state.
func (l *lowerer) remoteArrive() error {
	if err := l.nops(3); err != nil {
		return err
	}
	ops := l.in.Operands
	if d := &ops[0]; !(d.Kind == KindReg && d.Reg.IsZero()) {
		return l.unsupported("SYNCS.ARRIVE.TRANS64.RED.A1T0 that returns a state")
	}
	tok, err := l.dst(&ops[0], true)
	if err != nil {
		return err
	}
	if c := &ops[2]; !(c.Kind == KindReg && c.Reg.IsZero()) {
		return l.unsupported("SYNCS.ARRIVE.TRANS64.RED.A1T0 with a count")
	}
	a, err := l.mem(&ops[1], false)
	if err != nil {
		return err
	}
	l.set(isa.OpMbarArrive, isa.B64, 1, tok, a)
	l.out.Flags |= isa.FRemote
	l.out.Scope = isa.ScopeCluster
	l.out.Sem = isa.SemRelaxed
	if l.releasedBefore() {
		l.out.Sem = isa.SemRelease
	}
	l.out.Space = isa.Cluster
	l.out.Class = isa.ClassSyncs
	return nil
}
