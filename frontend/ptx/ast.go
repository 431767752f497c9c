package ptx

import "fmt"

// Pos is a source position. Line and Col are 1-based; Col counts bytes
// (a tab is one column).
type Pos struct {
	File      string
	Line, Col int
}

// String formats p as FILE:LINE:COL.
func (p Pos) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Node is implemented by every AST node; Position reports where it starts.
type Node interface{ Position() Pos }

// Module is one parsed PTX file. Declarations and functions keep their
// source order within their own list.
type Module struct {
	File        string         // file name given to Parse
	Version     string         // .version, e.g. "9.0"
	Target      []string       // .target list, e.g. ["sm_90a"]
	AddressSize int            // .address_size (0 if absent)
	Files       map[int]string // .file index -> path (nil if none)
	Pragmas     []string       // module-scope .pragma strings
	Decls       []*VarDecl     // module-scope variables
	Funcs       []*Func        // .entry and .func definitions and declarations
}

// Attr is a performance-tuning or other attribute of a function header,
// e.g. .maxntid 128, 1, 1 (Name "maxntid", Args [128 1 1]) or
// .pragma "nounroll" (Name "pragma", Strs ["nounroll"]).
type Attr struct {
	Pos  Pos      // position of the directive
	Name string   // without the leading dot
	Args []int64  // integer arguments
	Strs []string // string arguments (unquoted), for .pragma
}

// Func is a kernel (.entry) or device function (.func).
type Func struct {
	Pos     Pos        // start of the declaration (linkage or .entry/.func)
	Name    string     // kernel or function name
	NamePos Pos        // position of the name
	Entry   bool       // .entry (kernel); false for .func
	Linkage string     // "", "visible", "extern", "weak" or "common"
	Returns []*VarDecl // return parameters of a .func, in order
	Params  []*VarDecl // parameters, in order
	Attrs   []Attr     // header attributes in source order
	Body    *Block     // nil for a declaration (prototype or .extern)
}

// Position implements Node.
func (f *Func) Position() Pos { return f.Pos }

// Attr returns the first attribute named name (without dot), or nil.
func (f *Func) Attr(name string) *Attr {
	for i := range f.Attrs {
		if f.Attrs[i].Name == name {
			return &f.Attrs[i]
		}
	}
	return nil
}

// Instrs returns every instruction of the body, nested blocks included,
// in source order. It returns nil for a declaration.
func (f *Func) Instrs() []*Instr {
	if f.Body == nil {
		return nil
	}
	return f.Body.Instrs()
}

// Func returns the function or kernel called name: its definition if there
// is one, else its last declaration, else nil.
func (m *Module) Func(name string) *Func {
	var decl *Func
	for _, f := range m.Funcs {
		if f.Name != name {
			continue
		}
		if f.Body != nil {
			return f
		}
		decl = f
	}
	return decl
}

// Entries returns the kernels (.entry) that have a body, in source order.
func (m *Module) Entries() []*Func {
	var out []*Func
	for _, f := range m.Funcs {
		if f.Entry && f.Body != nil {
			out = append(out, f)
		}
	}
	return out
}

// Decl returns the module-scope variable called name, or nil.
func (m *Module) Decl(name string) *VarDecl {
	for _, d := range m.Decls {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// VarDecl declares one variable (a declaration that lists several names,
// `.reg .b32 a, b;`, yields one VarDecl per name). Function parameters and
// callprototype parameters are VarDecls too.
type VarDecl struct {
	Pos      Pos      // position of the name
	Linkage  string   // "", "visible", "extern", "weak" or "common"
	Space    string   // "reg", "shared", "global", "const", "local", "param", "tex", ... (spelled as written, without dot)
	Attrs    []string // .attribute(...) contents, e.g. ["managed"]
	Align    int      // .align N before or after the type; 0 if absent
	Vec      int      // 2, 4 or 8 for .v2/.v4/.v8; 0 for a scalar
	Type     string   // "b32", "u64", "f32", "pred", ... (without dot)
	Ptr      bool     // .ptr parameter attribute
	PtrSpace string   // state space after .ptr ("global", "shared", ...; "" if none)
	PtrAlign int      // .align after .ptr; 0 if absent
	Name     string   // variable name (base name for a range)
	Count    int      // N of a %r<N> range (registers Name0..Name(N-1)); 0 if not a range
	Array    []int    // array dimensions in order; -1 for an unsized []
	Init     *Init    // initializer; nil if none
}

// Position implements Node.
func (d *VarDecl) Position() Pos { return d.Pos }

// Init is an initializer: a scalar value or a brace-enclosed list.
// Value is nil exactly when the initializer is a list (possibly empty).
type Init struct {
	Pos     Pos
	Value   Operand // *Imm, or *Sym for an address (with offset); nil for a list
	Generic bool    // the symbol was written generic(sym)
	Mask    uint64  // byte mask of a mask expression 0xFF00(sym); 0 if none
	List    []*Init // list elements
}

// Position implements Node.
func (i *Init) Position() Pos { return i.Pos }
