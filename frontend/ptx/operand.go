package ptx

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Operand is an instruction operand: *Reg, *Imm, *Sym, *Addr, *Vector,
// *Sink, *Not, *Pair or *List. String renders it in PTX syntax.
type Operand interface {
	Node
	String() string
	operand()
}

// Reg is a register. Name is the register name up to the first dot and Comp
// the rest: `%tid.x` is Name "%tid", Comp "x". Special is set for the
// predefined special registers (%tid, %ctaid, %clock64, %laneid, %envreg3,
// ...). A name without '%' is a Reg only where a .reg declaration of that
// name is in scope (e.g. `p` inside an inline-asm block); otherwise it is a
// *Sym.
type Reg struct {
	Pos     Pos
	Name    string
	Comp    string
	Special bool
}

// ImmKind says how an immediate was written.
type ImmKind uint8

// Immediate kinds.
const (
	ImmInt ImmKind = iota // integer literal: Int
	ImmF32                // 0fHHHHHHHH: Bits holds the 32 IEEE bits
	ImmF64                // 0dHHHHHHHHHHHHHHHH or decimal float: Bits holds the 64 IEEE bits
)

// Imm is an immediate constant.
type Imm struct {
	Pos      Pos
	Kind     ImmKind
	Int      int64  // ImmInt: the value (two's complement when ≥ 2^63)
	Unsigned bool   // ImmInt: written with a U suffix, or too large for int64
	Bits     uint64 // ImmF32/ImmF64: IEEE bit pattern
	Text     string // source spelling, including a leading '-'
}

// Float returns the value of a floating-point immediate (or the integer
// value converted, for ImmInt).
func (i *Imm) Float() float64 {
	switch i.Kind {
	case ImmF32:
		return float64(math.Float32frombits(uint32(i.Bits)))
	case ImmF64:
		return math.Float64frombits(i.Bits)
	}
	if i.Unsigned {
		return float64(uint64(i.Int))
	}
	return float64(i.Int)
}

// Sym names a variable, parameter, label or function, optionally with a
// byte offset: `sym`, `sym+4`.
type Sym struct {
	Pos    Pos
	Name   string
	Offset int64
}

// Addr is a memory operand in brackets: `[%rd1]`, `[%rd1+8]`, `[sym+16]`,
// `[0x100]` (Base nil), or a tensor access `[%rd1, {%r2, %r3}]` where
// Coords holds the operands after the first comma (here one *Vector).
type Addr struct {
	Pos    Pos
	Base   Operand // *Reg, *Sym (Offset 0), or nil for an absolute address
	Offset int64
	Coords []Operand
}

// Vector is a brace-enclosed operand list: `{%r1, %r2, _, %r4}`.
type Vector struct {
	Pos   Pos
	Elems []Operand
}

// Sink is the bit bucket `_`.
type Sink struct{ Pos Pos }

// Not is a negated predicate operand `!%p1`.
type Not struct {
	Pos Pos
	X   Operand
}

// Pair is a pair of destinations `%p1|%p2` (setp) or `%r1|%p1` (shfl, elect).
type Pair struct {
	Pos  Pos
	A, B Operand
}

// List is a parenthesized operand list of call: `(retval0)`, `(param0, param1)`.
type List struct {
	Pos   Pos
	Elems []Operand
}

// Position implements Node.
func (o *Reg) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Imm) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Sym) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Addr) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Vector) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Sink) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Not) Position() Pos { return o.Pos }

// Position implements Node.
func (o *Pair) Position() Pos { return o.Pos }

// Position implements Node.
func (o *List) Position() Pos { return o.Pos }

func (*Reg) operand()    {}
func (*Imm) operand()    {}
func (*Sym) operand()    {}
func (*Addr) operand()   {}
func (*Vector) operand() {}
func (*Sink) operand()   {}
func (*Not) operand()    {}
func (*Pair) operand()   {}
func (*List) operand()   {}

// String renders the register, e.g. "%tid.x".
func (o *Reg) String() string {
	if o.Comp == "" {
		return o.Name
	}
	return o.Name + "." + o.Comp
}

// String renders the immediate as written in the source, or canonically
// (decimal, 0fHHHHHHHH, 0dHHHHHHHHHHHHHHHH) when Text is empty.
func (o *Imm) String() string {
	if o.Text != "" {
		return o.Text
	}
	switch o.Kind {
	case ImmF32:
		return fmt.Sprintf("0f%08X", uint32(o.Bits))
	case ImmF64:
		return fmt.Sprintf("0d%016X", o.Bits)
	}
	if o.Unsigned {
		return strconv.FormatUint(uint64(o.Int), 10) + "U"
	}
	return strconv.FormatInt(o.Int, 10)
}

// String renders the symbol with its offset, e.g. "sym+4".
func (o *Sym) String() string { return o.Name + offsetString(o.Offset) }

func offsetString(off int64) string {
	if off == 0 {
		return ""
	}
	return "+" + strconv.FormatInt(off, 10)
}

// String renders the address, e.g. "[%rd1+8]", "[%rd1+-8]", "[%rd1, {%r2, %r3}]".
func (o *Addr) String() string {
	var b strings.Builder
	b.WriteByte('[')
	if o.Base != nil {
		b.WriteString(o.Base.String())
		b.WriteString(offsetString(o.Offset))
	} else {
		b.WriteString(strconv.FormatInt(o.Offset, 10))
	}
	for _, c := range o.Coords {
		b.WriteString(", ")
		b.WriteString(c.String())
	}
	b.WriteByte(']')
	return b.String()
}

// String renders the vector, e.g. "{%r1, _}".
func (o *Vector) String() string { return "{" + joinOperands(o.Elems) + "}" }

// String renders "_".
func (o *Sink) String() string { return "_" }

// String renders "!X".
func (o *Not) String() string { return "!" + o.X.String() }

// String renders "A|B".
func (o *Pair) String() string { return o.A.String() + "|" + o.B.String() }

// String renders "(a, b)".
func (o *List) String() string { return "(" + joinOperands(o.Elems) + ")" }

func joinOperands(ops []Operand) string {
	var b strings.Builder
	for i, op := range ops {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(op.String())
	}
	return b.String()
}

// Opcode returns the full opcode word, e.g. "mbarrier.arrive.shared::cta.b64".
func (in *Instr) Opcode() string {
	return strings.Join(append([]string{in.Op}, in.Mods...), ".")
}

// String renders the instruction without the trailing ';', e.g.
// "@!%p1 mbarrier.arrive.shared::cta.b64 %rd3, [%r1]".
func (in *Instr) String() string {
	var b strings.Builder
	if in.Guard != nil {
		b.WriteByte('@')
		if in.Guard.Neg {
			b.WriteByte('!')
		}
		b.WriteString(in.Guard.Pred.String())
		b.WriteByte(' ')
	}
	b.WriteString(in.Opcode())
	if len(in.Operands) > 0 {
		b.WriteByte(' ')
		b.WriteString(joinOperands(in.Operands))
	}
	return b.String()
}
