package sass

import (
	"sort"
	"strings"
)

// MnemonicCount is how often one opcode spelling (base opcode and modifiers) occurs.
type MnemonicCount struct {
	Mnemonic string // "IMAD.MOV.U32"
	Count    int
}

// Inventory counts the mnemonics of the given listings, sorted by mnemonic. SeenMnemonics is this
// list for the SASS committed to the repository.
func Inventory(files ...*File) []MnemonicCount {
	counts := map[string]int{}
	for _, f := range files {
		for i := range f.Functions {
			for k := range f.Functions[i].Instructions {
				counts[f.Functions[i].Instructions[k].Mnemonic]++
			}
		}
	}
	out := make([]MnemonicCount, 0, len(counts))
	for m, n := range counts {
		out = append(out, MnemonicCount{m, n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Mnemonic < out[j].Mnemonic })
	return out
}

// OperandForm describes an instruction's operands by kind only, so that instructions differing
// in register numbers and values share one form: "R, UR, c[I][I]", "P, PT, R, RZ, I",
// "desc[UR][R.64+I], R". Zero registers and true predicates are spelled as such because they
// change what an instruction does; a guard shows as "@P" or "@UP".
func OperandForm(in *Instruction) string {
	var b strings.Builder
	if in.Guard.Reg.Valid() {
		b.WriteString("@" + regForm(in.Guard.Reg) + " ")
	}
	for i := range in.Operands {
		if i > 0 {
			b.WriteString(", ")
		}
		o := &in.Operands[i]
		switch o.Kind {
		case KindReg:
			b.WriteString(regForm(o.Reg))
		case KindSpecial:
			b.WriteString(o.Name)
		case KindInt:
			b.WriteString("I")
		case KindFloat:
			b.WriteString("F")
		case KindTarget:
			b.WriteString("T")
		case KindList:
			b.WriteString("{R}")
		case KindConst:
			if o.Desc.Valid() {
				b.WriteString("cx[UR][")
			} else {
				b.WriteString("c[I][")
			}
			b.WriteString(addrForm(o))
			b.WriteString("]")
		case KindMem:
			if o.Desc.Valid() {
				b.WriteString("desc[UR]")
			}
			b.WriteString("[" + addrForm(o) + "]")
		default:
			b.WriteString("?" + o.Name)
		}
	}
	return b.String()
}

func regForm(r Reg) string {
	if r.IsZero() || r.IsTrue() {
		return r.String()
	}
	switch r.File {
	case GPR:
		return "R"
	case UGPR:
		return "UR"
	case Pred:
		return "P"
	case UPred:
		return "UP"
	case Barrier:
		return "B"
	case Scoreboard:
		return "SB"
	}
	return "?"
}

func addrForm(o *Operand) string {
	var parts []string
	if o.Reg.Valid() {
		parts = append(parts, regForm(o.Reg)+o.Suffix)
	}
	if o.Index.Valid() {
		parts = append(parts, regForm(o.Index)+o.IndexSuffix)
	}
	if o.Int != 0 || len(parts) == 0 {
		parts = append(parts, "I")
	}
	return strings.Join(parts, "+")
}
