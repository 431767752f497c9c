package sass

import (
	"bytes"
	"fmt"
	"sort"
)

// Error is a located parse error. Line and Col are 1-based; Col counts bytes.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg) }

// Limits that keep a hostile listing from costing more than its size: in the committed listings no
// instruction has more than 7 operands or 7 modifiers, and no line is longer than 152 bytes.
const (
	maxOperands = 16
	maxMods     = 16
	maxLine     = 4096
)

// mnemonic is the interned form of one opcode spelling, shared by every instruction that uses it.
type mnemonic struct {
	text, op string
	mods     []string
	target   bool // the last integer operand is a branch target
}

// span is where one instruction's operands lie in the parser's operand block.
type span struct{ start, end int32 }

type parser struct {
	name    string
	file    *File
	fn      *Function
	ops     []Operand
	spans   []span
	mnems   map[string]*mnemonic
	strs    map[string]string
	pending *Instruction // an instruction whose high encoding word is the next line
	labels  map[string]labelDef
	// labelOrder lists the names of labels in the order they are defined.
	labelOrder []string
	named      []namedLabel // label lines waiting for the next instruction
	// pendingTargets are the BRANCH_TARGETS labels of the current function.
	pendingTargets []pendingTarget
	line           int
}

type labelDef struct {
	addr uint32
	line int
}

type namedLabel struct {
	name string
	line int
}

// Parse reads a `cuobjdump -sass` listing, with or without the instruction encodings, or an
// `nvdisasm -c` listing (labels, label operands, BRANCH_TARGETS annotations). name is the file name
// errors report. The first malformed line stops the parse with an *Error naming its line and column.
func Parse(name string, src []byte) (*File, error) {
	p := &parser{
		name:  name,
		file:  &File{Name: name},
		mnems: make(map[string]*mnemonic),
		strs:  make(map[string]string),
		// In the committed SASS an instruction with its encodings takes 232 bytes of text and an
		// operand 79; these capacities leave some room so the blocks rarely grow.
		ops:   make([]Operand, 0, len(src)/64),
		spans: make([]span, 0, len(src)/200),
	}
	for len(src) > 0 {
		p.line++
		n := bytes.IndexByte(src, '\n')
		var line []byte
		if n < 0 {
			line, src = src, nil
		} else {
			line, src = src[:n], src[n+1:]
		}
		if err := p.parseLine(line); err != nil {
			return nil, err
		}
	}
	if p.pending != nil {
		return nil, p.errAt(p.pending.Line, 1, "missing the high encoding word after this instruction")
	}
	if err := p.endFunction(); err != nil {
		return nil, err
	}
	p.attachOperands()
	return p.file, nil
}

func (p *parser) errAt(line, col int, format string, args ...any) error {
	return &Error{File: p.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) err(col int, format string, args ...any) error {
	return p.errAt(p.line, col, format, args...)
}

func (p *parser) parseLine(raw []byte) error {
	if len(raw) > maxLine {
		return p.err(maxLine+1, "line longer than %d bytes", maxLine)
	}
	line := bytes.TrimRight(raw, " \t\r")
	lead := len(line) - len(bytes.TrimLeft(line, " \t"))
	s := line[lead:]
	col := lead + 1
	if p.pending != nil {
		return p.highWord(s, col)
	}
	switch {
	case len(s) == 0:
		return nil
	case hasPrefix(s, "/*"):
		return p.instruction(s, col)
	case hasPrefix(s, "Function :"):
		return p.beginFunction(s[len("Function :"):], col)
	case hasPrefix(s, "code for "):
		return p.arch(s[len("code for "):], col+len("code for "))
	case hasPrefix(s, "//"):
		return nil // nvdisasm's comment lines
	case isDots(s):
		return p.endFunction()
	case isFatbinHeader(s):
		return nil
	case s[len(s)-1] == ':' && isLabelName(s[:len(s)-1]):
		if p.fn == nil {
			return p.err(col, "label outside a function")
		}
		p.named = append(p.named, namedLabel{string(s[:len(s)-1]), p.line})
		return nil
	case s[0] == '.':
		return p.directive(s, col)
	}
	return p.err(col, "unexpected line %q", clip(s))
}

func (p *parser) arch(s []byte, col int) error {
	a := string(bytes.TrimSpace(s))
	if a == "" {
		return p.err(col, "missing architecture after \"code for\"")
	}
	if p.file.Arch != "" && p.file.Arch != a {
		return p.err(col, "listing mixes %s and %s code; give one architecture per file", p.file.Arch, a)
	}
	p.file.Arch = a
	return nil
}

// isDots recognises cuobjdump's end-of-function line "..........".
func isDots(s []byte) bool {
	for _, c := range s {
		if c != '.' {
			return false
		}
	}
	return len(s) >= 3
}

// isFatbinHeader recognises the lines cuobjdump prints before each ELF of a fat binary.
func isFatbinHeader(s []byte) bool {
	for _, h := range []string{"Fatbin elf code:", "arch = ", "code version = ", "host = ", "compile_size = ",
		"identifier = ", "ptxasOptions = "} {
		if hasPrefix(s, h) {
			return true
		}
	}
	return len(s) >= 3 && bytes.Count(s, []byte("=")) == len(s)
}

func isLabelName(s []byte) bool {
	if len(s) == 0 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !isIdent(c) && c != '.' && c != '$' {
			return false
		}
	}
	return true
}

func clip(s []byte) string {
	if len(s) > 60 {
		return string(s[:60]) + "..."
	}
	return string(s)
}

// beginFunction starts the function named in s (after cuobjdump's "Function :" or from nvdisasm's
// ".section .text.NAME").
func (p *parser) beginFunction(s []byte, col int) error {
	if err := p.endFunction(); err != nil {
		return err
	}
	name := bytes.TrimSpace(s)
	if len(name) == 0 {
		return p.err(col, "missing function name")
	}
	p.file.Functions = append(p.file.Functions, Function{Name: string(name), Line: p.line})
	p.fn = &p.file.Functions[len(p.file.Functions)-1]
	p.labels = make(map[string]labelDef)
	p.labelOrder = p.labelOrder[:0]
	return nil
}

// intern returns a shared copy of s, so that repeated suffixes and names cost one allocation.
func (p *parser) intern(s []byte) string {
	if v, ok := p.strs[string(s)]; ok {
		return v
	}
	v := string(s)
	p.strs[v] = v
	return v
}

// attachOperands points every instruction at its operands, once the operand block has stopped
// growing.
func (p *parser) attachOperands() {
	k := 0
	for f := range p.file.Functions {
		ins := p.file.Functions[f].Instructions
		for i := range ins {
			sp := p.spans[k]
			k++
			if sp.end > sp.start {
				ins[i].Operands = p.ops[sp.start:sp.end:sp.end]
			}
		}
	}
}

// endFunction closes the current function: it resolves named targets and builds the label map.
func (p *parser) endFunction() error {
	f := p.fn
	if f == nil {
		return nil
	}
	p.fn = nil
	if err := p.endLabels(f); err != nil {
		return err
	}
	byAddr := make(map[uint32]*Label)
	add := func(addr uint32) *Label {
		l := byAddr[addr]
		if l == nil {
			l = &Label{Addr: addr, Index: -1}
			byAddr[addr] = l
		}
		return l
	}
	for _, name := range p.labelOrder {
		if l := add(p.labels[name].addr); l.Name == "" {
			l.Name = name // the first name defined at an address
		}
	}
	base := int32(len(p.spans) - len(f.Instructions))
	for i := range f.Instructions {
		in := &f.Instructions[i]
		sp := p.spans[base+int32(i)]
		for k := sp.start; k < sp.end; k++ {
			o := &p.ops[k]
			if o.Kind != KindTarget {
				continue
			}
			if o.Name != "" {
				d, ok := p.labels[o.Name]
				if !ok {
					return p.errAt(in.Line, 1, "undefined label %s", o.Name)
				}
				o.Int = int64(d.addr)
			}
			l := add(uint32(o.Int))
			l.From = append(l.From, in.Addr)
		}
	}
	if err := p.resolveAnnotations(f, add); err != nil {
		return err
	}
	f.Labels = make([]Label, 0, len(byAddr))
	for _, l := range byAddr {
		sort.Slice(l.From, func(i, j int) bool { return l.From[i] < l.From[j] })
		f.Labels = append(f.Labels, *l)
	}
	sort.Slice(f.Labels, func(i, j int) bool { return f.Labels[i].Addr < f.Labels[j].Addr })
	return p.resolveLabels(f)
}

// resolveLabels finds each label's instruction; a target inside the function that is not an
// instruction address is an error, one outside it (a call into another function) is kept with
// Index -1.
func (p *parser) resolveLabels(f *Function) error {
	if len(f.Instructions) == 0 {
		if len(f.Labels) > 0 {
			return p.errAt(f.Line, 1, "function %s has targets but no instructions", f.Name)
		}
		return nil
	}
	first, last := f.Instructions[0].Addr, f.Instructions[len(f.Instructions)-1].Addr
	for i := range f.Labels {
		l := &f.Labels[i]
		if k, ok := f.Index(l.Addr); ok {
			l.Index = k
			continue
		}
		if l.Addr >= first && l.Addr <= last {
			line := f.Line
			if len(l.From) > 0 {
				k, _ := f.Index(l.From[0])
				line = f.Instructions[k].Line
			}
			return p.errAt(line, 1, "branch target 0x%x is not an instruction address of %s", l.Addr, f.Name)
		}
	}
	return nil
}
