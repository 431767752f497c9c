package sass

import (
	"strconv"
	"strings"
)

// Kind says what an Operand is.
type Kind uint8

// Operand kinds. The fields of Operand that each kind uses are listed with it.
const (
	KindNone    Kind = iota
	KindReg          // a register: Reg, Suffix ("R2.64", "R7.H0_H0", "P0", "UR4", "B1", "SB0")
	KindSpecial      // a special register or register set: Name ("SR_TID.X", "SR_CLOCKLO", "SRZ", "PR")
	KindInt          // an integer immediate (cuobjdump prints integers in hex): Int
	KindFloat        // a floating literal (printed in decimal, or ±INF, ±QNAN): Float, with its spelling in Name
	KindConst        // a constant-bank operand c[Bank][Int] or c[Bank][Reg+Int], cx[BankReg][Reg+Int]
	KindMem          // a memory address [Reg+Index+Int], optionally desc[Desc][...]
	KindTarget       // a branch target: Int is the address in the function, Name the label if the text named one
	KindList         // a register list {R4,R5}: List
	KindUnknown      // an operand the parser does not know; Name holds its text
)

// Mod is a set of operand modifiers.
type Mod uint8

// Operand modifiers. Neg, Abs and Not apply to registers and constants as printed ("-R4", "|R5|",
// "~R6"); LNot is the logical negation of a predicate ("!P0"); Reuse is the operand-reuse-cache hint
// (".reuse"), whose bits are also in the control field (Control.Reuse).
const (
	ModNeg Mod = 1 << iota
	ModAbs
	ModNot
	ModLNot
	ModReuse
)

// Operand is one typed instruction operand. It is a value of fixed size except for List; the parser
// allocates all operands of a file in one block.
type Operand struct {
	Kind Kind
	Mods Mod
	// Reg is the register of KindReg, the base of KindMem, the index of KindConst (File NoReg when
	// absent).
	Reg Reg
	// Index is the second register of a KindMem address ([R2+UR4]).
	Index Reg
	// Desc is the descriptor register of desc[UR4][...] (KindMem) or the bank register of cx[UR4][...]
	// (KindConst).
	Desc Reg
	// Bank is the constant bank of c[Bank][...].
	Bank uint8
	// Suffix is what follows Reg's name other than .reuse: ".64", ".H0_H0", ".H1", ".B1", ".U32"...
	Suffix string
	// IndexSuffix is what follows Index's name.
	IndexSuffix string
	// Name is the special register's name, the label of a target, a float's spelling or an unknown
	// operand's text.
	Name string
	// Int is the integer value, the address offset (KindMem, KindConst) or the target address.
	Int int64
	// Float is the value of a KindFloat.
	Float float64
	// List holds the registers of a KindList.
	List []Reg
}

// IsReg reports whether o is a register of file f.
func (o *Operand) IsReg(f RegFile) bool { return o.Kind == KindReg && o.Reg.File == f }

// String prints o in cuobjdump's spelling; for operands read from cuobjdump text it gives back the
// original text.
func (o *Operand) String() string {
	var b strings.Builder
	o.write(&b)
	return b.String()
}

func (o *Operand) write(b *strings.Builder) {
	switch {
	case o.Mods&ModNeg != 0 && o.Kind != KindInt:
		b.WriteByte('-')
	case o.Mods&ModNot != 0:
		b.WriteByte('~')
	case o.Mods&ModLNot != 0:
		b.WriteByte('!')
	}
	if o.Mods&ModAbs != 0 {
		b.WriteByte('|')
	}
	switch o.Kind {
	case KindReg:
		b.WriteString(o.Reg.String())
	case KindSpecial, KindUnknown, KindFloat:
		b.WriteString(o.Name)
	case KindInt:
		writeInt(b, o.Int)
	case KindConst:
		o.writeConst(b)
	case KindMem:
		o.writeMem(b)
	case KindTarget:
		if o.Name != "" {
			b.WriteString("`(" + o.Name + ")")
		} else {
			writeInt(b, o.Int)
		}
	case KindList:
		b.WriteByte('{')
		for i, r := range o.List {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(r.String())
		}
		b.WriteByte('}')
	}
	if o.Mods&ModAbs != 0 {
		b.WriteByte('|')
	}
	if o.Mods&ModReuse != 0 {
		b.WriteString(".reuse")
	}
	if o.Kind == KindReg {
		b.WriteString(o.Suffix)
	}
}

func (o *Operand) writeConst(b *strings.Builder) {
	if o.Desc.Valid() {
		b.WriteString("cx[" + o.Desc.String() + "][")
	} else {
		b.WriteString("c[")
		writeInt(b, int64(o.Bank))
		b.WriteString("][")
	}
	if o.Reg.Valid() {
		b.WriteString(o.Reg.String())
		b.WriteString(o.Suffix)
		if o.Int != 0 {
			b.WriteByte('+')
			writeInt(b, o.Int)
		}
	} else {
		writeInt(b, o.Int)
	}
	b.WriteByte(']')
}

func (o *Operand) writeMem(b *strings.Builder) {
	if o.Name == "gdesc" {
		b.WriteString("gdesc[" + o.Desc.String() + "]" + o.Suffix)
		return
	}
	if o.Desc.Valid() {
		b.WriteString("desc[" + o.Desc.String() + "]")
	}
	b.WriteByte('[')
	sep := false
	if o.Reg.Valid() {
		b.WriteString(o.Reg.String())
		b.WriteString(o.Suffix)
		sep = true
	}
	if o.Index.Valid() {
		if sep {
			b.WriteByte('+')
		}
		b.WriteString(o.Index.String())
		b.WriteString(o.IndexSuffix)
		sep = true
	}
	if o.Int != 0 || !sep {
		if sep {
			b.WriteByte('+')
		}
		writeInt(b, o.Int)
	}
	b.WriteByte(']')
}

// writeInt prints v as cuobjdump prints integers: lower-case hex, a minus sign before negatives.
func writeInt(b *strings.Builder, v int64) {
	if v < 0 {
		b.WriteString("-0x")
		b.WriteString(strconv.FormatUint(-uint64(v), 16))
		return
	}
	b.WriteString("0x")
	b.WriteString(strconv.FormatUint(uint64(v), 16))
}
