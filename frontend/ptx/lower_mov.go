package ptx

import (
	"github.com/smsim/smsim/isa"
)

// mov lowers mov: register, immediate, special register and variable
// address forms, and the vector pack/unpack forms `mov.b64 %rd, {%r1, %r2}`
// and `mov.b64 {%r1, %r2}, %rd`.
func (l *lowerer) mov(in *Instr, m *mods) error {
	t, err := l.typ(m)
	if err != nil {
		return err
	}
	if err := l.nops(in, 2); err != nil {
		return err
	}
	d, a := in.Operands[0], in.Operands[1]
	if v, ok := d.(*Vector); ok {
		return l.unpack(t, v, a)
	}
	if v, ok := a.(*Vector); ok {
		return l.pack(t, d, v)
	}
	if t == isa.Pred {
		pd, err := l.pdst(d)
		if err != nil {
			return err
		}
		if r, ok := a.(*Reg); ok && r.Special {
			// %is_explicit_cluster, the one predicate special register: a
			// value that is 0 or 1, turned into a predicate.
			v, err := l.special(r)
			if err != nil {
				return err
			}
			if v.Kind != isa.KSpecial || v.Special != isa.SIsExplicitCluster {
				return errAt(r.Pos, "special register %s is not a predicate", r.String())
			}
			l.emit(isa.Instr{Op: isa.OpSetp, Type: isa.U32, Cmp: isa.CmpNe, NDst: 1, Ops: []isa.Operand{pd, v, isa.Imm(0)}})
			return nil
		}
		ps, err := l.psrc(a)
		if err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpMov, Type: isa.Pred, NDst: 1, Ops: []isa.Operand{pd, ps}})
		return nil
	}
	dd, err := l.dst(d)
	if err != nil {
		return err
	}
	av, err := l.val(a, t)
	if err != nil {
		return err
	}
	mv := isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{dd, av}}
	if s, ok := a.(*Sym); ok {
		if e, _ := l.sc.lookup(s.Name); e != nil && e.kind == entVar && e.space == isa.Shared {
			mv.Source |= isa.HintSharedSym
		}
	}
	l.emit(mv)
	return nil
}

// elemWidth checks a vector operand against a scalar type: n elements of
// t.Bits()/n bits each (8, 16 or 32).
func (l *lowerer) elemWidth(t isa.Type, n int) (int, error) {
	if n != 2 && n != 4 && n != 8 {
		return 0, l.unsupported("vector of %d elements", n)
	}
	w := t.Bits() / n
	if t.Bits()%n != 0 || (w != 8 && w != 16 && w != 32) || t.Bits() > 64 {
		return 0, l.unsupported("%d elements do not pack into .%s", n, t)
	}
	return w, nil
}

// pack lowers d = {e0, e1, ...} (element 0 in the low bits) with byte
// permutes and a bit-field insert for the upper 32 bits.
func (l *lowerer) pack(t isa.Type, d Operand, v *Vector) error {
	w, err := l.elemWidth(t, len(v.Elems))
	if err != nil {
		return err
	}
	dd, err := l.dst(d)
	if err != nil {
		return err
	}
	es := make([]isa.Operand, len(v.Elems))
	for i, e := range v.Elems {
		if es[i], err = l.val(e, typeOfBits(w)); err != nil {
			return err
		}
	}
	if t.Bits() <= 32 {
		return l.pack32(dd, es, w, typeOfBits(t.Bits()))
	}
	half := len(es) / 2
	lo, hi := es[0], es[half]
	if w < 32 {
		lt, err := l.temp()
		if err != nil {
			return err
		}
		ht, err := l.temp()
		if err != nil {
			return err
		}
		if err := l.pack32(isa.R(int(lt)), es[:half], w, isa.B32); err != nil {
			return err
		}
		if err := l.pack32(isa.R(int(ht)), es[half:], w, isa.B32); err != nil {
			return err
		}
		lo, hi = isa.R(int(lt)), isa.R(int(ht))
	}
	l.emit(isa.Instr{Op: isa.OpBfi, Type: isa.B64, NDst: 1, Ops: []isa.Operand{dd, hi, lo, isa.Imm(32), isa.Imm(32)}})
	return nil
}

// pack32 packs elements of w bits into at most 32 bits of d (type t).
func (l *lowerer) pack32(d isa.Operand, es []isa.Operand, w int, t isa.Type) error {
	prmt := func(dst, a, b isa.Operand, sel uint64, ty isa.Type) {
		l.emit(isa.Instr{Op: isa.OpPrmt, Type: ty, NDst: 1, Ops: []isa.Operand{dst, a, b, isa.Imm(sel)}})
	}
	switch {
	case len(es) == 1:
		l.emit(isa.Instr{Op: isa.OpMov, Type: t, NDst: 1, Ops: []isa.Operand{d, es[0]}})
	case w == 16 && len(es) == 2:
		prmt(d, es[0], es[1], 0x5410, t)
	case w == 8 && len(es) == 2:
		prmt(d, es[0], es[1], 0x0040, t)
	case w == 8 && len(es) == 4:
		a, err := l.temp()
		if err != nil {
			return err
		}
		b, err := l.temp()
		if err != nil {
			return err
		}
		prmt(isa.R(int(a)), es[0], es[1], 0x0040, isa.B32)
		prmt(isa.R(int(b)), es[2], es[3], 0x0040, isa.B32)
		prmt(d, isa.R(int(a)), isa.R(int(b)), 0x5410, t)
	default:
		return l.unsupported("packing %d elements of %d bits", len(es), w)
	}
	return nil
}

// unpack lowers {d0, d1, ...} = a: element i is bits [i*w, (i+1)*w).
func (l *lowerer) unpack(t isa.Type, v *Vector, a Operand) error {
	w, err := l.elemWidth(t, len(v.Elems))
	if err != nil {
		return err
	}
	src, err := l.val(a, t)
	if err != nil {
		return err
	}
	ds := make([]isa.Operand, len(v.Elems))
	for i, e := range v.Elems {
		if ds[i], err = l.dst(e); err != nil {
			return err
		}
		if src.Kind == isa.KReg && ds[i].Kind == isa.KReg && ds[i].Reg == src.Reg {
			tmp, err := l.temp()
			if err != nil {
				return err
			}
			l.emit(isa.Instr{Op: isa.OpMov, Type: isa.B64, NDst: 1, Ops: []isa.Operand{isa.R(int(tmp)), src}})
			src = isa.R(int(tmp))
		}
	}
	ext := isa.U32
	if t.Bits() > 32 {
		ext = isa.U64
	}
	for i, d := range ds {
		if d.Kind == isa.KSink {
			continue
		}
		if i == 0 {
			l.emit(isa.Instr{Op: isa.OpMov, Type: typeOfBits(w), NDst: 1, Ops: []isa.Operand{d, src}})
			continue
		}
		l.emit(isa.Instr{Op: isa.OpBfe, Type: ext, NDst: 1, Ops: []isa.Operand{d, src, isa.Imm(uint64(i * w)), isa.Imm(uint64(w))}})
	}
	return nil
}

// typeOfBits is the untyped bits type of a width.
func typeOfBits(n int) isa.Type {
	switch n {
	case 8:
		return isa.B8
	case 16:
		return isa.B16
	case 32:
		return isa.B32
	}
	return isa.B64
}
