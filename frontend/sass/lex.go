package sass

import (
	"math"
	"strconv"
)

// operand parses one operand starting at s[i]; it returns the operand and the index just after it.
// col is the column of s[0].
func (p *parser) operand(s []byte, i, col int) (Operand, int, error) {
	var o Operand
	start := i
	switch {
	case i < len(s) && s[i] == '-' && !numberAt(s, i):
		o.Mods |= ModNeg
		i++
	case i < len(s) && s[i] == '~':
		o.Mods |= ModNot
		i++
	case i < len(s) && s[i] == '!':
		o.Mods |= ModLNot
		i++
	}
	var j int
	var err error
	if i < len(s) && s[i] == '|' {
		o.Mods |= ModAbs
		if j, err = p.core(&o, s, i+1, col); err != nil {
			return o, 0, err
		}
		if j >= len(s) || s[j] != '|' {
			return o, 0, p.err(col+j, "missing closing '|'")
		}
		j++
		if o.Kind == KindReg {
			j = p.suffixes(&o, s, j)
		}
	} else if j, err = p.core(&o, s, i, col); err != nil {
		return o, 0, err
	}
	if o.Mods&(ModNeg|ModNot|ModLNot|ModAbs) != 0 && o.Kind != KindReg && o.Kind != KindConst && o.Kind != KindSpecial {
		return o, 0, p.err(col+start, "modifier on %s operand", kindName(o.Kind))
	}
	if o.Mods&ModReuse != 0 && o.Kind != KindReg {
		return o, 0, p.err(col+start, ".reuse on %s operand", kindName(o.Kind))
	}
	return o, j, nil
}

// numberAt reports whether a signed number literal starts at s[i] ('-' or '+' then a digit, INF
// or QNAN).
func numberAt(s []byte, i int) bool {
	if i+1 >= len(s) {
		return false
	}
	c := s[i+1]
	return c >= '0' && c <= '9' || hasPrefix(s[i+1:], "INF") || hasPrefix(s[i+1:], "QNAN") ||
		hasPrefix(s[i+1:], "SNAN") || hasPrefix(s[i+1:], "NAN")
}

func kindName(k Kind) string {
	return [...]string{"no", "register", "special", "integer", "float", "constant", "memory", "target",
		"list", "unknown"}[k]
}

// core parses the operand proper (without prefix modifiers) and its suffixes.
func (p *parser) core(o *Operand, s []byte, i, col int) (int, error) {
	if i >= len(s) {
		return i, p.err(col+i, "missing operand")
	}
	switch c := s[i]; {
	case c == '[':
		o.Kind = KindMem
		return p.address(o, s, i, col, false)
	case hasPrefix(s[i:], "gdesc["):
		// a warpgroup MMA's descriptors: URn:URn+1 (A), URn+2:URn+3 (B), then .tnspA, .negB...
		r, n, ok := parseReg(s[i+6:])
		if !ok || r.File != UGPR || !hasPrefix(s[i+6+n:], "]") {
			return i, p.err(col+i+6, "bad descriptor: want gdesc[URn]")
		}
		o.Kind, o.Desc, o.Name = KindMem, r, "gdesc"
		return p.suffixes(o, s, i+6+n+1), nil
	case hasPrefix(s[i:], "desc["):
		o.Kind = KindMem
		r, n, ok := parseReg(s[i+5:])
		if !ok || r.File != UGPR || !hasPrefix(s[i+5+n:], "]") {
			return i, p.err(col+i+5, "bad descriptor: want desc[URn]")
		}
		o.Desc = r
		return p.address(o, s, i+5+n+1, col, false)
	case hasPrefix(s[i:], "c["):
		o.Kind = KindConst
		v, n, ok := hexLit(s[i+2:])
		if !ok || v > 0xff || !hasPrefix(s[i+2+n:], "]") {
			return i, p.err(col+i+2, "bad constant bank: want c[0x0-0xff]")
		}
		o.Bank = uint8(v)
		return p.address(o, s, i+2+n+1, col, true)
	case hasPrefix(s[i:], "cx["):
		o.Kind = KindConst
		r, n, ok := parseReg(s[i+3:])
		if !ok || r.File != UGPR || !hasPrefix(s[i+3+n:], "]") {
			return i, p.err(col+i+3, "bad constant bank register: want cx[URn]")
		}
		o.Desc = r
		return p.address(o, s, i+3+n+1, col, true)
	case c == '{':
		return p.list(o, s, i, col)
	case c == '`':
		return p.label(o, s, i, col)
	case c >= '0' && c <= '9' || c == '-' || c == '+':
		return p.number(o, s, i, col)
	case isIdent(c):
		return p.word(o, s, i, col)
	}
	return i, p.err(col+i, "unexpected %q in operand", s[i])
}

// word parses a register, special register, float keyword or unknown word, with its suffixes.
func (p *parser) word(o *Operand, s []byte, i, col int) (int, error) {
	if r, n, ok := parseReg(s[i:]); ok {
		o.Kind, o.Reg = KindReg, r
		return p.suffixes(o, s, i+n), nil
	}
	j := i
	for j < len(s) && (isIdent(s[j]) || s[j] == '.' && hasPrefix(s[i:], "SR_")) {
		j++
	}
	w := s[i:j]
	switch {
	case hasPrefix(w, "SR_") || string(w) == "SRZ" || string(w) == "PR" || string(w) == "UPR":
		o.Kind, o.Name = KindSpecial, p.intern(w)
	case string(w) == "INF" || string(w) == "QNAN" || string(w) == "SNAN" || string(w) == "NAN":
		return p.number(o, s, i, col)
	case regLike(w):
		return i, p.err(col+i, "register %s out of range", w)
	default:
		o.Kind, o.Name = KindUnknown, p.intern(w)
	}
	return j, nil
}

// suffixes reads ".reuse" and the other dotted suffixes after a register ("R2.64", "R7.reuse.H0_H0");
// the others are kept in order in o.Suffix.
func (p *parser) suffixes(o *Operand, s []byte, i int) int {
	var buf [32]byte
	suf := append(buf[:0], o.Suffix...)
	for i < len(s) && s[i] == '.' {
		j := i + 1
		for j < len(s) && isIdent(s[j]) {
			j++
		}
		if j == i+1 {
			break
		}
		if string(s[i:j]) == ".reuse" {
			o.Mods |= ModReuse
		} else {
			suf = append(suf, s[i:j]...)
		}
		i = j
	}
	if len(suf) > len(o.Suffix) {
		o.Suffix = p.intern(suf)
	}
	return i
}

// number parses a hex integer ("0x1f", "-0x4") or a decimal float ("0.5", "-1", "1e-08", "+INF").
func (p *parser) number(o *Operand, s []byte, i, col int) (int, error) {
	j := i
	neg := false
	if s[j] == '-' || s[j] == '+' {
		neg = s[j] == '-'
		j++
	}
	if hasPrefix(s[j:], "0x") {
		v, n, ok := hexDigits(s[j+2:], 16)
		if !ok || v > math.MaxInt64 {
			return i, p.err(col+i, "bad hex integer")
		}
		j += 2 + n
		if j < len(s) && isIdent(s[j]) {
			return i, p.err(col+j, "bad hex integer")
		}
		o.Kind, o.Int = KindInt, int64(v)
		if neg {
			o.Int = -o.Int
		}
		return j, nil
	}
	k := j
	for k < len(s) && (isIdent(s[k]) || s[k] == '.' || (s[k] == '-' || s[k] == '+') && (s[k-1] == 'e' || s[k-1] == 'E')) {
		k++
	}
	w := s[i:k]
	o.Kind, o.Name = KindFloat, p.intern(w)
	switch string(s[j:k]) {
	case "INF":
		o.Float = math.Inf(1)
	case "QNAN", "SNAN", "NAN":
		o.Float = math.NaN()
	default:
		f, err := strconv.ParseFloat(string(s[j:k]), 64)
		if err != nil || s[j] < '0' || s[j] > '9' {
			return i, p.err(col+i, "bad number %q", clip(w))
		}
		o.Float = f
	}
	if neg {
		o.Float = -o.Float
	}
	return k, nil
}

// hexLit reads "0x..." at the start of s.
func hexLit(s []byte) (uint64, int, bool) {
	if !hasPrefix(s, "0x") {
		return 0, 0, false
	}
	v, n, ok := hexDigits(s[2:], 16)
	return v, n + 2, ok
}

// address parses "[term+term+...]" at s[i] for KindMem (up to two registers and an offset) or
// KindConst (one register and an offset). It returns the index after ']'.
func (p *parser) address(o *Operand, s []byte, i, col int, constant bool) (int, error) {
	if i >= len(s) || s[i] != '[' {
		return i, p.err(col+i, "want '['")
	}
	i++
	regs, offs := 0, 0
	for {
		i = skipSpace(s, i)
		if i >= len(s) {
			return i, p.err(col+i, "missing ']'")
		}
		if r, n, ok := parseReg(s[i:]); ok {
			if r.File != GPR && r.File != UGPR || regs == 2 || constant && regs == 1 {
				return i, p.err(col+i, "unexpected register %s in address", r)
			}
			var t Operand
			j := p.suffixes(&t, s, i+n)
			if t.Mods != 0 {
				return i, p.err(col+i, ".reuse in an address")
			}
			if regs == 0 {
				o.Reg, o.Suffix = r, t.Suffix
			} else {
				o.Index, o.IndexSuffix = r, t.Suffix
			}
			regs++
			i = j
		} else {
			neg := s[i] == '-'
			if neg {
				i++
			}
			v, n, ok := hexLit(s[i:])
			if !ok || offs == 1 || v > math.MaxInt64 {
				return i, p.err(col+i, "bad address term")
			}
			o.Int = int64(v)
			if neg {
				o.Int = -o.Int
			}
			offs++
			i += n
		}
		i = skipSpace(s, i)
		switch {
		case i < len(s) && s[i] == ']':
			return i + 1, nil
		case i < len(s) && s[i] == '+':
			i++
		case i < len(s) && s[i] == '-':
		case i == len(s):
			return i, p.err(col+i, "missing ']'")
		default:
			return i, p.err(col+i, "want '+' or ']' in address")
		}
	}
}

// list parses "{R4,R5}".
func (p *parser) list(o *Operand, s []byte, i, col int) (int, error) {
	o.Kind = KindList
	i++
	for {
		i = skipSpace(s, i)
		r, n, ok := parseReg(s[i:])
		if !ok || len(o.List) == maxOperands {
			return i, p.err(col+i, "bad register list")
		}
		o.List = append(o.List, r)
		i = skipSpace(s, i+n)
		switch {
		case i < len(s) && s[i] == ',':
			i++
		case i < len(s) && s[i] == '}':
			return i + 1, nil
		default:
			return i, p.err(col+i, "want ',' or '}' in register list")
		}
	}
}

// label parses nvdisasm's "`(.L_x_12)"; the address is filled in when the function ends.
func (p *parser) label(o *Operand, s []byte, i, col int) (int, error) {
	if !hasPrefix(s[i:], "`(") {
		return i, p.err(col+i, "bad label: want `(name)")
	}
	j := i + 2
	for j < len(s) && s[j] != ')' {
		j++
	}
	if j == len(s) || !isLabelName(s[i+2:j]) {
		return i, p.err(col+i, "bad label: want `(name)")
	}
	o.Kind, o.Name = KindTarget, p.intern(s[i+2:j])
	return j + 1, nil
}

// regLike reports whether w is spelled like a register (R, UR, P, UP, B or SB and a number) that
// parseReg refused, that is one out of range.
func regLike(w []byte) bool {
	for _, p := range []string{"UR", "UP", "SB", "R", "P", "B"} {
		if hasPrefix(w, p) && len(w) > len(p) {
			for _, c := range w[len(p):] {
				if c < '0' || c > '9' {
					return false
				}
			}
			return true
		}
	}
	return false
}
