package ptx

import (
	"github.com/smsim/smsim/isa"
)

// misc lowers fences, prefetches, cache-policy and scheduling hints, and
// nanosleep. Hints that change no result become nops (which still issue).
func (l *lowerer) misc(in *Instr, m *mods) error {
	switch in.Op {
	case "fence", "membar":
		return l.fence(in, m)
	case "prefetch", "prefetchu":
		return l.prefetch(in, m)
	case "createpolicy":
		return l.createpolicy(in, m)
	case "nanosleep":
		if _, err := l.typ(m); err != nil {
			return err
		}
		if err := l.nops(in, 1); err != nil {
			return err
		}
		a, err := l.val(in.Operands[0], isa.U32)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpNanosleep, Ops: []isa.Operand{a}})
		return nil
	case "griddepcontrol":
		if m.takeAny("launch_dependents", "wait") == "" {
			return l.unsupported("missing .launch_dependents or .wait")
		}
		l.emit(isa.Instr{Op: isa.OpGriddepctl})
		return l.nops(in, 0)
	case "setmaxnreg":
		// Register reallocation between warpgroups: no effect on a simulator
		// whose registers are not a shared resource; the count is checked
		// as the ISA constrains it (24 to 256, a multiple of 8).
		if m.takeAny("inc", "dec") == "" || !m.take("sync") || !m.take("aligned") {
			return l.errf("setmaxnreg needs .inc or .dec and .sync.aligned")
		}
		m.types()
		if err := l.nops(in, 1); err != nil {
			return err
		}
		if n, ok := in.Operands[0].(*Imm); !ok || n.Kind != ImmInt || n.Int < 24 || n.Int > 256 || n.Int%8 != 0 {
			return l.errf("setmaxnreg takes a constant register count from 24 to 256, a multiple of 8, found %s", in.Operands[0])
		}
		l.emit(isa.Instr{Op: isa.OpNop})
		return nil
	}
	// discard, applypriority, pmevent: cache and profiler hints.
	for range m.list {
		m.takeAny("global", "L2", "L2::evict_normal", "mask")
	}
	l.emit(isa.Instr{Op: isa.OpNop})
	return nil
}

// fence lowers fence.* and membar.* to a timing-only fence.
func (l *lowerer) fence(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpFence}
	x.Sem, x.Scope = semScope(m)
	if in.Op == "membar" {
		switch m.takeAny("cta", "gl", "sys") {
		case "cta":
			x.Scope = isa.ScopeCTA
		case "gl":
			x.Scope = isa.ScopeGPU
		case "sys":
			x.Scope = isa.ScopeSys
		}
	}
	if m.take("proxy") {
		switch m.takeAny("async", "async::generic", "alias", "tensormap::generic") {
		case "async", "async::generic":
			x.Flags |= isa.FProxyAsync
		case "tensormap::generic":
			x.Flags |= isa.FProxyTensormap
		case "alias":
		default:
			return l.unsupported("unknown proxy")
		}
		x.Space, _ = space(m)
	}
	if m.take("mbarrier_init") {
		x.Flags |= isa.FMbarInitFence
	}
	m.take("op_restrict")
	m.takePrefix("sync_restrict::")
	for _, o := range in.Operands {
		v, err := l.fenceOperand(o)
		if err != nil {
			return err
		}
		x.Ops = append(x.Ops, v)
	}
	l.emit(x)
	return nil
}

func (l *lowerer) fenceOperand(o Operand) (isa.Operand, error) {
	if _, ok := o.(*Addr); ok {
		return l.mem(o, isa.Generic)
	}
	return l.val(o, isa.U32)
}

// prefetch lowers prefetch{.space}.level [a] (.L1::32B.valid_addr too) and
// prefetch.tensormap [a].
func (l *lowerer) prefetch(in *Instr, m *mods) error {
	x := isa.Instr{Op: isa.OpPrefetch}
	x.Space, _ = space(m)
	level := m.takeAny("L1", "L2", "tensormap", "L1::32B")
	if level == "" && len(m.takePrefix("L2::")) == 0 {
		return l.unsupported("missing level")
	}
	m.takePrefix("L2::")
	if level == "L1::32B" {
		m.take("valid_addr") // a 32-byte L1 prefetch of an address known to be valid
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

// createpolicy lowers createpolicy.* d, ...: the policy is an opaque value
// consumed only by cache hints, which change no result; it becomes 0.
func (l *lowerer) createpolicy(in *Instr, m *mods) error {
	m.takeAny("fractional", "range", "cvt")
	m.takePrefix("L2::")
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if len(in.Operands) < 1 {
		return l.nops(in, 2)
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return err
	}
	l.emit(isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{d, isa.Imm(0)}})
	return nil
}
