package isa

import "strconv"

// Title is the kernel's name as reports give it: Display, else Name.
func (p *Program) Title() string {
	if p.Display != "" {
		return p.Display
	}
	return p.Name
}

// Title is the symbol's name as reports give it: Display, else Name.
func (y Symbol) Title() string {
	if y.Display != "" {
		return y.Display
	}
	return y.Name
}

// At names the byte off bytes into the symbol after its reported name:
// an element of an array with an element size (full[1], full[1]+4), else
// the name and a byte offset (smem+16384), or the name alone at offset 0.
func (y Symbol) At(off uint64) string {
	return at(y.Title(), y.Elem, off)
}

// LinkAt is At with the source's own name and byte offsets
// (_ZZ10pipe_benchE4full+8): the spelling the input file uses.
func (y Symbol) LinkAt(off uint64) string {
	return at(y.Name, 0, off)
}

func at(name string, elem, off uint64) string {
	if elem > 0 {
		name += "[" + strconv.FormatUint(off/elem, 10) + "]"
		off %= elem
	}
	if off != 0 {
		name += "+" + strconv.FormatUint(off, 10)
	}
	return name
}
