package ptx

import (
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
)

// entKind says what a name in scope refers to.
type entKind uint8

const (
	entReg    entKind = iota // .reg variable or range
	entVar                   // .shared, .local, .global or .const variable
	entParam                 // kernel parameter (in the .param space)
	entSlot                  // call argument or device-function parameter
	entFunc                  // device function
	entTarget                // .branchtargets list
	entProto                 // .callprototype
)

// entity is what a name resolves to.
type entity struct {
	kind    entKind
	decl    *VarDecl
	pred    bool          // register: a predicate
	typ     isa.Type      // register: element type
	idx     map[int]int32 // register: element index -> isa register
	space   isa.Space     // variable: state space
	addr    uint64        // variable or parameter: address in its space
	dynamic bool          // variable: the extern (dynamic) shared region
	slot    *slot         // call slot
	targets []string      // .branchtargets
	fn      *Func         // device function
}

// slot holds one call argument or result: a register for scalars, a
// stretch of local memory for byte arrays (structs passed by value).
type slot struct {
	decl *VarDecl
	typ  isa.Type
	reg  int32 // -1 until used
	mem  bool
	off  uint64
	size uint64
}

// scope is one level of name visibility: a block, a function's parameters,
// or the module.
type lscope struct {
	parent *lscope
	names  map[string]*entity
	ranges []*entity
	labels map[string]*label
}

func newLScope(parent *lscope) *lscope {
	return &lscope{parent: parent, names: map[string]*entity{}, labels: map[string]*label{}}
}

// lookup finds a name in s or an enclosing scope; for register ranges it
// also returns the element index.
func (s *lscope) lookup(name string) (*entity, int) {
	for ; s != nil; s = s.parent {
		if e, ok := s.names[name]; ok {
			return e, 0
		}
		for _, e := range s.ranges {
			if i, ok := rangeIndex(name, e.decl); ok {
				return e, i
			}
		}
	}
	return nil, 0
}

// label finds a label in s or an enclosing scope.
func (s *lscope) label(name string) *label {
	for ; s != nil; s = s.parent {
		if lb, ok := s.labels[name]; ok {
			return lb
		}
	}
	return nil
}

// rangeIndex reports whether name is element i of the range %base<N>
// (decimal without leading zeros).
func rangeIndex(name string, d *VarDecl) (int, bool) {
	if !strings.HasPrefix(name, d.Name) || len(name) == len(d.Name) {
		return 0, false
	}
	digits := name[len(d.Name):]
	if len(digits) > 1 && digits[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || n >= d.Count || digits[0] == '+' || digits[0] == '-' {
		return 0, false
	}
	return n, true
}

// declare adds a declaration made inside a function body (or a parameter
// list) to scope s.
func (l *lowerer) declare(s *lscope, d *VarDecl) error {
	if old := s.names[d.Name]; old != nil && d.Count == 0 {
		return errAt(d.Pos, "duplicate declaration of %s (first at %d:%d)", d.Name, old.decl.Pos.Line, old.decl.Pos.Col)
	}
	e, err := l.localEntity(d)
	if err != nil {
		return err
	}
	if d.Count > 0 {
		if d.Space != "reg" {
			return errAt(d.Pos, "a %s<%d> range is only allowed for registers", d.Name, d.Count)
		}
		s.ranges = append(s.ranges, e)
		return nil
	}
	s.names[d.Name] = e
	return nil
}

// localEntity builds the entity of a function-scope declaration.
func (l *lowerer) localEntity(d *VarDecl) (*entity, error) {
	space, _, _ := strings.Cut(d.Space, "::")
	switch space {
	case "reg":
		return l.regEntity(d)
	case "shared":
		if d.Linkage == "extern" {
			return l.dynShared(d)
		}
		off, err := l.placeShared(d)
		return &entity{kind: entVar, decl: d, space: isa.Shared, addr: off}, err
	case "local":
		off, err := l.placeLocal(d)
		return &entity{kind: entVar, decl: d, space: isa.Local, addr: off}, err
	case "param":
		return l.slotEntity(d)
	}
	return nil, errAt(d.Pos, "unsupported declaration: .%s variable %s inside a function", d.Space, d.Name)
}

// regEntity declares a register (or range, or vector register).
func (l *lowerer) regEntity(d *VarDecl) (*entity, error) {
	if len(d.Array) > 0 || d.Init != nil {
		return nil, errAt(d.Pos, "unsupported register declaration %s (arrays and initializers)", d.Name)
	}
	t, ok := isa.ParseType(d.Type)
	if !ok {
		return nil, errAt(d.Pos, "unsupported register type .%s for %s", d.Type, d.Name)
	}
	if t == isa.B128 {
		return nil, errAt(d.Pos, "unsupported register type .b128 for %s (registers are 64 bits)", d.Name)
	}
	return &entity{kind: entReg, decl: d, pred: t == isa.Pred, typ: t, idx: map[int]int32{}}, nil
}

// slotEntity declares a call argument (a .param variable inside a body).
func (l *lowerer) slotEntity(d *VarDecl) (*entity, error) {
	s, err := l.newSlot(d)
	if err != nil {
		return nil, err
	}
	return &entity{kind: entSlot, decl: d, slot: s}, nil
}

// newSlot allocates the storage of a call argument or result.
func (l *lowerer) newSlot(d *VarDecl) (*slot, error) {
	t, ok := isa.ParseType(d.Type)
	if !ok || t == isa.Pred {
		return nil, errAt(d.Pos, "unsupported parameter type .%s for %s", d.Type, d.Name)
	}
	s := &slot{decl: d, typ: t, reg: -1, size: uint64(t.Bytes()) * uint64(max(d.Vec, 1))}
	if len(d.Array) > 0 || d.Vec > 1 || t == isa.B128 {
		size, err := varSize(d)
		if err != nil {
			return nil, err
		}
		s.mem, s.size = true, size
		s.off = l.allocLocal(size, uint64(varAlign(d)))
	}
	return s, nil
}

// regOf returns the isa register of element i of register entity e,
// allocating it on first use.
func (l *lowerer) regOf(e *entity, i int, name string) (int32, error) {
	if r, ok := e.idx[i]; ok {
		return r, nil
	}
	r, err := l.allocReg(e.pred, name, true)
	if err != nil {
		return 0, err
	}
	e.idx[i] = r
	return r, nil
}

// newReg allocates an anonymous general register.
func (l *lowerer) newReg(name string) (int32, error) {
	return l.allocReg(false, name, true)
}

// temp returns a scratch general register for the current instruction.
func (l *lowerer) temp() (int32, error) {
	if l.ntemp < len(l.temps) {
		l.ntemp++
		return l.temps[l.ntemp-1], nil
	}
	r, err := l.allocReg(false, "%tmp"+strconv.Itoa(len(l.temps)), false)
	if err != nil {
		return 0, err
	}
	l.temps = append(l.temps, r)
	l.ntemp++
	return r, nil
}

// ptemp returns a scratch predicate register for the current instruction.
func (l *lowerer) ptemp() (int32, error) {
	if l.nptemp < len(l.ptemps) {
		l.nptemp++
		return l.ptemps[l.nptemp-1], nil
	}
	r, err := l.allocReg(true, "%ptmp"+strconv.Itoa(len(l.ptemps)), false)
	if err != nil {
		return 0, err
	}
	l.ptemps = append(l.ptemps, r)
	l.nptemp++
	return r, nil
}

// entryParams lays out kernel f's parameters (Params) and declares them in s.
func (l *lowerer) entryParams(f *Func, s *lscope) error {
	ps, n, err := Params(f)
	if err != nil {
		return err
	}
	for i, d := range f.Params {
		if old := s.names[d.Name]; old != nil {
			return errAt(d.Pos, "duplicate parameter %s", d.Name)
		}
		s.names[d.Name] = &entity{kind: entParam, decl: d, space: isa.ParamSpace, addr: uint64(ps[i].Offset)}
	}
	l.prog.Params, l.prog.ParamBytes = ps, n
	return nil
}

// Params lays out the parameters of kernel f in the .param space, each at
// its alignment in declaration order, and returns them with their total
// size. It needs no lowering, so a kernel that cannot be lowered still
// shows its parameters.
func Params(f *Func) ([]isa.Param, int, error) {
	var ps []isa.Param
	off := 0
	for _, d := range f.Params {
		if d.Space != "param" {
			return nil, 0, errAt(d.Pos, "unsupported kernel parameter %s in the .%s space", d.Name, d.Space)
		}
		t, ok := isa.ParseType(d.Type)
		if !ok || t == isa.Pred {
			return nil, 0, errAt(d.Pos, "unsupported parameter type .%s for %s", d.Type, d.Name)
		}
		size, err := varSize(d)
		if err != nil {
			return nil, 0, err
		}
		align := varAlign(d)
		off = (off + align - 1) / align * align
		ps = append(ps, isa.Param{Name: d.Name, Type: t, Size: int(size), Align: align, Offset: off, Ptr: d.Ptr})
		off += int(size)
		if off > 1<<16 {
			return nil, 0, errAt(d.Pos, "kernel parameters exceed 64 KiB")
		}
	}
	return ps, off, nil
}
