package sass

import (
	"sort"
	"strings"
)

// File is one parsed `cuobjdump -sass` listing.
type File struct {
	Name      string // the name given to Parse, used in errors
	Arch      string // from "code for sm_90a"
	Target    string // from ".target sm_90a"
	Functions []Function
}

// Function returns the function with the given (mangled) name, or nil.
func (f *File) Function(name string) *Function {
	for i := range f.Functions {
		if f.Functions[i].Name == name {
			return &f.Functions[i]
		}
	}
	return nil
}

// Function is one "Function : NAME" block: a kernel and the subroutines ptxas placed in its text
// section (cuobjdump lists the $__internal_N_$... helpers of a kernel inside it).
type Function struct {
	Name        string
	HeaderFlags string // the .headerflags string, without its quotes
	Line        int    // line of the "Function :" header
	// Instructions are in address order; addresses are strictly increasing.
	Instructions []Instruction
	// Labels are the branch targets and named labels of the function in address order, with the
	// instructions that jump to each. Every label inside the function's address range is an
	// instruction address (the parser refuses others).
	Labels []Label
}

// Index returns the index of the instruction at addr.
func (f *Function) Index(addr uint32) (int, bool) {
	in := f.Instructions
	if len(in) > 0 && addr >= in[0].Addr {
		if i := int(addr-in[0].Addr) / 16; i < len(in) && in[i].Addr == addr {
			return i, true
		}
	}
	i := sort.Search(len(in), func(i int) bool { return in[i].Addr >= addr })
	return i, i < len(in) && in[i].Addr == addr
}

// Label returns the label at addr.
func (f *Function) Label(addr uint32) (*Label, bool) {
	i := sort.Search(len(f.Labels), func(i int) bool { return f.Labels[i].Addr >= addr })
	if i < len(f.Labels) && f.Labels[i].Addr == addr {
		return &f.Labels[i], true
	}
	return nil, false
}

// Label is a branch target.
type Label struct {
	Addr uint32
	// Name is the label's name where the text gave one (nvdisasm's ".L_x_12", the first one defined
	// when several name the address); cuobjdump prints targets as addresses and leaves it empty.
	Name string
	// Index is the instruction index of Addr, or -1 when the address lies outside the function (a
	// CALL to another function, resolved by relocation, or nvdisasm's label of the function's end).
	Index int
	// From are the addresses of the instructions that name the target, in address order.
	From []uint32
}

// Instruction is one SASS instruction.
type Instruction struct {
	Addr uint32 // byte offset in the function's text section
	Line int    // source line
	// Guard is the predicate guarding the instruction (@P0, @!UP1); Guard.Reg.File is NoReg when
	// it has none. The encoding's guard field is PT then.
	Guard Guard
	// Op is the base mnemonic ("IMAD") and Mods its modifiers in order ("MOV", "U32"). Mnemonic is
	// the two joined as printed ("IMAD.MOV.U32"). Mods is shared by all instructions with the same
	// mnemonic and must not be modified.
	Op       string
	Mods     []string
	Mnemonic string
	Operands []Operand
	// Enc is the machine word; HasEnc is false for listings printed without encodings, and then
	// Ctrl is zero too.
	Enc    Encoding
	HasEnc bool
	Ctrl   Control
	// BranchTargets are the addresses an indirect branch (BRX) may jump to, where the text names
	// them (nvdisasm's BRANCH_TARGETS annotation); a cubin gives them as Func.IndirectBranches.
	BranchTargets []uint32
	// Annotation is the text of an nvdisasm annotation (*"..."*), without its delimiters.
	Annotation string
}

// Guard is an instruction's guard predicate.
type Guard struct {
	Reg Reg
	Not bool
}

// HasMod reports whether the instruction has modifier m.
func (in *Instruction) HasMod(m string) bool {
	for _, x := range in.Mods {
		if x == m {
			return true
		}
	}
	return false
}

// Target returns the instruction's branch target operand, if it has one.
func (in *Instruction) Target() (*Operand, bool) {
	for i := range in.Operands {
		if in.Operands[i].Kind == KindTarget {
			return &in.Operands[i], true
		}
	}
	return nil, false
}

// String prints the instruction as cuobjdump does, without address and encoding:
// "@!P0 BRA 0x4d0", "IMAD.MOV.U32 R2, RZ, RZ, R7"; label operands and annotations as nvdisasm
// does.
func (in *Instruction) String() string {
	var b strings.Builder
	if in.Guard.Reg.Valid() {
		b.WriteByte('@')
		if in.Guard.Not {
			b.WriteByte('!')
		}
		b.WriteString(in.Guard.Reg.String())
		b.WriteByte(' ')
	}
	b.WriteString(in.Mnemonic)
	for i := range in.Operands {
		if i == 0 {
			b.WriteByte(' ')
		} else if spaceSeparated(in, i) {
			b.WriteByte(' ')
		} else {
			b.WriteString(", ")
		}
		in.Operands[i].write(&b)
	}
	if in.Annotation != "" {
		b.WriteString(` (*"` + in.Annotation + `"*)`)
	}
	return b.String()
}

// spaceSeparated reports whether operand i is printed after a space instead of a comma: cuobjdump
// writes the displacement of BRX and RET that way ("BRX R4 -0x380", "RET.REL.NODEC R12 0x0").
func spaceSeparated(in *Instruction, i int) bool {
	return i == len(in.Operands)-1 && (in.Op == "BRX" || in.Op == "RET" || in.Op == "JMX") &&
		in.Operands[i].Kind == KindInt
}
