package sass

import (
	"bytes"
	"strings"
)

// directive handles a line starting with '.': cuobjdump's .headerflags and .target, and the
// assembler directives of nvdisasm output. A ".section .text.NAME" starts function NAME; other
// sections end the current function. The symbol and layout directives carry nothing the listing
// needs (the cubin has them) and are skipped; any other directive is an error.
func (p *parser) directive(s []byte, col int) error {
	word := s
	if k := bytes.IndexAny(s, " \t"); k >= 0 {
		word = s[:k]
	}
	arg := bytes.TrimSpace(s[len(word):])
	switch string(word) {
	case ".headerflags":
		if p.fn == nil {
			return p.err(col, ".headerflags outside a function")
		}
		v := bytes.TrimPrefix(arg, []byte("@"))
		p.fn.HeaderFlags = string(bytes.Trim(v, `"`))
	case ".target":
		p.file.Target = string(arg)
	case ".section":
		name := arg
		if k := bytes.IndexByte(arg, ','); k >= 0 {
			name = arg[:k]
		}
		if fn, ok := bytes.CutPrefix(name, []byte(".text.")); ok {
			return p.beginFunction(fn, col)
		}
		return p.endFunction()
	case ".align", ".global", ".weak", ".type", ".size", ".other", ".elftype", ".sectionflags",
		".sectioninfo", ".sectionentsize", ".zero", ".byte", ".short", ".word", ".dword":
	default:
		return p.err(col, "unknown directive %s", clip(word))
	}
	return nil
}

// endLabels defines the labels that follow a function's last instruction (nvdisasm ends every
// function with one, the end of its .size): they name the address just past the end.
func (p *parser) endLabels(f *Function) error {
	if len(p.named) == 0 {
		return nil
	}
	if len(f.Instructions) == 0 {
		return p.errAt(p.named[0].line, 1, "label %s in a function without instructions", p.named[0].name)
	}
	end := f.Instructions[len(f.Instructions)-1].Addr + 16
	for _, l := range p.named {
		if _, dup := p.labels[l.name]; dup {
			return p.errAt(l.line, 1, "label %s defined twice", l.name)
		}
		p.labels[l.name] = labelDef{addr: end, line: l.line}
		p.labelOrder = append(p.labelOrder, l.name)
	}
	p.named = p.named[:0]
	return nil
}

// semicolon returns the index of the ';' that ends an instruction, skipping an nvdisasm
// annotation (*"..."*) that may stand before it.
func semicolon(s []byte) int {
	start := 0
	if a := bytes.Index(s, []byte("(*")); a >= 0 {
		if e := bytes.Index(s[a:], []byte("*)")); e >= 0 {
			start = a + e + 2
		}
	}
	if k := bytes.IndexByte(s[start:], ';'); k >= 0 {
		return start + k
	}
	return -1
}

// annotation reads nvdisasm's (*"TEXT"*) at s[i] into in.Annotation and returns the index after
// it. "BRANCH_TARGETS a,b,c" names the targets of a BRX, resolved when the function ends.
func (p *parser) annotation(in *Instruction, s []byte, i, col int) (int, error) {
	rest := s[i:]
	e := bytes.Index(rest, []byte(`"*)`))
	if !hasPrefix(rest, `(*"`) || e < 0 {
		return i, p.err(col+i, `bad annotation: want (*"text"*)`)
	}
	in.Annotation = string(rest[3:e])
	if names, ok := strings.CutPrefix(in.Annotation, "BRANCH_TARGETS "); ok {
		for _, n := range strings.Split(names, ",") {
			n = strings.TrimSpace(n)
			if !isLabelName([]byte(n)) {
				return i, p.err(col+i, "bad branch target %q in annotation", n)
			}
			p.pendingTargets = append(p.pendingTargets, pendingTarget{instr: len(p.fn.Instructions) - 1, name: n})
		}
	}
	return i + e + 3, nil
}

// pendingTarget is a BRANCH_TARGETS label waiting for its function to end.
type pendingTarget struct {
	instr int
	name  string
}

// resolveAnnotations turns the BRANCH_TARGETS labels of f into Instruction.BranchTargets.
func (p *parser) resolveAnnotations(f *Function, add func(uint32) *Label) error {
	for _, t := range p.pendingTargets {
		in := &f.Instructions[t.instr]
		d, ok := p.labels[t.name]
		if !ok {
			return p.errAt(in.Line, 1, "undefined label %s", t.name)
		}
		in.BranchTargets = append(in.BranchTargets, d.addr)
		l := add(d.addr)
		l.From = append(l.From, in.Addr)
	}
	p.pendingTargets = p.pendingTargets[:0]
	return nil
}
