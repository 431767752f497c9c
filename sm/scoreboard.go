package sm

import (
	"slices"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
)

// The issue stage's register scoreboard, for programs that carry no
// schedule of their own (PTX and .sms; a Scheduled SASS program issues by
// its control bits' scoreboards instead, ctrl_issue.go). Each warp keeps,
// per general register and then per predicate (its scoreboard entries),
// when the value is ready, what it waits for until then (the stall reason
// of a warp reading it), and the datapath that produced it: a result that
// crosses into or out of the MUFU unit is usable latency.mufu_forward
// later (pipes.go). An instruction issues when every entry it reads or
// writes is ready.

// regBoard is one warp's register scoreboard.
type regBoard struct {
	ent   []sbEntry // per general register, then per predicate
	npreg int32     // the entry of predicate 0: after the general registers
}

// sbEntry is one scoreboard entry: its fields side by side, so that the
// readiness check of an operand reads one place.
type sbEntry struct {
	at   sim.Cycle // when its value is ready
	why  Reason    // what a warp waiting for it waits for
	path uint8     // the datapath that produced it (pathNone: not forwarded)
}

// newRegBoard returns the scoreboard of a program of regs general
// registers and preds predicates, every entry ready.
func newRegBoard(regs, preds int) regBoard {
	return regBoard{ent: make([]sbEntry, regs+preds), npreg: int32(regs)}
}

// boardPool keeps the scoreboards of retired warps for the warps that
// start after them (as warp.Files keeps their register files).
type boardPool [][]sbEntry

// get returns a scoreboard of regs general registers and preds
// predicates, every entry ready: a retired warp's, cleared, when it is
// large enough.
func (p *boardPool) get(regs, preds int) regBoard {
	n := len(*p)
	if n == 0 || cap((*p)[n-1]) < regs+preds {
		return newRegBoard(regs, preds)
	}
	ent := (*p)[n-1][:regs+preds]
	*p = (*p)[:n-1]
	clear(ent)
	return regBoard{ent: ent, npreg: int32(regs)}
}

// put gives a retired warp's scoreboard to the pool.
func (p *boardPool) put(b *regBoard) {
	*p = append(*p, b.ent)
	b.ent = nil
}

// predEntry is the entry of predicate register r.
func (b *regBoard) predEntry(r int32) int32 { return b.npreg + r }

// set marks destination d ready at cycle at, produced for reason why on no
// forwarded datapath. It returns the entry of a predicate it set (-1: d is
// not a predicate).
func (b *regBoard) set(d *isa.Operand, at sim.Cycle, why Reason) int32 {
	switch d.Kind {
	case isa.KReg:
		b.ent[d.Reg] = sbEntry{at: at, why: why, path: pathNone}
		if d.Mod.Has(isa.MPair) {
			b.ent[d.Reg+1] = sbEntry{at: at, why: why, path: pathNone}
		}
	case isa.KPred:
		i := b.predEntry(d.Reg)
		b.ent[i] = sbEntry{at: at, why: why, path: pathNone}
		return i
	}
	return -1
}

// setPaths records that the destinations of in were produced on datapath p.
func (b *regBoard) setPaths(in *isa.Instr, p uint8) {
	for i := 0; i < int(in.NDst); i++ {
		switch d := in.Dst(i); d.Kind {
		case isa.KReg:
			b.ent[d.Reg].path = p
		case isa.KPred:
			b.ent[b.predEntry(d.Reg)].path = p
		}
	}
}

// readyAt returns when every entry of entries is ready for an instruction
// on datapath path, and what the latest of them waits for: a value that
// crosses into or out of the MUFU unit arrives forward cycles late.
func (b *regBoard) readyAt(entries []int32, path uint8, forward sim.Cycle) (sim.Cycle, Reason) {
	var r sim.Cycle
	why := ReasonWait
	ent := b.ent          // loaded once, not at every entry
	if path == pathNone { // nothing is forwarded to it
		for _, idx := range entries {
			if e := &ent[idx]; e.at > r {
				r, why = e.at, e.why
			}
		}
		return r, why
	}
	other := pathArith + pathMUFU - path // the datapath whose results reach path late
	for _, idx := range entries {
		e := &ent[idx]
		at := e.at
		if e.path == other && at < sim.Never {
			at += forward // into or out of the MUFU unit
		}
		if at > r {
			r, why = at, e.why
		}
	}
	return r, why
}

// setReady marks destination d ready at cycle at, produced for reason why.
func (s *SM) setReady(wc *wctx, d *isa.Operand, at sim.Cycle, why Reason) {
	if i := wc.set(d, at, why); i >= 0 && len(wc.predDue) > 0 {
		wc.dropPredDue(i)
	}
}

// dstReady marks every destination of in ready at cycle at.
func (s *SM) dstReady(wc *wctx, in *isa.Instr, at sim.Cycle, why Reason) {
	for i := 0; i < int(in.NDst); i++ {
		s.setReady(wc, &in.Ops[i], at, why)
	}
	wc.depPC = -1
	if at > wc.resultAt { // what a scoreboard of a Scheduled program waits for (writeItem)
		wc.resultAt, wc.resultWhy = at, why
	}
}

// scoreboardEntries lists, per instruction of p, the scoreboard entries
// (general registers, then predicates after NumRegs) of its guard and
// operands, sources and destinations alike, in operand order, each once:
// the readiness check takes the latest of them (the first on a tie), which
// a repeated entry cannot change.
func scoreboardEntries(p *isa.Program) [][]int32 {
	deps := make([][]int32, len(p.Instrs))
	var flat []int32
	starts := make([]int, len(p.Instrs)+1)
	for i := range p.Instrs {
		in := &p.Instrs[i]
		starts[i] = len(flat)
		put := func(e int32) {
			if !slices.Contains(flat[starts[i]:], e) {
				flat = append(flat, e)
			}
		}
		add := func(o *isa.Operand) {
			switch {
			case o.Kind == isa.KReg, o.Kind == isa.KAddr && o.Reg >= 0, o.Kind == isa.KConst && o.Reg >= 0:
				put(o.Reg)
				if o.Mod.Has(isa.MPair) && o.Kind != isa.KConst { // a SASS register pair
					put(o.Reg + 1)
				}
			case o.Kind == isa.KPred:
				put(int32(p.NumRegs) + o.Reg)
			}
			if o.Mod.Has(isa.MIndex) {
				put(o.Index)
			}
		}
		add(&in.Guard)
		for k := range in.Ops {
			add(&in.Ops[k])
		}
	}
	starts[len(p.Instrs)] = len(flat)
	for i := range deps {
		deps[i] = flat[starts[i]:starts[i+1]:starts[i+1]]
	}
	return deps
}
