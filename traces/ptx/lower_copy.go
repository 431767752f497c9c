package ptx

import (
	"github.com/smsim/smsim/isa"
)

// copyAsync lowers the cp.* family: cp.async (non-bulk), its groups and
// mbarrier arrive, and the bulk and tensor copies.
func (l *lowerer) copyAsync(in *Instr, m *mods) error {
	if m.take("reduce") {
		return l.unsupported("bulk reductions (cp.reduce.async.bulk)")
	}
	if !m.take("async") {
		return l.unsupported("unknown cp form")
	}
	switch {
	case m.take("bulk"):
		return l.bulk(in, m)
	case m.take("mbarrier"):
		return l.cpAsyncArrive(in, m)
	case m.take("commit_group"), m.take("wait_all"):
		l.emit(isa.Instr{Op: isa.OpNop}) // cp.async completes at issue (see cpAsync)
		return l.nops(in, 0)
	case m.take("wait_group"):
		if err := l.nops(in, 1); err != nil {
			return err
		}
		if _, err := l.val(in.Operands[0], isa.U32); err != nil {
			return err
		}
		l.emit(isa.Instr{Op: isa.OpNop})
		return nil
	}
	return l.cpAsync(in, m)
}

// cpAsync lowers cp.async.{ca,cg}.shared.global [dst], [src], cpSize[, srcSize]
// to a load and a store made at issue: the copy completes at once, which is
// a legal schedule of the asynchronous copy (readers must wait for its group
// anyway). Bytes past srcSize are zero.
func (l *lowerer) cpAsync(in *Instr, m *mods) error {
	m.takeAny("ca", "cg")
	dsp, _ := space(m)
	ssp, _ := space(m)
	if (dsp != isa.Shared && dsp != isa.Cluster) || ssp != isa.Global {
		return l.unsupported("cp.async from .%s to .%s", ssp, dsp)
	}
	hint := cacheHints(m)
	n := 3
	if hint {
		n = 4
	}
	if len(in.Operands) != n && len(in.Operands) != n+1 {
		return l.nops(in, n, n+1)
	}
	size, ok := immValue(in.Operands[2])
	if !ok || (size != 4 && size != 8 && size != 16) {
		return l.unsupported("copy size %s (want 4, 8 or 16)", in.Operands[2].String())
	}
	src := size
	if len(in.Operands) == n+1 {
		if src, ok = immValue(in.Operands[3]); !ok || src > size || src%4 != 0 {
			return l.unsupported("source size %s (want an immediate multiple of 4 up to the copy size)", in.Operands[3].String())
		}
	}
	d, err := l.mem(in.Operands[0], isa.Shared)
	if err != nil {
		return err
	}
	s, err := l.mem(in.Operands[1], isa.Global)
	if err != nil {
		return err
	}
	return l.copyWords(d, s, int(size/4), int(src/4))
}

// copyWords copies k of n 32-bit words from global s to shared d and
// zeroes the remaining n-k.
func (l *lowerer) copyWords(d, s isa.Operand, n, k int) error {
	words := make([]isa.Operand, n)
	for i := range words {
		words[i] = isa.Imm(0)
		if i < k {
			r, err := l.temp()
			if err != nil {
				return err
			}
			words[i] = isa.R(int(r))
		}
	}
	if k == n {
		l.emit(isa.Instr{Op: isa.OpLd, Type: isa.B32, Space: isa.Global, Vec: uint8(n), NDst: uint8(n), Ops: append(append([]isa.Operand{}, words...), s)})
	} else {
		for i := 0; i < k; i++ {
			a := s
			a.Imm += uint64(4 * i)
			l.emit(isa.Instr{Op: isa.OpLd, Type: isa.B32, Space: isa.Global, Vec: 1, NDst: 1, Ops: []isa.Operand{words[i], a}})
		}
	}
	l.emit(isa.Instr{Op: isa.OpSt, Type: isa.B32, Space: isa.Shared, Vec: uint8(n), Ops: append([]isa.Operand{d}, words...)})
	return nil
}

// immValue returns the value of an integer immediate operand.
func immValue(o Operand) (uint64, bool) {
	x, ok := o.(*Imm)
	if !ok || x.Kind != ImmInt || x.Int < 0 {
		return 0, false
	}
	return uint64(x.Int), true
}

// cpAsyncArrive lowers cp.async.mbarrier.arrive[.noinc].shared.b64 [mbar].
// Copies complete at issue, so the arrive-on happens at once: with .noinc
// it is one arrival; without, the pending count is raised by one first, so
// the net effect is none.
func (l *lowerer) cpAsyncArrive(in *Instr, m *mods) error {
	if !m.take("arrive") {
		return l.unsupported("missing .arrive")
	}
	noinc := m.take("noinc")
	sp, _ := space(m)
	if t, err := l.typ(m); err != nil || t != isa.B64 {
		return l.unsupported("needs .b64")
	}
	if err := l.nops(in, 1); err != nil {
		return err
	}
	a, err := l.mem(in.Operands[0], sp)
	if err != nil {
		return err
	}
	if !noinc {
		l.emit(isa.Instr{Op: isa.OpNop})
		return nil
	}
	l.emit(isa.Instr{Op: isa.OpCpAsyncMbarArrive, Type: isa.B64, Space: sp, Flags: isa.FNoInc, Ops: []isa.Operand{a}})
	return nil
}
