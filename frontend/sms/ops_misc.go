package sms

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// Bounds on the constant operands of the timing pseudo-operations.
const (
	maxCompute = 1 << 20
	maxDelay   = 1 << 30
)

// fullMask is the member mask of a whole warp.
const fullMask = 0xffffffff

// lookupMiscOp returns the timing, synchronisation and control operations.
func lookupMiscOp(base string) *opSpec {
	switch base {
	case "compute":
		return &opSpec{"compute N [latency L]", false, (*gen).opCompute}
	case "delay":
		return &opSpec{"delay N", false, (*gen).opDelay}
	case "nanosleep":
		return &opSpec{"nanosleep NS", false, (*gen).opNanosleep}
	case "syncthreads":
		return &opSpec{"syncthreads", false, (*gen).opSyncthreads}
	case "syncwarp":
		return &opSpec{"syncwarp [MASK]", false, (*gen).opSyncwarp}
	case "elect":
		return &opSpec{"elect [MASK]", true, (*gen).opElect}
	case "exit":
		return &opSpec{"exit", false, (*gen).opExit}
	case "fence":
		return &opSpec{"fence.proxy.async | fence.mbarrier_init", false, (*gen).opFence}
	}
	return nil
}

// opCompute lowers compute N [latency L] to the compute pseudo-op: N issue
// slots through the FMA pipe; the next instruction waits L cycles after the
// last slot (0 when omitted: independent instructions).
func (g *gen) opCompute(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	kws, err := g.shape(s, 1, 1, "latency")
	if err != nil {
		return err
	}
	n, err := g.constantIn(s.args[0].x, "the compute instruction count", 1, maxCompute)
	if err != nil {
		return err
	}
	lat := int64(0)
	if l := kws["latency"]; l != nil {
		if lat, err = g.constantIn(l, "the compute latency", 0, maxCompute); err != nil {
			return err
		}
	}
	g.emit(isa.Instr{Op: isa.OpCompute, Ops: []isa.Operand{isa.Imm(uint64(n)), isa.Imm(uint64(lat))}})
	return nil
}

// opDelay lowers delay N: the warp waits N cycles without issuing.
func (g *gen) opDelay(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	n, err := g.constantIn(s.args[0].x, "the delay in cycles", 0, maxDelay)
	g.emit(isa.Instr{Op: isa.OpDelay, Ops: []isa.Operand{isa.Imm(uint64(n))}})
	return err
}

func (g *gen) opNanosleep(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	if _, err := g.shape(s, 1, 1); err != nil {
		return err
	}
	ns, err := g.valArg(s.args[0], "a time in nanoseconds")
	g.emit(isa.Instr{Op: isa.OpNanosleep, Type: isa.U32, Ops: []isa.Operand{ns}})
	return err
}

// opSyncthreads lowers __syncthreads() to bar.sync 0.
func (g *gen) opSyncthreads(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	_, err := g.shape(s, 0, 0)
	g.emit(isa.Instr{Op: isa.OpBarSync, Ops: []isa.Operand{isa.Imm(0)}})
	return err
}

// maskArg lowers the optional member mask of syncwarp and elect.
func (g *gen) maskArg(s *opStmt) (isa.Operand, error) {
	if _, err := g.shape(s, 0, 1); err != nil {
		return isa.Operand{}, err
	}
	if len(s.args) == 0 {
		return isa.Imm(fullMask), nil
	}
	return g.valArg(s.args[0], "a member mask")
}

// opSyncwarp lowers __syncwarp(mask) to bar.warp.sync mask.
func (g *gen) opSyncwarp(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	m, err := g.maskArg(s)
	g.emit(isa.Instr{Op: isa.OpBarWarpSync, Type: isa.B32, Ops: []isa.Operand{m}})
	return err
}

// opElect lowers elect.sync _|p, mask; as a value it is 1 in the elected
// leader lane and 0 in the others.
func (g *gen) opElect(s *opStmt, mods []string, dst int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	m, err := g.maskArg(s)
	if err != nil {
		return err
	}
	p := g.preds.temp()
	g.emit(isa.Instr{Op: isa.OpElect, NDst: 2, Ops: []isa.Operand{isa.Sink(), isa.P(p), m}})
	if dst >= 0 {
		g.selp(dst, isa.P(p))
	}
	return nil
}

func (g *gen) opExit(s *opStmt, mods []string, _ int) error {
	if err := noMods(s, mods); err != nil {
		return err
	}
	_, err := g.shape(s, 0, 0)
	g.emit(isa.Instr{Op: isa.OpExit})
	return err
}

// opFence lowers fence.proxy.async (fence.proxy.async.shared::cta, after
// writing shared memory a bulk copy will read) and fence.mbarrier_init
// (fence.mbarrier_init.release.cluster, after init).
func (g *gen) opFence(s *opStmt, mods []string, _ int) error {
	in := isa.Instr{Op: isa.OpFence}
	switch strings.Join(mods, ".") {
	case "proxy.async":
		in.Flags, in.Space = isa.FProxyAsync, isa.Shared
	case "mbarrier_init":
		in.Flags, in.Sem, in.Scope = isa.FMbarInitFence, isa.SemRelease, isa.ScopeCluster
	default:
		return errAt(s.pos, "expected fence.proxy.async or fence.mbarrier_init, found %s", s.name)
	}
	_, err := g.shape(s, 0, 0)
	g.emit(in)
	return err
}
