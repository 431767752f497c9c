package ptx

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// planShared lays out the kernel's shared memory before any instruction is
// lowered: the static variables of the kernel, of every device function it
// can call and of the module (those it names), in that order of discovery,
// then the dynamic region at the aligned end. Knowing the dynamic region's
// offset up front lets `mov %r, dynsmem` become a plain immediate.
func (l *lowerer) planShared(f *Func) error {
	seen := map[*Func]bool{}
	needRed := false
	var err error
	var visit func(fn *Func)
	visit = func(fn *Func) {
		if fn == nil || fn.Body == nil || seen[fn] || err != nil {
			return
		}
		seen[fn] = true
		fn.Body.Walk(func(s Stmt) {
			switch x := s.(type) {
			case *VarDecl:
				err = firstErr(err, l.planVar(x))
			case *Instr:
				needRed = needRed || ((x.Op == "bar" || x.Op == "barrier") && x.HasMod("red"))
				for _, name := range symbolNames(x.Operands) {
					if d := l.mod.Decl(name); d != nil {
						err = firstErr(err, l.planVar(d))
					}
					if x.Op == "call" {
						visit(l.mod.Func(name))
					}
				}
			}
		})
	}
	visit(f)
	if err != nil {
		return err
	}
	if needRed { // scratch words for bar.red (see barRed)
		d := &VarDecl{Pos: f.Pos, Space: "shared", Align: 4, Type: "b32", Name: "__bar_red", Array: []int{barRedSlots}}
		if l.barRedScratch, err = l.placeShared(d); err != nil {
			return err
		}
	}
	l.planned = true
	l.dynBase = uint64(l.prog.DynSmemBase())
	return nil
}

// planVar places one shared declaration (static) or notes its alignment (extern).
func (l *lowerer) planVar(d *VarDecl) error {
	if space, _, _ := strings.Cut(d.Space, "::"); space != "shared" {
		return nil
	}
	if d.Linkage == "extern" {
		if a := varAlign(d); a > l.prog.DynSmemAlign {
			l.prog.DynSmemAlign = a
		}
		if l.dynName == "" {
			l.dynName = d.Name
		}
		return nil
	}
	_, err := l.placeShared(d)
	return err
}

func firstErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// symbolNames lists the symbol names an instruction's operands mention.
func symbolNames(ops []Operand) []string {
	var out []string
	var visit func(o Operand)
	visit = func(o Operand) {
		switch x := o.(type) {
		case *Sym:
			out = append(out, x.Name)
		case *Addr:
			if x.Base != nil {
				visit(x.Base)
			}
			for _, c := range x.Coords {
				visit(c)
			}
		case *Vector:
			for _, e := range x.Elems {
				visit(e)
			}
		case *List:
			for _, e := range x.Elems {
				visit(e)
			}
		case *Pair:
			visit(x.A)
			visit(x.B)
		case *Not:
			visit(x.X)
		}
	}
	for _, o := range ops {
		visit(o)
	}
	return out
}

// varAddr returns the address of variable e in its own state space (for
// .const: the offset from isa.ConstDataBase).
func (l *lowerer) varAddr(e *entity) (uint64, error) {
	switch {
	case e.space == badSpace:
		return 0, l.unsupported("variable %s is in the .%s state space", e.decl.Name, e.decl.Space)
	case e.dynamic:
		return l.dynBase, nil
	case e.space == isa.Shared:
		return l.placeShared(e.decl)
	case e.space == isa.Const:
		return e.addr - isa.ConstDataBase, nil
	}
	return e.addr, nil
}
