package ptx

import (
	"encoding/binary"
	"math"
	"math/bits"
	"strings"

	"github.com/smsim/smsim/isa"
)

// maxVarBytes bounds one variable (a typo such as .b8 x[1000000000] would
// otherwise allocate gigabytes); maxDataBytes bounds a module's .global and
// .const variables together, which are materialised as initial data.
const (
	maxVarBytes  = 1 << 28
	maxDataBytes = 1 << 26
)

// moduleVar is a module-scope .global or .const variable.
type moduleVar struct {
	decl  *VarDecl
	space isa.Space
	addr  uint64 // absolute (generic) address
	size  uint64
}

// moduleData is the layout of a module's .global and .const variables,
// shared by all its kernels.
type moduleData struct {
	vars    map[string]*moduleVar
	data    []isa.Data
	symbols []isa.Symbol
}

// layoutModule places module variables: .global from isa.GlobalDataBase and
// .const from isa.ConstDataBase, in declaration order, and encodes their
// initializers.
func layoutModule(m *Module) (*moduleData, error) {
	md := &moduleData{vars: map[string]*moduleVar{}}
	next := map[isa.Space]uint64{isa.Global: isa.GlobalDataBase, isa.Const: isa.ConstDataBase}
	var order []*moduleVar
	total := uint64(0)
	for _, d := range m.Decls {
		sp := map[string]isa.Space{"global": isa.Global, "const": isa.Const}[d.Space]
		if sp == isa.Generic {
			continue // .shared is placed per kernel; others fail where used
		}
		if old := md.vars[d.Name]; old != nil {
			if d.Linkage == "extern" || old.decl.Linkage == "extern" {
				continue
			}
			return nil, errAt(d.Pos, "duplicate module variable %s", d.Name)
		}
		size, err := varSize(d)
		if err != nil {
			return nil, err
		}
		a := uint64(varAlign(d))
		addr := (next[sp] + a - 1) / a * a
		next[sp] = addr + max(size, 1)
		if total += size; total > maxDataBytes {
			return nil, errAt(d.Pos, "module .global and .const variables exceed %d bytes", maxDataBytes)
		}
		v := &moduleVar{decl: d, space: sp, addr: addr, size: size}
		md.vars[d.Name] = v
		order = append(order, v)
		md.symbols = append(md.symbols, isa.Symbol{Name: d.Name, Space: sp, Offset: addr, Size: size, Pos: posOf(d.Pos), Elem: indexBytes(d)})
	}
	for _, v := range order {
		b := make([]byte, v.size) // every variable is data, so that memory maps it
		if v.decl.Init != nil {
			var err error
			if b, err = md.encode(v); err != nil {
				return nil, err
			}
		}
		if len(b) > 0 {
			md.data = append(md.data, isa.Data{Space: v.space, Addr: v.addr, Bytes: b})
		}
	}
	return md, nil
}

func posOf(p Pos) isa.Pos { return isa.Pos{File: p.File, Line: int32(p.Line), Col: int32(p.Col)} }

// elemBytes is the size of one element of d (type size times vector width).
func elemBytes(d *VarDecl) uint64 {
	t, ok := isa.ParseType(d.Type)
	if !ok || t.Bytes() == 0 {
		return 1
	}
	return uint64(t.Bytes()) * uint64(max(d.Vec, 1))
}

// indexBytes is the element size by which reports index the array d (0
// for a scalar: its offsets are bytes). nvcc declares a C array of any
// element type as a byte array aligned as the element (a __shared__
// uint64_t full[4] is `.shared .align 8 .b8 full[32]`), so a byte array's
// element is taken to be its alignment when that divides its size; an
// array of structs then reads as an array of their aligned parts.
func indexBytes(d *VarDecl) uint64 {
	if len(d.Array) == 0 {
		return 0
	}
	n := elemBytes(d)
	if n != 1 || d.Align <= 1 {
		return n
	}
	size, err := varSize(d)
	if err != nil || size%uint64(d.Align) != 0 {
		return 1
	}
	return uint64(d.Align)
}

// varSize is the byte size of d; an unsized array takes its length from its
// initializer (or is empty).
func varSize(d *VarDecl) (uint64, error) {
	n := elemBytes(d)
	for i, dim := range d.Array {
		if dim < 0 {
			if i != 0 {
				return 0, errAt(d.Pos, "only the first dimension of %s may be unsized", d.Name)
			}
			dim = 0
			if d.Init != nil && d.Init.Value == nil {
				dim = len(d.Init.List)
			}
		}
		n *= uint64(dim)
		if n > maxVarBytes {
			return 0, errAt(d.Pos, "variable %s is larger than %d bytes", d.Name, maxVarBytes)
		}
	}
	return n, nil
}

// varAlign is d's alignment: .align, or the element size.
func varAlign(d *VarDecl) int {
	if d.Align > 0 {
		return d.Align
	}
	return int(elemBytes(d))
}

// encode builds the initial bytes of v from its initializer.
func (md *moduleData) encode(v *moduleVar) ([]byte, error) {
	d := v.decl
	t, ok := isa.ParseType(d.Type)
	if !ok || t == isa.Pred {
		return nil, errAt(d.Pos, "unsupported initializer for %s of type .%s", d.Name, d.Type)
	}
	es := uint64(t.Bytes())
	var flat []*Init
	flatten(d.Init, &flat)
	if uint64(len(flat))*es > max(v.size, es) {
		return nil, errAt(d.Init.Pos, "initializer of %s has %d elements, more than the variable holds", d.Name, len(flat))
	}
	b := make([]byte, max(v.size, uint64(len(flat))*es))
	for i, in := range flat {
		x, err := md.initValue(in, t)
		if err != nil {
			return nil, err
		}
		putBytes(b[uint64(i)*es:], x, int(es))
	}
	return b, nil
}

// flatten lists the scalar initializers of in, depth first.
func flatten(in *Init, out *[]*Init) {
	if in.Value != nil {
		*out = append(*out, in)
		return
	}
	for _, x := range in.List {
		flatten(x, out)
	}
}

// initValue evaluates one scalar initializer as the bits of type t.
func (md *moduleData) initValue(in *Init, t isa.Type) (uint64, error) {
	switch x := in.Value.(type) {
	case *Imm:
		return immBits(x, t, in.Pos)
	case *Sym:
		v := md.vars[x.Name]
		if v == nil {
			return 0, errAt(x.Pos, "unsupported initializer: %s is not a module .global or .const variable", x.Name)
		}
		a := v.addr + uint64(x.Offset)
		if in.Mask != 0 {
			a = (a & in.Mask) >> bits.TrailingZeros64(in.Mask)
		}
		return a, nil
	}
	return 0, errAt(in.Pos, "unsupported initializer")
}

// immBits converts an immediate to the bits of type t: integers keep their
// two's complement bits, floats are converted to t's format.
func immBits(x *Imm, t isa.Type, p Pos) (uint64, error) {
	switch t {
	case isa.F32:
		if x.Kind == ImmF32 {
			return x.Bits & 0xffffffff, nil
		}
		return uint64(math.Float32bits(float32(x.Float()))), nil
	case isa.F64:
		if x.Kind == ImmF64 {
			return x.Bits, nil
		}
		return math.Float64bits(x.Float()), nil
	}
	if x.Kind != ImmInt {
		if t.Float() {
			return 0, errAt(p, "unsupported %s immediate for type .%s (write the bits with a .b16 or .b32 type)", x.Text, t)
		}
		return x.Bits, nil
	}
	return uint64(x.Int), nil
}

func putBytes(b []byte, v uint64, n int) {
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], v)
	copy(b[:n], tmp[:n])
}

// moduleScope builds the names visible to every function: module variables
// and device functions.
func (l *lowerer) moduleScope() *lscope {
	s := newLScope(nil)
	for _, d := range l.mod.Decls {
		space, _, _ := strings.Cut(d.Space, "::")
		switch {
		case l.md.vars[d.Name] != nil:
			v := l.md.vars[d.Name]
			s.names[d.Name] = &entity{kind: entVar, decl: v.decl, space: v.space, addr: v.addr}
		case space == "shared":
			s.names[d.Name] = &entity{kind: entVar, decl: d, space: isa.Shared, dynamic: d.Linkage == "extern"}
		default:
			s.names[d.Name] = &entity{kind: entVar, decl: d, space: badSpace}
		}
	}
	for _, f := range l.mod.Funcs {
		if !f.Entry {
			s.names[f.Name] = &entity{kind: entFunc, fn: l.mod.Func(f.Name)}
		}
	}
	l.prog.Data = append(l.prog.Data, l.md.data...)
	l.prog.Symbols = append(l.prog.Symbols, l.md.symbols...)
	return s
}

// badSpace marks module variables in a state space the lowering does not support.
const badSpace isa.Space = 255

// placeShared gives a static shared variable its offset (once per kernel).
func (l *lowerer) placeShared(d *VarDecl) (uint64, error) {
	if off, ok := l.shared[d]; ok {
		return off, nil
	}
	if l.planned {
		return 0, errAt(d.Pos, "internal error: shared variable %s was not laid out before lowering", d.Name)
	}
	size, err := varSize(d)
	if err != nil {
		return 0, err
	}
	a := uint64(varAlign(d))
	off := (uint64(l.prog.SharedStatic) + a - 1) / a * a
	if off+size > maxVarBytes {
		return 0, errAt(d.Pos, "static shared memory exceeds %d bytes", maxVarBytes)
	}
	l.prog.SharedStatic = int(off + size)
	l.shared[d] = off
	l.prog.Symbols = append(l.prog.Symbols, isa.Symbol{Name: d.Name, Space: isa.Shared, Offset: off, Size: size, Pos: posOf(d.Pos), Elem: indexBytes(d)})
	return off, nil
}

// dynShared declares an extern shared array: the dynamic region, laid out
// after the static variables.
func (l *lowerer) dynShared(d *VarDecl) (*entity, error) {
	return &entity{kind: entVar, decl: d, space: isa.Shared, dynamic: true, addr: l.dynBase}, nil
}

// localKey names a .local variable of one activation: inlined copies of a
// function share its locals, except that each level of a recursion (which
// can be live at once) has its own.
type localKey struct {
	d     *VarDecl
	depth int
}

// placeLocal gives a .local variable its offset in the thread's stack.
func (l *lowerer) placeLocal(d *VarDecl) (uint64, error) {
	key := localKey{d, l.recursionDepth()}
	if off, ok := l.local[key]; ok {
		return off, nil
	}
	size, err := varSize(d)
	if err != nil {
		return 0, err
	}
	off := l.allocLocal(size, uint64(varAlign(d)))
	l.local[key] = off
	return off, nil
}

// allocLocal reserves size bytes of local memory aligned to a.
func (l *lowerer) allocLocal(size, a uint64) uint64 {
	a = max(a, 1)
	off := (l.localBytes + a - 1) / a * a
	l.localBytes = off + size
	return off
}
