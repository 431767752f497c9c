package ptx

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// mods is the modifier list of one instruction (the dot-separated parts
// after the opcode). Handlers take the modifiers they understand; whatever
// is left makes the instruction unsupported, so no modifier is ever
// silently ignored.
type mods struct {
	list []string
	used []bool
}

func newMods(in *Instr) *mods { return &mods{list: in.Mods, used: make([]bool, len(in.Mods))} }

// take consumes modifier s and reports whether it was present.
func (m *mods) take(s string) bool {
	for i, x := range m.list {
		if x == s && !m.used[i] {
			m.used[i] = true
			return true
		}
	}
	return false
}

// takeAny consumes the first of ss present and returns it ("" if none).
func (m *mods) takeAny(ss ...string) string {
	for i, x := range m.list {
		if m.used[i] {
			continue
		}
		for _, s := range ss {
			if x == s {
				m.used[i] = true
				return s
			}
		}
	}
	return ""
}

// takePrefix consumes every modifier starting with prefix and returns them.
func (m *mods) takePrefix(prefix string) []string {
	var out []string
	for i, x := range m.list {
		if !m.used[i] && strings.HasPrefix(x, prefix) {
			m.used[i] = true
			out = append(out, x)
		}
	}
	return out
}

// types consumes every type modifier, in order.
func (m *mods) types() []isa.Type {
	var out []isa.Type
	for i, x := range m.list {
		if m.used[i] {
			continue
		}
		if t, ok := isa.ParseType(x); ok {
			m.used[i] = true
			out = append(out, t)
		}
	}
	return out
}

// rest lists the modifiers nobody took.
func (m *mods) rest() []string {
	var out []string
	for i, x := range m.list {
		if !m.used[i] {
			out = append(out, "."+x)
		}
	}
	return out
}

// typ consumes exactly one type modifier.
func (l *lowerer) typ(m *mods) (isa.Type, error) {
	ts := m.types()
	if len(ts) != 1 {
		return isa.TNone, l.unsupported("want one type modifier, found %d", len(ts))
	}
	return ts[0], nil
}

// typ2 consumes exactly two type modifiers (destination, source).
func (l *lowerer) typ2(m *mods) (isa.Type, isa.Type, error) {
	ts := m.types()
	if len(ts) != 2 {
		return isa.TNone, isa.TNone, l.unsupported("want two type modifiers, found %d", len(ts))
	}
	return ts[0], ts[1], nil
}

// rounding consumes a floating-point or integer rounding modifier.
func rounding(m *mods) isa.Rounding {
	switch m.takeAny("rn", "rz", "rm", "rp", "rna", "rni", "rzi", "rmi", "rpi") {
	case "rn":
		return isa.RN
	case "rz":
		return isa.RZ
	case "rm":
		return isa.RM
	case "rp":
		return isa.RP
	case "rna":
		return isa.RNA
	case "rni":
		return isa.RNI
	case "rzi":
		return isa.RZI
	case "rmi":
		return isa.RMI
	case "rpi":
		return isa.RPI
	}
	return isa.RNone
}

// cmpOps maps PTX comparison modifiers to isa comparisons.
func cmpOf(s string) isa.CmpOp {
	switch s {
	case "eq":
		return isa.CmpEq
	case "ne":
		return isa.CmpNe
	case "lt":
		return isa.CmpLt
	case "le":
		return isa.CmpLe
	case "gt":
		return isa.CmpGt
	case "ge":
		return isa.CmpGe
	case "lo":
		return isa.CmpLo
	case "ls":
		return isa.CmpLs
	case "hi":
		return isa.CmpHi
	case "hs":
		return isa.CmpHs
	case "equ":
		return isa.CmpEqu
	case "neu":
		return isa.CmpNeu
	case "ltu":
		return isa.CmpLtu
	case "leu":
		return isa.CmpLeu
	case "gtu":
		return isa.CmpGtu
	case "geu":
		return isa.CmpGeu
	case "num":
		return isa.CmpNum
	case "nan":
		return isa.CmpNan
	}
	return isa.CmpNone
}

// cmp consumes a comparison modifier.
func cmp(m *mods) isa.CmpOp {
	for i, x := range m.list {
		if c := cmpOf(x); c != isa.CmpNone && !m.used[i] {
			m.used[i] = true
			return c
		}
	}
	return isa.CmpNone
}

// boolOp consumes an .and/.or/.xor combiner.
func boolOp(m *mods) isa.BoolOp {
	switch m.takeAny("and", "or", "xor") {
	case "and":
		return isa.BoolAnd
	case "or":
		return isa.BoolOr
	case "xor":
		return isa.BoolXor
	}
	return isa.BoolNone
}

// semScope consumes memory-ordering and scope modifiers.
func semScope(m *mods) (isa.Sem, isa.Scope) {
	var sem isa.Sem
	switch m.takeAny("weak", "relaxed", "acquire", "release", "acq_rel", "sc", "volatile", "mmio") {
	case "weak":
		sem = isa.SemWeak
	case "relaxed", "mmio":
		sem = isa.SemRelaxed
	case "acquire":
		sem = isa.SemAcquire
	case "release":
		sem = isa.SemRelease
	case "acq_rel":
		sem = isa.SemAcqRel
	case "sc":
		sem = isa.SemSC
	case "volatile":
		sem = isa.SemVolatile
	}
	var sc isa.Scope
	switch m.takeAny("cta", "cluster", "gpu", "sys") {
	case "cta":
		sc = isa.ScopeCTA
	case "cluster":
		sc = isa.ScopeCluster
	case "gpu":
		sc = isa.ScopeGPU
	case "sys":
		sc = isa.ScopeSys
	}
	return sem, sc
}

// space consumes a state-space modifier; ok is false when none is given
// (the access is generic).
func space(m *mods) (isa.Space, bool) {
	switch m.takeAny("global", "shared", "shared::cta", "shared::cluster", "local", "const", "param",
		"param::entry", "param::func") {
	case "global":
		return isa.Global, true
	case "shared", "shared::cta":
		return isa.Shared, true
	case "shared::cluster":
		return isa.Cluster, true
	case "local":
		return isa.Local, true
	case "const":
		return isa.Const, true
	case "param", "param::entry", "param::func":
		return isa.ParamSpace, true
	}
	return isa.Generic, false
}

// cacheHints consumes cache-operator, eviction-priority and prefetch-size
// modifiers, which change timing on hardware but never results. It reports
// whether .L2::cache_hint (an extra cache-policy operand) was given.
func cacheHints(m *mods) bool {
	m.takeAny("ca", "cg", "cs", "lu", "cv", "wb", "wt")
	m.takePrefix("L1::")
	hint := false
	for _, x := range m.takePrefix("L2::") {
		hint = hint || x == "L2::cache_hint"
	}
	return hint
}

// vec consumes a .v2/.v4/.v8 modifier and returns the width (1 if none).
func vec(m *mods) int {
	switch m.takeAny("v2", "v4", "v8") {
	case "v2":
		return 2
	case "v4":
		return 4
	case "v8":
		return 8
	}
	return 1
}
