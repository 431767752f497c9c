package ptx

import (
	"github.com/smsim/smsim/isa"
)

// regRef is a resolved register operand.
type regRef struct {
	e   *entity
	reg int32
}

// resolveReg resolves a register name (with an optional vector component)
// in the current scope. Special registers are not handled here.
func (l *lowerer) resolveReg(r *Reg) (regRef, error) {
	e, i := l.sc.lookup(r.Name)
	if e == nil {
		return regRef{}, errAt(r.Pos, "undefined register %s", r.Name)
	}
	if e.kind != entReg {
		return regRef{}, errAt(r.Pos, "%s is not a register", r.Name)
	}
	vec := max(e.decl.Vec, 1)
	comp := 0
	if r.Comp != "" {
		c, ok := vecComp(r.Comp)
		if !ok || c >= vec || e.decl.Vec == 0 {
			return regRef{}, errAt(r.Pos, "bad register component %s", r.String())
		}
		comp = c
	} else if e.decl.Vec > 1 {
		return regRef{}, errAt(r.Pos, "vector register %s used without a component", r.Name)
	}
	reg, err := l.regOf(e, i*vec+comp, r.String())
	return regRef{e: e, reg: reg}, err
}

// vecComp maps a vector component name to its index.
func vecComp(c string) (int, bool) {
	switch c {
	case "x", "r":
		return 0, true
	case "y", "g":
		return 1, true
	case "z", "b":
		return 2, true
	case "w", "a":
		return 3, true
	}
	return 0, false
}

// special resolves a special register such as %tid.x.
func (l *lowerer) special(r *Reg) (isa.Operand, error) {
	if r.String() == "%current_graph_exec" {
		// The CUDA device graph being executed: 0 for a kernel that is not
		// part of one (PTX ISA), as smsim's launches are not.
		return isa.Imm(0), nil
	}
	s, ok := isa.ParseSpecial(r.String())
	if !ok {
		return isa.Operand{}, errAt(r.Pos, "unsupported special register %s", r.String())
	}
	return isa.Spec(s), nil
}

// val converts a source operand of an instruction of type t: a general or
// special register, an immediate (converted to t's format) or the address
// of a variable in its own state space.
func (l *lowerer) val(o Operand, t isa.Type) (isa.Operand, error) {
	switch x := o.(type) {
	case *Reg:
		if x.Special {
			return l.special(x)
		}
		rr, err := l.resolveReg(x)
		if err != nil {
			return isa.Operand{}, err
		}
		if rr.e.pred {
			return isa.Operand{}, errAt(x.Pos, "predicate %s used where a value is expected", x.Name)
		}
		return isa.R(int(rr.reg)), nil
	case *Imm:
		b, err := immBits(x, t, x.Pos)
		return isa.Imm(b), err
	case *Sym:
		a, err := l.symValue(x)
		return isa.Imm(a), err
	case *Sink:
		return isa.Operand{}, errAt(x.Pos, "'_' used where a value is expected")
	}
	return isa.Operand{}, errAt(o.Position(), "expected a register or immediate, found %s", o.String())
}

// symValue is the value of a symbol operand: the address of a variable in
// its own state space, plus the symbol's offset.
func (l *lowerer) symValue(s *Sym) (uint64, error) {
	e, _ := l.sc.lookup(s.Name)
	if e == nil {
		if l.sc.label(s.Name) != nil {
			return 0, errAt(s.Pos, "label %s used as a value", s.Name)
		}
		return 0, errAt(s.Pos, "undefined symbol %s", s.Name)
	}
	switch e.kind {
	case entVar:
		a, err := l.varAddr(e)
		return a + uint64(s.Offset), err
	case entParam:
		return e.addr + uint64(s.Offset), nil
	case entFunc:
		return 0, l.unsupported("address of function %s (indirect calls)", s.Name)
	case entSlot:
		return 0, l.unsupported("address of call parameter %s", s.Name)
	}
	return 0, errAt(s.Pos, "%s cannot be used as a value", s.Name)
}

// dst converts a general-register destination (or the sink "_").
func (l *lowerer) dst(o Operand) (isa.Operand, error) {
	switch x := o.(type) {
	case *Sink:
		return isa.Sink(), nil
	case *Reg:
		if x.Special {
			return isa.Operand{}, errAt(x.Pos, "special register %s is read-only", x.String())
		}
		rr, err := l.resolveReg(x)
		if err != nil {
			return isa.Operand{}, err
		}
		if rr.e.pred {
			return isa.Operand{}, errAt(x.Pos, "predicate %s used where a register destination is expected", x.Name)
		}
		return isa.R(int(rr.reg)), nil
	}
	return isa.Operand{}, errAt(o.Position(), "expected a destination register, found %s", o.String())
}

// dstVals checks that in has a destination and one source per type, and
// lowers them: [dst, src1, ...].
func (l *lowerer) dstVals(in *Instr, types ...isa.Type) ([]isa.Operand, error) {
	if err := l.nops(in, 1+len(types)); err != nil {
		return nil, err
	}
	d, err := l.dst(in.Operands[0])
	if err != nil {
		return nil, err
	}
	ops := make([]isa.Operand, 1, 1+len(types))
	ops[0] = d
	for i, t := range types {
		v, err := l.val(in.Operands[1+i], t)
		if err != nil {
			return nil, err
		}
		ops = append(ops, v)
	}
	return ops, nil
}

// pdst converts a predicate destination (or the sink "_").
func (l *lowerer) pdst(o Operand) (isa.Operand, error) {
	switch x := o.(type) {
	case *Sink:
		return isa.Sink(), nil
	case *Reg:
		if !x.Special {
			rr, err := l.resolveReg(x)
			if err != nil {
				return isa.Operand{}, err
			}
			if rr.e.pred {
				return isa.P(int(rr.reg)), nil
			}
		}
	}
	return isa.Operand{}, errAt(o.Position(), "expected a predicate destination, found %s", o.String())
}

// psrc converts a predicate source: p, !p, or an integer immediate, false
// when zero and true otherwise (nvcc negates a predicate with
// `xor.pred p, p, -1`, as libcu++'s barrier wait loop compiles).
func (l *lowerer) psrc(o Operand) (isa.Operand, error) {
	switch x := o.(type) {
	case *Not:
		p, err := l.psrc(x.X)
		if err != nil || p.Kind != isa.KPred {
			return isa.Operand{}, errAt(o.Position(), "expected a predicate after '!', found %s", x.X.String())
		}
		p.Neg = !p.Neg
		return p, nil
	case *Imm:
		if x.Kind == ImmInt {
			if x.Int != 0 {
				return isa.Imm(1), nil
			}
			return isa.Imm(0), nil
		}
	case *Reg:
		if !x.Special {
			rr, err := l.resolveReg(x)
			if err != nil {
				return isa.Operand{}, err
			}
			if rr.e.pred {
				return isa.P(int(rr.reg)), nil
			}
		}
	}
	return isa.Operand{}, errAt(o.Position(), "expected a predicate, found %s", o.String())
}

// regWidth is the declared width in bits of the register operand o (0 when
// o is not a plain register).
func (l *lowerer) regWidth(o Operand) int {
	r, ok := o.(*Reg)
	if !ok || r.Special {
		return 0
	}
	e, _ := l.sc.lookup(r.Name)
	if e == nil || e.kind != entReg {
		return 0
	}
	return e.typ.Bits()
}

// mem converts a memory operand [base+off] of an instruction whose state
// space is sp. A variable's address is taken in sp (a generic access to a
// shared, local or parameter variable uses the variable's generic window).
func (l *lowerer) mem(o Operand, sp isa.Space) (isa.Operand, error) {
	a, ok := o.(*Addr)
	if !ok {
		return isa.Operand{}, errAt(o.Position(), "expected a memory operand [address], found %s", o.String())
	}
	if len(a.Coords) > 0 {
		return isa.Operand{}, errAt(a.Pos, "unexpected tensor coordinates in %s", a.String())
	}
	switch b := a.Base.(type) {
	case nil:
		return isa.Addr(-1, a.Offset), nil
	case *Reg:
		if b.Special {
			return isa.Operand{}, errAt(b.Pos, "special register %s used as an address", b.String())
		}
		rr, err := l.resolveReg(b)
		if err != nil {
			return isa.Operand{}, err
		}
		if rr.e.pred {
			return isa.Operand{}, errAt(b.Pos, "predicate %s used as an address", b.Name)
		}
		return isa.Addr(int(rr.reg), a.Offset), nil
	case *Sym:
		v, err := l.symIn(b, sp)
		return isa.Addr(-1, int64(v)+a.Offset), err
	}
	return isa.Operand{}, errAt(a.Pos, "bad address %s", a.String())
}

// symIn is the address of variable s as an access in space sp sees it.
func (l *lowerer) symIn(s *Sym, sp isa.Space) (uint64, error) {
	e, _ := l.sc.lookup(s.Name)
	if e == nil {
		return 0, errAt(s.Pos, "undefined symbol %s", s.Name)
	}
	v, err := l.symValue(s)
	if err != nil {
		return 0, err
	}
	own := e.space
	if e.kind == entParam {
		own = isa.ParamSpace
	}
	switch {
	case sp == own || (sp == isa.Cluster && own == isa.Shared):
		return v, nil
	case sp == isa.Generic:
		return toGeneric(own, v), nil
	}
	return 0, errAt(s.Pos, "%s is a .%s variable, accessed as .%s", s.Name, own, sp)
}

// toGeneric converts an address in space sp to a generic address.
func toGeneric(sp isa.Space, v uint64) uint64 {
	switch sp {
	case isa.Shared, isa.Cluster:
		return isa.SharedWindow + v
	case isa.Local:
		return isa.LocalWindow + v
	case isa.ParamSpace:
		return isa.ParamWindow + v
	case isa.Const:
		return isa.ConstDataBase + v
	}
	return v
}
