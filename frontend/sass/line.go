package sass

import "strings"

// instruction parses "/*ADDR*/  [@[!]Pn] OPCODE[.MOD...] operands ;  [/* 0xLO */]". s starts at "/*"
// and col is its column.
func (p *parser) instruction(s []byte, col int) error {
	if hasPrefix(s, "/* 0x") {
		return p.err(col, "encoding word without an instruction")
	}
	if p.fn == nil {
		return p.err(col, "instruction outside a function")
	}
	i := 2
	addr, n, ok := hexDigits(s[i:], 8)
	if !ok || !hasPrefix(s[i+n:], "*/") {
		return p.err(col+i, "bad instruction address: want /*hex*/")
	}
	i += n + 2
	fn := p.fn
	if k := len(fn.Instructions); k > 0 && uint32(addr) <= fn.Instructions[k-1].Addr {
		return p.err(col+2, "address 0x%x does not follow 0x%x", addr, fn.Instructions[k-1].Addr)
	}
	semi := semicolon(s[i:])
	if semi < 0 {
		return p.err(col+len(s), "missing ';' at the end of the instruction")
	}
	text, rest := s[i:i+semi], s[i+semi+1:]
	fn.Instructions = append(fn.Instructions, Instruction{Addr: uint32(addr), Line: p.line})
	in := &fn.Instructions[len(fn.Instructions)-1]
	for _, l := range p.named {
		if _, dup := p.labels[l.name]; dup {
			return p.errAt(l.line, 1, "label %s defined twice", l.name)
		}
		p.labels[l.name] = labelDef{addr: uint32(addr), line: l.line}
		p.labelOrder = append(p.labelOrder, l.name)
	}
	p.named = p.named[:0]
	if err := p.body(in, text, col+i); err != nil {
		return err
	}
	return p.lowWord(in, rest, col+i+semi+1)
}

// lowWord reads the optional "/* 0x... */" after the ';'.
func (p *parser) lowWord(in *Instruction, s []byte, col int) error {
	k := 0
	for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
		k++
	}
	if k == len(s) {
		return nil
	}
	v, ok := encWord(s[k:])
	if !ok {
		return p.err(col+k, "after ';' want the encoding comment /* 0x... */")
	}
	in.Enc.Lo = v
	in.HasEnc = true
	p.pending = in
	return nil
}

// highWord reads the line "/* 0x... */" that follows an instruction with an encoding.
func (p *parser) highWord(s []byte, col int) error {
	v, ok := encWord(s)
	if !ok {
		return p.err(col, "want the high encoding word /* 0x... */ of the instruction on line %d", p.pending.Line)
	}
	p.pending.Enc.Hi = v
	p.pending.Ctrl = DecodeControl(v)
	p.pending = nil
	return nil
}

// encWord parses "/* 0x0123456789abcdef */" with nothing after it.
func encWord(s []byte) (uint64, bool) {
	if !hasPrefix(s, "/* 0x") {
		return 0, false
	}
	v, n, ok := hexDigits(s[5:], 16)
	if !ok {
		return 0, false
	}
	r := s[5+n:]
	return v, string(r) == " */" || string(r) == "*/"
}

// hexDigits reads 1 to limit hex digits from the start of s.
func hexDigits(s []byte, limit int) (uint64, int, bool) {
	var v uint64
	n := 0
	for n < len(s) {
		d := hexVal(s[n])
		if d < 0 {
			break
		}
		if n == limit {
			return 0, 0, false
		}
		v = v<<4 | uint64(d)
		n++
	}
	return v, n, n > 0
}

func hexVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// body parses "[@[!]Pn] OPCODE[.MOD...] operands" (the text before ';'); col is the column of s[0].
func (p *parser) body(in *Instruction, s []byte, col int) error {
	i := skipSpace(s, 0)
	if i < len(s) && s[i] == '@' {
		i++
		if i < len(s) && s[i] == '!' {
			in.Guard.Not = true
			i++
		}
		r, n, ok := parseReg(s[i:])
		if !ok || (r.File != Pred && r.File != UPred) {
			return p.err(col+i, "bad guard predicate: want P0-P6, PT, UP0-UP6 or UPT")
		}
		in.Guard.Reg = r
		i = skipSpace(s, i+n)
	}
	j := i
	for j < len(s) && (isIdent(s[j]) || s[j] == '.') {
		j++
	}
	if j == i || j < len(s) && s[j] != ' ' && s[j] != '\t' {
		return p.err(col+j, "bad opcode")
	}
	m, err := p.mnemonic(s[i:j], col+i)
	if err != nil {
		return err
	}
	in.Op, in.Mods, in.Mnemonic = m.op, m.mods, m.text
	start := int32(len(p.ops))
	if err := p.operands(in, s, j, col, m); err != nil {
		return err
	}
	p.spans = append(p.spans, span{start, int32(len(p.ops))})
	return nil
}

// mnemonic interns an opcode spelling and splits it into base and modifiers.
func (p *parser) mnemonic(s []byte, col int) (*mnemonic, error) {
	if m, ok := p.mnems[string(s)]; ok {
		return m, nil
	}
	text := string(s)
	parts := strings.Split(text, ".")
	if parts[0] == "" || parts[0][0] < 'A' || parts[0][0] > 'Z' {
		return nil, p.err(col, "bad opcode %q", text)
	}
	if len(parts) > maxMods+1 {
		return nil, p.err(col, "opcode %q has more than %d modifiers", clip(s), maxMods)
	}
	for _, x := range parts[1:] {
		if x == "" {
			return nil, p.err(col, "empty modifier in opcode %q", text)
		}
	}
	m := &mnemonic{text: text, op: parts[0], mods: parts[1:len(parts):len(parts)]}
	m.target = branchTarget(m)
	p.mnems[text] = m
	return m, nil
}

// branchTarget says whether the last integer operand of an instruction is an address in the
// function. cuobjdump prints those targets as absolute addresses; the encoding holds them relative
// to the next instruction (TestBranchTargetsMatchEncoding). BRX and RET print a displacement
// that is added to a register, not a target; plain WARPSYNC takes a lane mask.
func branchTarget(m *mnemonic) bool {
	switch m.op {
	case "BRA", "BSSY", "CALL", "JMP", "SSY", "PBK", "PCNT", "CAL", "JCAL":
		return true
	case "WARPSYNC":
		for _, x := range m.mods {
			if x == "COLLECTIVE" {
				return true
			}
		}
	}
	return false
}

// operands parses the operand list starting at s[i] into p.ops.
func (p *parser) operands(in *Instruction, s []byte, i, col int, m *mnemonic) error {
	first := len(p.ops)
	for {
		i = skipSpace(s, i)
		if i == len(s) {
			break
		}
		if hasPrefix(s[i:], "(*") {
			j, err := p.annotation(in, s, i, col)
			if err != nil {
				return err
			}
			if skipSpace(s, j) != len(s) {
				return p.err(col+j, "text after the annotation")
			}
			break
		}
		if len(p.ops)-first == maxOperands {
			return p.err(col+i, "more than %d operands", maxOperands)
		}
		o, n, err := p.operand(s, i, col)
		if err != nil {
			return err
		}
		p.ops = append(p.ops, o)
		i = skipSpace(s, n)
		if i < len(s) && s[i] == ',' {
			i++
			if skipSpace(s, i) == len(s) {
				return p.err(col+i, "missing operand after ','")
			}
		}
	}
	if m.target {
		for k := len(p.ops) - 1; k >= first; k-- {
			o := &p.ops[k]
			if o.Kind == KindTarget {
				break
			}
			if o.Kind == KindInt {
				if o.Int < 0 || o.Int > 1<<32-1 || o.Mods != 0 {
					return p.err(col, "branch target %s is not an address", o.String())
				}
				o.Kind = KindTarget
				break
			}
		}
	}
	return nil
}

func skipSpace(s []byte, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}
