package sms

import (
	"path/filepath"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// maxInstrs bounds the size of a compiled program.
const maxInstrs = 1 << 20

// Compile parses a .sms kernel and lowers it to an isa.Program. filename is
// used in positions and diagnostics only. Every error is an *Error whose text
// is one line, file:line:col: message.
func Compile(filename string, src []byte) (*isa.Program, error) {
	toks, err := lex(filename, src)
	if err != nil {
		return nil, err
	}
	f, err := parse(toks)
	if err != nil {
		return nil, err
	}
	g := newGen(filename)
	if err := g.declare(f.decls); err != nil {
		return nil, err
	}
	g.pushScope()
	for _, s := range f.body {
		if err := g.stmt(s); err != nil {
			return nil, err
		}
	}
	g.popScope()
	return g.finish(f.end)
}

// gen holds the state of one lowering: the program being built, the names
// in scope, the instruction streams and the register files.
type gen struct {
	prog   *isa.Program
	file   string
	scopes []map[string]*symbol
	pos    isa.Pos // position of the statement being lowered

	code    []isa.Instr    // the kernel body; branch targets index into it
	pro     []isa.Instr    // prologue: special-register reads and parameter loads, hoisted
	hoisted map[string]int // builtin or parameter name -> register holding it

	regs  regFile
	preds regFile

	laidOut bool // shared memory offsets are final
}

func newGen(filename string) *gen {
	name := strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename))
	return &gen{
		prog:    &isa.Program{Name: name, File: filename},
		file:    filename,
		hoisted: map[string]int{},
		regs:    regFile{prefix: "%t"},
		preds:   regFile{prefix: "%p"},
	}
}

// finish joins prologue and body, appends the final exit, and computes
// reconvergence points and timing classes.
func (g *gen) finish(end isa.Pos) (*isa.Program, error) {
	n := int32(len(g.pro))
	needExit := len(g.code) == 0
	for i := range g.code {
		in := &g.code[i]
		if in.Op == isa.OpBra {
			if int(in.Target) == len(g.code) {
				needExit = true
			}
			in.Target += n
		}
	}
	if k := len(g.code); k > 0 && (g.code[k-1].Op != isa.OpExit || g.code[k-1].Guard.Kind != isa.KNone) {
		needExit = true
	}
	p := g.prog
	p.Instrs = append(g.pro, g.code...)
	if needExit {
		p.Instrs = append(p.Instrs, isa.Instr{Op: isa.OpExit, Pos: end})
	}
	if len(p.Instrs) > maxInstrs {
		return nil, errAt(end, "program has %d instructions; the limit is %d", len(p.Instrs), maxInstrs)
	}
	isa.Reconverge(p, nil)
	for i := range p.Instrs {
		p.Instrs[i].Class = isa.ClassOf(&p.Instrs[i])
	}
	p.NumRegs, p.RegNames = len(g.regs.names), g.regs.names
	p.NumPreds, p.PredNames = len(g.preds.names), g.preds.names
	return p, nil
}

// emit appends an instruction at the current statement's position and
// returns its index in the body.
func (g *gen) emit(in isa.Instr) int {
	in.Pos = g.pos
	in.Reconv = isa.NoReconv
	g.code = append(g.code, in)
	return len(g.code) - 1
}

// branch emits a branch (guarded when guard is a predicate) whose target is
// filled in later by patch.
func (g *gen) branch(guard isa.Operand) int {
	return g.emit(isa.Instr{Op: isa.OpBra, Guard: guard, Target: -1})
}

// patch points branch i at the next instruction to be emitted.
func (g *gen) patch(i int) { g.code[i].Target = int32(len(g.code)) }

// discard lowers f for its errors only and drops the code it emits (the dead
// arm of an if whose condition is a constant).
func (g *gen) discard(f func() error) error {
	n := len(g.code)
	err := f()
	g.code = g.code[:n]
	return err
}

// regFile allocates registers (or predicates). Named registers belong to one
// variable for the whole kernel; temporaries live on a stack that each
// statement pops when it ends, so a temporary slot always maps to the same
// register.
type regFile struct {
	prefix string
	names  []string
	temps  []int
	sp     int
}

func (r *regFile) named(name string) int {
	r.names = append(r.names, name)
	return len(r.names) - 1
}

func (r *regFile) temp() int {
	if r.sp == len(r.temps) {
		r.temps = append(r.temps, r.named(r.prefix+strconv.Itoa(len(r.temps))))
	}
	r.sp++
	return r.temps[r.sp-1]
}

// mark is the allocation state of both files, restored by release.
type mark struct{ regs, preds int }

func (g *gen) mark() mark     { return mark{g.regs.sp, g.preds.sp} }
func (g *gen) release(m mark) { g.regs.sp, g.preds.sp = m.regs, m.preds }
