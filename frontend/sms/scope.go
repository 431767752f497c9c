package sms

import "github.com/smsim/smsim/isa"

type symKind uint8

// Kinds of named things.
const (
	symConst   symKind = iota // compile-time integer
	symParam                  // integer kernel parameter (loaded once into a register)
	symBuffer                 // global buffer: a pointer kernel parameter
	symTensor                 // tensor map kernel parameter
	symBarrier                // mbarrier or mbarrier array in shared memory
	symShared                 // shared-memory region
	symVar                    // let variable (a register)
	symLoopVar                // for-loop variable (a register the program cannot assign)
)

// symbol is a declared name.
type symbol struct {
	kind symKind
	name string
	pos  isa.Pos
	val  int64   // constant value; barrier / shared offset; parameter offset
	n    int64   // barrier array length (0 for a single barrier); region size in bytes
	dims []int64 // shared region / buffer dimensions in bytes, outermost first
	reg  int     // register of a variable
}

func (k symKind) String() string {
	switch k {
	case symConst:
		return "constant"
	case symParam:
		return "parameter"
	case symBuffer:
		return "global buffer"
	case symTensor:
		return "tensor map"
	case symBarrier:
		return "barrier"
	case symShared:
		return "shared region"
	case symVar:
		return "variable"
	}
	return "loop variable"
}

// isBuiltin reports whether name is a predefined value.
//
//	tid     %tid.x             lane    %laneid          warp   %tid.x / 32
//	ctaid   %ctaid.x           ntid    %ntid.x          nwarps (%ntid.x + 31) / 32
//	clock   %clock64 (read where used)                  dynsmem offset of dynamic shared memory
func isBuiltin(name string) bool {
	switch name {
	case "tid", "lane", "warp", "ctaid", "ntid", "nwarps", "clock", "dynsmem":
		return true
	}
	return false
}

// builtinSpecial is the special register a hoisted builtin reads.
func builtinSpecial(name string) isa.Special {
	switch name {
	case "lane":
		return isa.SLaneID
	case "ctaid":
		return isa.SCtaidX
	case "ntid":
		return isa.SNtidX
	}
	return isa.STidX
}

func (g *gen) pushScope() { g.scopes = append(g.scopes, map[string]*symbol{}) }
func (g *gen) popScope()  { g.scopes = g.scopes[:len(g.scopes)-1] }

// lookup finds a visible name, innermost scope first.
func (g *gen) lookup(name string) *symbol {
	for i := len(g.scopes) - 1; i >= 0; i-- {
		if s := g.scopes[i][name]; s != nil {
			return s
		}
	}
	return nil
}

// define adds a name to the innermost scope. Names never shadow: a name
// visible anywhere in scope cannot be declared again.
func (g *gen) define(s *symbol) error {
	if old := g.lookup(s.name); old != nil {
		return errAt(s.pos, "duplicate name %s: already declared as a %s at %d:%d", s.name, old.kind, old.pos.Line, old.pos.Col)
	}
	g.scopes[len(g.scopes)-1][s.name] = s
	return nil
}

// resolve finds a name used in an expression or operand.
func (g *gen) resolve(pos isa.Pos, name string) (*symbol, error) {
	if s := g.lookup(name); s != nil {
		return s, nil
	}
	return nil, errAt(pos, "unknown name %s (expected a constant, variable, barrier, region, buffer or one of tid, lane, warp, ctaid, ntid, nwarps, clock, dynsmem)", name)
}

// builtinReg returns the register holding a hoisted builtin or parameter,
// emitting its read into the prologue on first use.
func (g *gen) builtinReg(name string) int {
	if r, ok := g.hoisted[name]; ok {
		return r
	}
	var ins []isa.Instr
	r := g.regs.named(name)
	switch name {
	case "warp":
		t := g.builtinReg("tid")
		ins = append(ins, isa.Instr{Op: isa.OpShr, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.R(t), isa.Imm(5)}})
	case "nwarps":
		t := g.builtinReg("ntid")
		ins = append(ins,
			isa.Instr{Op: isa.OpAdd, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.R(t), isa.Imm(31)}},
			isa.Instr{Op: isa.OpShr, Type: isa.S64, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.R(r), isa.Imm(5)}})
	default: // tid, lane, ctaid, ntid: one special-register read
		ins = append(ins, isa.Instr{Op: isa.OpMov, Type: isa.U32, NDst: 1, Ops: []isa.Operand{isa.R(r), isa.Spec(builtinSpecial(name))}})
	}
	g.hoist(name, r, ins...)
	return r
}

// paramReg returns the register holding a scalar or pointer parameter,
// loading it (ld.param.u64) in the prologue on first use.
func (g *gen) paramReg(s *symbol) int {
	if r, ok := g.hoisted[s.name]; ok {
		return r
	}
	r := g.regs.named(s.name)
	t := isa.U64
	if s.kind == symParam {
		t = isa.S64
	}
	g.hoist(s.name, r, isa.Instr{Op: isa.OpLd, Type: t, Space: isa.ParamSpace, NDst: 1,
		Ops: []isa.Operand{isa.R(r), isa.Addr(-1, s.val)}})
	return r
}

func (g *gen) hoist(name string, r int, ins ...isa.Instr) {
	for _, in := range ins {
		in.Pos, in.Reconv = g.pos, isa.NoReconv
		g.pro = append(g.pro, in)
	}
	g.hoisted[name] = r
}
