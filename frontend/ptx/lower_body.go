package ptx

import (
	"strings"

	"github.com/smsim/smsim/isa"
)

// block lowers a brace-enclosed block in a new scope. Declarations and
// labels of the block are visible throughout it (labels may be used before
// they appear); nested blocks see them too.
func (l *lowerer) block(b *Block, parent *lscope) error {
	s := newLScope(parent)
	for _, st := range b.Stmts {
		switch x := st.(type) {
		case *VarDecl:
			if err := l.declare(s, x); err != nil {
				return err
			}
		case *Label:
			if old := s.labels[x.Name]; old != nil {
				return errAt(x.Pos, "duplicate label %s (first at %d:%d)", x.Name, old.pos.Line, old.pos.Col)
			}
			lb := &label{name: x.Name, pos: x.Pos, at: -1}
			l.labels = append(l.labels, lb)
			s.labels[x.Name] = lb
		case *Targets:
			s.names[x.Name] = &entity{kind: entTarget, targets: x.Names}
			if x.Kind == "calltargets" {
				s.names[x.Name].kind = entProto
			}
		case *Proto:
			s.names[x.Name] = &entity{kind: entProto}
		}
	}
	for _, st := range b.Stmts {
		if err := l.stmt(st, s); err != nil {
			return err
		}
	}
	return nil
}

// stmt lowers one statement of a block.
func (l *lowerer) stmt(st Stmt, s *lscope) error {
	switch x := st.(type) {
	case *Block:
		return l.block(x, s)
	case *Label:
		s.labels[x.Name].at = int32(len(l.prog.Instrs))
	case *Pragma:
		for _, v := range x.Values {
			if v == "nounroll" {
				l.noUnroll = true
			}
		}
	case *Instr:
		if len(l.prog.Instrs) > maxInstrs {
			return errAt(x.Pos, "kernel has more than %d instructions after inlining", maxInstrs)
		}
		n := len(l.prog.Instrs)
		if err := l.instr(x, s); err != nil {
			return err
		}
		if l.noUnroll && len(l.prog.Instrs) > n {
			l.prog.Instrs[n].Source |= isa.HintNoUnroll // the loop this instruction heads stays rolled
			l.noUnroll = false
		}
	}
	return nil
}

// instr lowers one instruction: it sets up the position, guard and scratch
// registers, dispatches on the opcode, and rejects modifiers the handler
// did not consume.
func (l *lowerer) instr(in *Instr, s *lscope) error {
	l.cur, l.sc = in, s
	l.pos = l.isaPos(in.Pos)
	l.ntemp, l.nptemp = 0, 0
	l.guard = isa.Operand{}
	if in.Guard != nil {
		g, err := l.psrc(in.Guard.Pred)
		if err != nil {
			return err
		}
		g.Neg = in.Guard.Neg
		l.guard = g
	}
	h := handlerFor(in.Op)
	if h == nil {
		return l.errf("unsupported instruction %s (unknown opcode %s)", in.Opcode(), in.Op)
	}
	m := newMods(in)
	if err := h(l, in, m); err != nil {
		return err
	}
	if r := m.rest(); len(r) > 0 {
		return l.unsupported("modifier %s", strings.Join(r, ""))
	}
	return nil
}

// handler lowers one instruction whose opcode selected it.
type handler func(l *lowerer, in *Instr, m *mods) error

// handlerFor selects the lowering of an opcode (nil if unknown).
func handlerFor(op string) handler {
	switch op {
	case "mov":
		return (*lowerer).mov
	case "add", "sub", "mul", "mad", "fma", "div", "rem", "abs", "neg", "min", "max", "addc", "subc", "madc",
		"mul24", "mad24", "sad", "rcp", "sqrt", "rsqrt", "sin", "cos", "lg2", "ex2", "tanh", "copysign":
		return (*lowerer).arith
	case "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev", "bfind", "bfe", "bfi",
		"prmt", "shf", "lop3", "dp4a", "dp2a":
		return (*lowerer).bits
	case "setp", "set", "selp", "slct", "testp":
		return (*lowerer).compare
	case "cvt":
		return (*lowerer).cvt
	case "cvta", "isspacep", "mapa", "getctarank":
		return (*lowerer).addrSpace
	case "ld", "ldu", "st":
		return (*lowerer).loadStore
	case "atom", "red":
		return (*lowerer).atomic
	case "fence", "membar", "prefetch", "prefetchu", "createpolicy", "discard", "applypriority",
		"griddepcontrol", "setmaxnreg", "nanosleep", "pmevent":
		return (*lowerer).misc
	case "bra", "brx", "call", "ret", "exit", "trap", "brkpt":
		return (*lowerer).control
	case "bar", "barrier":
		return (*lowerer).barrier
	case "vote", "shfl", "match", "redux", "activemask", "elect":
		return (*lowerer).collective
	case "mbarrier":
		return (*lowerer).mbarrier
	case "cp":
		return (*lowerer).copyAsync
	case "tensormap":
		return (*lowerer).tensormap
	case "wgmma":
		return (*lowerer).wgmma
	case "ldmatrix", "stmatrix":
		return (*lowerer).matrix
	case "movmatrix":
		return (*lowerer).movmatrix
	case "vadd2", "vsub2", "vabsdiff2", "vmin2", "vmax2", "vadd4", "vsub4", "vabsdiff4", "vmin4", "vmax4":
		return (*lowerer).video
	}
	return nil
}

// nops checks the operand count.
func (l *lowerer) nops(in *Instr, counts ...int) error {
	for _, n := range counts {
		if len(in.Operands) == n {
			return nil
		}
	}
	want := ""
	for i, n := range counts {
		if i > 0 {
			want += " or "
		}
		want += itoa(n)
	}
	return l.errf("bad operand count: %s takes %s operands, found %d", in.Opcode(), want, len(in.Operands))
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
