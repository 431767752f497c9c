package ptx

// Stmt is a statement of a function body: *Instr, *Label, *VarDecl,
// *Block, *Loc, *Pragma, *Proto or *Targets.
type Stmt interface {
	Node
	stmt()
}

// Block is a brace-enclosed statement list: a function body or a nested
// scope such as an inline-asm block. Declarations inside it are local to it.
type Block struct {
	Pos   Pos // position of '{'
	Stmts []Stmt
}

// Label marks the position of the next statement: `$L__BB0_1:`.
type Label struct {
	Pos  Pos
	Name string
}

// Loc is a .loc debug directive: `.loc FILE LINE COL` (trailing
// function_name / inlined_at information is skipped).
type Loc struct {
	Pos             Pos
	File, Line, Col int
}

// Pragma is a .pragma statement inside a body, e.g. `.pragma "nounroll";`.
type Pragma struct {
	Pos    Pos
	Values []string // unquoted strings
}

// Proto is a labelled call prototype:
// `prototype_0 : .callprototype (.param .b32 _) _ (.param .b64 _);`.
type Proto struct {
	Pos     Pos
	Name    string // the label
	Returns []*VarDecl
	Params  []*VarDecl
	Attrs   []Attr // e.g. .noreturn
}

// Targets is a labelled target list for brx.idx or indirect calls:
// `ts: .branchtargets L1, L2;`.
type Targets struct {
	Pos   Pos
	Name  string   // the label
	Kind  string   // "branchtargets" or "calltargets"
	Names []string // the listed labels or functions
}

// Guard is an instruction predicate: `@%p1` or `@!%p1`.
type Guard struct {
	Pos  Pos
	Neg  bool
	Pred *Reg
}

// Instr is one instruction. The opcode word is split at dots: Op is the part
// before the first dot and Mods the remaining parts in order, without dots
// and with "::" kept inside a part. For example
// `mbarrier.try_wait.parity.shared::cta.b64` has Op "mbarrier" and Mods
// ["try_wait" "parity" "shared::cta" "b64"].
type Instr struct {
	Pos      Pos // start of the statement (the guard's '@' if guarded)
	Guard    *Guard
	Op       string
	Mods     []string
	Operands []Operand
}

// HasMod reports whether m is one of the instruction's modifiers.
func (in *Instr) HasMod(m string) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// Instrs returns every instruction in b, nested blocks included, in source
// order.
func (b *Block) Instrs() []*Instr {
	var out []*Instr
	b.Walk(func(s Stmt) {
		if in, ok := s.(*Instr); ok {
			out = append(out, in)
		}
	})
	return out
}

// Walk calls fn for every statement of b in source order, descending into
// nested blocks (fn sees a nested *Block before its statements).
func (b *Block) Walk(fn func(Stmt)) {
	for _, s := range b.Stmts {
		fn(s)
		if nb, ok := s.(*Block); ok {
			nb.Walk(fn)
		}
	}
}

// Position implements Node.
func (b *Block) Position() Pos { return b.Pos }

// Position implements Node.
func (l *Label) Position() Pos { return l.Pos }

// Position implements Node.
func (l *Loc) Position() Pos { return l.Pos }

// Position implements Node.
func (p *Pragma) Position() Pos { return p.Pos }

// Position implements Node.
func (p *Proto) Position() Pos { return p.Pos }

// Position implements Node.
func (t *Targets) Position() Pos { return t.Pos }

// Position implements Node.
func (g *Guard) Position() Pos { return g.Pos }

// Position implements Node.
func (in *Instr) Position() Pos { return in.Pos }

func (*Block) stmt()   {}
func (*Label) stmt()   {}
func (*Loc) stmt()     {}
func (*Pragma) stmt()  {}
func (*Proto) stmt()   {}
func (*Targets) stmt() {}
func (*Instr) stmt()   {}
func (*VarDecl) stmt() {}
