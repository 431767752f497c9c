package ptx

import (
	"github.com/smsim/smsim/isa"
)

// Unit is a parsed module whose kernels are lowered one at a time, so that a
// kernel smsim can run is not held back by another in the same file that it
// cannot (an unsupported instruction is an error of the kernel that holds it,
// or of the kernels that call the function that does).
type Unit struct {
	Module *Module
	md     *moduleData
	total  int // instructions of the kernels lowered so far
}

// Load parses a PTX module, checks its function names and lays out its
// .global and .const data: everything the kernels share. Errors are one
// located line, as Parse's.
func Load(filename string, src []byte) (*Unit, error) {
	m, err := Parse(filename, src)
	if err != nil {
		return nil, err
	}
	if err := checkFuncNames(m); err != nil {
		return nil, err
	}
	md, err := layoutModule(m)
	if err != nil {
		return nil, err
	}
	return &Unit{Module: m, md: md}, nil
}

// Kernels returns the module's kernels (.entry with a body) in source order.
func (u *Unit) Kernels() []*Func { return u.Module.Entries() }

// Lower lowers kernel f (one of Kernels) to an isa.Program, inlining the
// device functions it calls. The instructions of all the kernels a Unit
// lowers are bounded together (maxModule), so that a hostile module cannot
// exhaust memory one kernel at a time.
func (u *Unit) Lower(f *Func) (*isa.Program, error) {
	p, err := lowerEntry(u.Module, u.md, f)
	if err != nil {
		return nil, err
	}
	if u.total += len(p.Instrs); u.total > maxModule {
		return nil, errAt(f.Pos, "the module's kernels have more than %d instructions after inlining", maxModule)
	}
	return p, nil
}

// checkFuncNames rejects a module that defines a name twice: kernels and
// device functions share one namespace (PTX ISA, "Linking directives": a
// module may declare a function several times but define it once).
// Declarations without a body (prototypes, .extern) may repeat.
func checkFuncNames(m *Module) error {
	defined := map[string]*Func{}
	for _, f := range m.Funcs {
		if f.Body == nil {
			continue
		}
		first := defined[f.Name]
		if first == nil {
			defined[f.Name] = f
			continue
		}
		switch {
		case first.Entry && f.Entry:
			return errAt(f.NamePos, "duplicate kernel %s: an .entry of that name is already defined at line %d", f.Name, first.NamePos.Line)
		case !first.Entry && !f.Entry:
			return errAt(f.NamePos, "duplicate function %s: a .func of that name is already defined at line %d", f.Name, first.NamePos.Line)
		}
		return errAt(f.NamePos, "%s is defined twice, as a kernel (.entry) and as a function (.func); the first definition is at line %d", f.Name, first.NamePos.Line)
	}
	return nil
}
