package ptx

import (
	"fmt"

	"github.com/smsim/smsim/isa"
)

// Limits that keep a hostile or runaway input from exhausting memory.
const (
	maxInstrs    = 1 << 20 // instructions per lowered kernel (inlining included)
	maxModule    = 1 << 21 // instructions of all the kernels of a module
	maxRegs      = 1 << 16 // general or predicate registers per kernel
	maxCallDepth = 32      // nested inlined calls
)

// Compile parses a PTX module and lowers every kernel (.entry with a body)
// to an isa.Program, in source order; it fails if any kernel fails (Load and
// Unit.Lower lower the kernels one at a time). Device functions are inlined
// at their call sites. Errors are one line, "FILE:LINE:COL: message"; an
// instruction or modifier the lowering does not implement is an error
// naming it, never dropped.
func Compile(filename string, src []byte) ([]*isa.Program, error) {
	u, err := Load(filename, src)
	if err != nil {
		return nil, err
	}
	var out []*isa.Program
	for _, f := range u.Kernels() {
		p, err := u.Lower(f)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// lowerer holds the state of lowering one kernel.
type lowerer struct {
	mod  *Module
	md   *moduleData
	prog *isa.Program
	root *lscope // module scope: global, const and shared variables, functions

	cur   *Instr      // instruction being lowered (for positions and messages)
	pos   isa.Pos     // its position
	guard isa.Operand // its guard

	temps, ptemps []int32 // scratch registers, reused instruction by instruction
	ntemp, nptemp int
	sc            *lscope             // scope of the statement being lowered
	shared        map[*VarDecl]uint64 // static shared variables, placed before lowering
	planned       bool                // shared memory is laid out; dynBase is final
	dynBase       uint64              // offset of the dynamic (extern) shared region
	dynName       string              // name of the first extern shared array
	local         map[localKey]uint64 // local variables (stack) placed so far
	localBytes    uint64
	labels        []*label // every label, by id
	branchFix     []branchRef
	calls         []*Func // inlining stack
	rets          []*label
	barRedScratch uint64 // shared offset of the bar.red scratch words
	pool          regPool
	recLimit      map[*Func]int // how deep each recursive function may be inlined
	noUnroll      bool          // a .pragma "nounroll" waits for the next instruction (the loop's head)
}

// branchRef is a branch whose target is a label.
type branchRef struct {
	in    int
	label *label
}

// label is a branch target; at is its instruction index once placed.
type label struct {
	name string
	pos  Pos
	at   int32
}

func lowerEntry(m *Module, md *moduleData, f *Func) (*isa.Program, error) {
	l := &lowerer{
		mod: m, md: md,
		prog:   &isa.Program{Name: f.Name, File: m.File},
		shared: map[*VarDecl]uint64{}, local: map[localKey]uint64{}, recLimit: map[*Func]int{},
	}
	l.root = l.moduleScope()
	if err := l.planShared(f); err != nil {
		return nil, err
	}
	sc := newLScope(l.root)
	if err := l.entryParams(f, sc); err != nil {
		return nil, err
	}
	if err := l.entryAttrs(f); err != nil {
		return nil, err
	}
	l.calls = append(l.calls, f)
	if err := l.block(f.Body, sc); err != nil {
		return nil, err
	}
	l.pos = l.isaPos(f.Body.Pos)
	l.guard = isa.Operand{}
	if l.fallsThrough() {
		l.emit(isa.Instr{Op: isa.OpExit}) // falling off the end of a kernel exits
	}
	return l.finish()
}

// fallsThrough reports whether control can reach the end of the lowered
// kernel: the last instruction does not end the thread unconditionally, or
// a label points past it.
func (l *lowerer) fallsThrough() bool {
	n := len(l.prog.Instrs)
	for _, lb := range l.labels {
		if lb.at == int32(n) {
			return true
		}
	}
	return n == 0 || !l.prog.Instrs[n-1].Op.Ends() || l.prog.Instrs[n-1].Guard.Kind != isa.KNone
}

// entryAttrs applies .reqntid (the block shape the kernel requires) and
// .reqnctapercluster / .explicitcluster (its cluster shape).
func (l *lowerer) entryAttrs(f *Func) error {
	if err := l.clusterAttrs(f); err != nil {
		return err
	}
	a := f.Attr("reqntid")
	if a == nil {
		return nil
	}
	if len(a.Args) == 0 || len(a.Args) > 3 {
		return errAt(a.Pos, ".reqntid takes 1 to 3 dimensions, found %d", len(a.Args))
	}
	l.prog.Block = [3]int{1, 1, 1}
	for i, v := range a.Args {
		if v < 1 || v > 1024 {
			return errAt(a.Pos, ".reqntid dimension %d is outside 1..1024", v)
		}
		l.prog.Block[i] = int(v)
	}
	return nil
}

// finish resolves branch targets and dynamic-shared offsets, then computes
// reconvergence points and timing classes.
func (l *lowerer) finish() (*isa.Program, error) {
	p := l.prog
	for _, b := range l.branchFix {
		if b.label.at < 0 {
			return nil, errAt(b.label.pos, "label %s is never placed", b.label.name)
		}
		p.Instrs[b.in].Target = b.label.at
	}
	if l.dynName != "" {
		p.Symbols = append(p.Symbols, isa.Symbol{Name: l.dynName, Space: isa.Shared, Offset: l.dynBase, Size: maxVarBytes})
	}
	p.LocalBytes = int(l.localBytes)
	if p.LocalBytes > 1<<20 {
		return nil, errAt(Pos{File: p.File, Line: 1, Col: 1}, "kernel %s needs %d bytes of local memory per thread (limit 1 MiB)", p.Name, p.LocalBytes)
	}
	isa.Reconverge(p, nil)
	for i := range p.Instrs {
		p.Instrs[i].Class = isa.ClassOf(&p.Instrs[i])
	}
	return p, nil
}

// emit appends an instruction at the current position under the current
// guard and returns its index.
func (l *lowerer) emit(in isa.Instr) int {
	in.Pos = l.pos
	if in.Guard.Kind == isa.KNone {
		in.Guard = l.guard
	}
	l.prog.Instrs = append(l.prog.Instrs, in)
	return len(l.prog.Instrs) - 1
}

// emitUnguarded appends an instruction that runs whatever the guard says.
func (l *lowerer) emitUnguarded(in isa.Instr) int {
	g := l.guard
	l.guard = isa.Operand{}
	i := l.emit(in)
	l.guard = g
	return i
}

// branch emits a branch to lb (guarded by g, or by nothing when g is KNone).
func (l *lowerer) branch(lb *label, g isa.Operand, uni bool) {
	in := isa.Instr{Op: isa.OpBra, Guard: g}
	if uni {
		in.Flags |= isa.FUni
	}
	var i int
	if g.Kind == isa.KNone {
		i = l.emitUnguarded(in)
	} else {
		i = len(l.prog.Instrs)
		in.Pos = l.pos
		l.prog.Instrs = append(l.prog.Instrs, in)
	}
	l.branchFix = append(l.branchFix, branchRef{in: i, label: lb})
}

// newLabel makes an internal label (not visible to the source).
func (l *lowerer) newLabel(name string) *label {
	lb := &label{name: name, pos: l.srcPos(), at: -1}
	l.labels = append(l.labels, lb)
	return lb
}

// place puts label lb at the next instruction.
func (l *lowerer) place(lb *label) { lb.at = int32(len(l.prog.Instrs)) }

func (l *lowerer) isaPos(p Pos) isa.Pos {
	return isa.Pos{File: p.File, Line: int32(p.Line), Col: int32(p.Col)}
}

func (l *lowerer) srcPos() Pos {
	if l.cur != nil {
		return l.cur.Pos
	}
	return Pos{File: l.prog.File, Line: 1, Col: 1}
}

// errAt builds a positioned one-line error.
func errAt(p Pos, format string, args ...any) error {
	return &Error{Pos: p, Msg: fmt.Sprintf(format, args...)}
}

// errf reports an error at the current instruction.
func (l *lowerer) errf(format string, args ...any) error {
	return errAt(l.srcPos(), format, args...)
}

// unsupported reports an instruction form the lowering does not implement.
func (l *lowerer) unsupported(format string, args ...any) error {
	return l.errf("unsupported instruction %s (%s)", l.cur.Opcode(), fmt.Sprintf(format, args...))
}

// clusterAttrs applies .reqnctapercluster (the cluster shape the kernel
// requires) and .explicitcluster (it must be launched with one).
func (l *lowerer) clusterAttrs(f *Func) error {
	l.prog.ExplicitCluster = f.Attr("explicitcluster") != nil
	a := f.Attr("reqnctapercluster")
	if a == nil {
		return nil
	}
	if len(a.Args) == 0 || len(a.Args) > 3 {
		return errAt(a.Pos, ".reqnctapercluster takes 1 to 3 dimensions, found %d", len(a.Args))
	}
	l.prog.Cluster = [3]int{1, 1, 1}
	for i, v := range a.Args {
		if v < 1 || v > 16 {
			return errAt(a.Pos, ".reqnctapercluster dimension %d is outside 1..16", v)
		}
		l.prog.Cluster[i] = int(v)
	}
	return nil
}
