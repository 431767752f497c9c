package ptx

import (
	"github.com/smsim/smsim/isa"
)

// binding is a move the caller makes after an inlined call returns: a
// result held by the callee's register or slot into the caller's register.
type binding struct {
	dst isa.Operand
	src int32
	typ isa.Type
}

// call inlines a direct call of a device function. Arguments and results
// passed through .param variables share the caller's slots; register
// arguments and results are copied. `ret` inside the callee branches to the
// end of the inlined body. A recursive function is inlined as many levels
// deep as recursionLimit allows; a call past that traps at run time. The
// callee's registers are recycled once the call is lowered.
func (l *lowerer) call(in *Instr, m *mods) error {
	m.take("uni")
	rets, fnOp, args, err := l.callParts(in)
	if err != nil {
		return err
	}
	fn, err := l.callee(fnOp)
	if err != nil {
		return err
	}
	lim := l.recursionLimit(fn)
	if lim > 0 && (l.active(fn) >= lim || len(l.calls) > maxCallDepth) {
		l.emit(isa.Instr{Op: isa.OpTrap, Mode: isa.TrapRecursion}) // recursion deeper than inlined: stop here
		return nil
	}
	if len(l.calls) > maxCallDepth {
		return l.errf("calls nest deeper than %d levels at %s", maxCallDepth, fn.Name)
	}
	callSc := l.sc
	var skip *label
	if l.guard.Kind != isa.KNone {
		skip = l.newLabel("call skip")
		l.branch(skip, negated(l.guard), false)
		l.guard = isa.Operand{}
	}
	if err := l.inline(fn, args, rets); err != nil {
		return err
	}
	l.sc = callSc
	if skip != nil {
		l.place(skip)
	}
	return nil
}

// active counts the activations of fn on the inlining stack.
func (l *lowerer) active(fn *Func) int {
	n := 0
	for _, c := range l.calls {
		if c == fn {
			n++
		}
	}
	return n
}

// inline lowers fn's body in place of a call with the given arguments and
// results, then recycles the registers the body used.
func (l *lowerer) inline(fn *Func, args, rets *List) error {
	if err := l.slotRegs(args, rets); err != nil {
		return err
	}
	mark := l.pool.mark()
	cs := newLScope(l.root)
	if err := l.bindArgs(fn, cs, args); err != nil {
		return err
	}
	post, err := l.bindRets(fn, cs, rets)
	if err != nil {
		return err
	}
	ret := l.newLabel("return from " + fn.Name)
	l.calls = append(l.calls, fn)
	l.rets = append(l.rets, ret)
	cur, pos, sc := l.cur, l.pos, l.sc
	err = l.block(fn.Body, cs)
	l.calls, l.rets = l.calls[:len(l.calls)-1], l.rets[:len(l.rets)-1]
	if err != nil {
		return err
	}
	l.cur, l.pos, l.sc, l.guard = cur, pos, sc, isa.Operand{}
	l.dropTrailingBranch(ret)
	l.place(ret)
	for _, b := range post {
		l.emit(isa.Instr{Op: isa.OpMov, Type: b.typ, NDst: 1, Ops: []isa.Operand{b.dst, isa.R(int(b.src))}})
	}
	l.pool.release(mark)
	return nil
}

// slotRegs gives the caller's scalar argument and result slots their
// registers before the callee runs, so that they outlive its registers.
func (l *lowerer) slotRegs(lists ...*List) error {
	for _, x := range lists {
		for _, o := range listElems(x) {
			s, ok := o.(*Sym)
			if !ok {
				continue
			}
			if e, _ := l.sc.lookup(s.Name); e != nil && e.kind == entSlot && !e.slot.mem {
				if _, err := l.formalReg(e); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// callee resolves the called function and checks that it has a body.
func (l *lowerer) callee(o Operand) (*Func, error) {
	s, ok := o.(*Sym)
	if !ok {
		return nil, l.unsupported("indirect call through %s", o.String())
	}
	e, _ := l.sc.lookup(s.Name)
	if e == nil {
		return nil, errAt(s.Pos, "undefined function %s", s.Name)
	}
	if e.kind != entFunc {
		return nil, l.unsupported("indirect call through %s", s.Name)
	}
	fn := e.fn
	if fn.Body == nil {
		return nil, l.unsupported("call of %s, which has no body here (external function)", s.Name)
	}
	return fn, nil
}

// dropTrailingBranch removes an unguarded branch to ret that is the last
// instruction (a `ret` at the end of the callee).
func (l *lowerer) dropTrailingBranch(ret *label) {
	n, k := len(l.prog.Instrs), len(l.branchFix)
	if n == 0 || k == 0 {
		return
	}
	b := l.branchFix[k-1]
	if b.label == ret && b.in == n-1 && l.prog.Instrs[n-1].Guard.Kind == isa.KNone {
		l.prog.Instrs = l.prog.Instrs[:n-1]
		l.branchFix = l.branchFix[:k-1]
	}
}

func listElems(x *List) []Operand {
	if x == nil {
		return nil
	}
	return x.Elems
}

// bindArgs makes the callee's parameters visible in cs, bound to the
// caller's argument slots or initialised from register and immediate
// arguments.
func (l *lowerer) bindArgs(fn *Func, cs *lscope, args *List) error {
	actual := listElems(args)
	if len(actual) != len(fn.Params) {
		return l.errf("call of %s with %d arguments, it takes %d", fn.Name, len(actual), len(fn.Params))
	}
	for i, d := range fn.Params {
		e, err := l.bindFormal(d, actual[i])
		if err != nil {
			return err
		}
		cs.names[d.Name] = e
		if s, isSym := actual[i].(*Sym); isSym {
			if old, _ := l.sc.lookup(s.Name); old != nil && old.kind == entSlot {
				continue
			}
		}
		v, err := l.val(actual[i], e.typ)
		if err != nil {
			return err
		}
		r, err := l.formalReg(e)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpMov, Type: e.typ, NDst: 1, Ops: []isa.Operand{isa.R(int(r)), v}})
	}
	return nil
}

// bindFormal makes the entity of formal parameter d: the caller's slot
// when the actual is a .param variable, else fresh storage.
func (l *lowerer) bindFormal(d *VarDecl, actual Operand) (*entity, error) {
	if d.Space == "reg" {
		return l.regEntity(d)
	}
	if d.Space != "param" {
		return nil, errAt(d.Pos, "unsupported parameter %s in the .%s space", d.Name, d.Space)
	}
	if s, ok := actual.(*Sym); ok {
		if e, _ := l.sc.lookup(s.Name); e != nil && e.kind == entSlot {
			fs, err := l.newSlotShape(d)
			if err != nil {
				return nil, err
			}
			if fs.mem != e.slot.mem {
				return nil, errAt(s.Pos, "argument %s does not match parameter %s of the callee", s.Name, d.Name)
			}
			return &entity{kind: entSlot, decl: d, slot: e.slot, typ: e.slot.typ}, nil
		}
	}
	e, err := l.slotEntity(d)
	if err != nil {
		return nil, err
	}
	if e.slot.mem {
		return nil, l.unsupported("passing %s by value to byte-array parameter %s", actual.String(), d.Name)
	}
	e.typ = e.slot.typ
	return e, nil
}

// newSlotShape reports whether d would be a memory slot, without allocating.
func (l *lowerer) newSlotShape(d *VarDecl) (*slot, error) {
	t, ok := isa.ParseType(d.Type)
	if !ok || t == isa.Pred {
		return nil, errAt(d.Pos, "unsupported parameter type .%s for %s", d.Type, d.Name)
	}
	return &slot{mem: len(d.Array) > 0 || d.Vec > 1 || t == isa.B128}, nil
}

// formalReg is the register that holds a register formal or scalar slot.
func (l *lowerer) formalReg(e *entity) (int32, error) {
	if e.kind == entReg {
		return l.regOf(e, 0, e.decl.Name)
	}
	if e.slot.reg < 0 {
		r, err := l.newReg(e.decl.Name)
		if err != nil {
			return 0, err
		}
		e.slot.reg = r
	}
	return e.slot.reg, nil
}

// bindRets binds the callee's results: .param results share the caller's
// slot; results the caller receives in registers are copied after the call.
func (l *lowerer) bindRets(fn *Func, cs *lscope, rets *List) ([]binding, error) {
	actual := listElems(rets)
	if len(actual) != len(fn.Returns) {
		return nil, l.errf("call of %s with %d results, it returns %d", fn.Name, len(actual), len(fn.Returns))
	}
	var post []binding
	for i, d := range fn.Returns {
		e, err := l.bindFormal(d, actual[i])
		if err != nil {
			return nil, err
		}
		cs.names[d.Name] = e
		if e.kind == entSlot && e.slot != nil {
			if s, ok := actual[i].(*Sym); ok {
				if old, _ := l.sc.lookup(s.Name); old != nil && old.kind == entSlot {
					continue
				}
			}
		}
		dst, err := l.dst(actual[i])
		if err != nil {
			return nil, err
		}
		r, err := l.formalReg(e)
		if err != nil {
			return nil, err
		}
		post = append(post, binding{dst: dst, src: r, typ: e.typ})
	}
	return post, nil
}
