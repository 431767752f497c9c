package warp

import (
	"encoding/binary"
	"math/bits"

	"github.com/smsim/smsim/isa"
)

// SASS operands: a register holds 32 bits (zero-extended in its 64-bit
// slot), an instruction may read a register pair and transform what it reads
// (isa.Mod), constant-bank words are operands, addresses add a pair, an
// index register and an offset, and uniform registers exist once per warp.

// modOperand stages a register operand with modifiers into scratch slot.
func (w *Warp) modOperand(o *isa.Operand, slot int) *Vec {
	s := &w.scratch[slot]
	r := &w.regs[o.Reg]
	if o.Mod.Has(isa.MPair) {
		hi := &w.regs[o.Reg+1]
		for l := range s {
			s[l] = r[l]&0xffffffff | hi[l]<<32
		}
	} else {
		*s = *r
	}
	applyMod(o.Mod, s)
	return s
}

// applyMod applies an operand's value transform to every lane of s.
func applyMod(m isa.Mod, s *Vec) {
	pair := m.Has(isa.MPair)
	width, sign := uint64(0xffffffff), uint64(1)<<31
	if pair {
		width, sign = ^uint64(0), uint64(1)<<63
	}
	switch {
	case m&isa.MH0H0 != 0:
		for l := range s {
			h := s[l] & 0xffff
			s[l] = h | h<<16
		}
	case m&isa.MH1H1 != 0:
		for l := range s {
			h := s[l] >> 16 & 0xffff
			s[l] = h | h<<16
		}
	case m&isa.MH1 != 0:
		for l := range s {
			s[l] = s[l] >> 16 & 0xffff
		}
	}
	if pair && m&(isa.MFAbs|isa.MFNeg) != 0 {
		applyF64Mod(m, s)
		return
	}
	switch {
	case m&isa.MFAbs != 0:
		for l := range s {
			s[l] &^= sign
		}
	case m&isa.MHAbs != 0:
		for l := range s {
			s[l] &^= 0x80008000
		}
	}
	switch {
	case m&isa.MNeg != 0:
		for l := range s {
			s[l] = -s[l] & width
		}
	case m&isa.MNot != 0:
		for l := range s {
			s[l] = ^s[l] & width
		}
	case m&isa.MFNeg != 0:
		for l := range s {
			s[l] ^= sign
		}
	case m&isa.MHNeg != 0:
		for l := range s {
			s[l] ^= 0x80008000
		}
	}
	if m&isa.MSign != 0 {
		for l := range s {
			s[l] = s[l] >> 31 & 1
		}
	}
}

// applyF64Mod applies |x| and -x to doubles as the H200's double unit
// does: a NaN operand is not changed (the operation returns it, quieted,
// with its own sign: frontend/ptx/testdata/gpu measures abs.f64 and
// neg.f64, which are DADD -RZ, |R| and DADD -RZ, -R, of NaNs).
func applyF64Mod(m isa.Mod, s *Vec) {
	const exp, frac = 0x7ff0000000000000, 0x000fffffffffffff
	for l := range s {
		v := s[l]
		if v&exp == exp && v&frac != 0 {
			continue
		}
		if m&isa.MFAbs != 0 {
			v &^= 1 << 63
		}
		if m&isa.MFNeg != 0 {
			v ^= 1 << 63
		}
		s[l] = v
	}
}

// constOperand stages a constant-bank word (two with MPair) into slot: the
// bank's bytes at Imm, plus register Reg and Index where given. Bytes past
// the bank's end read as zero.
func (w *Warp) constOperand(o *isa.Operand, slot int) *Vec {
	s := &w.scratch[slot]
	var bank []byte
	if int(o.Bank) < len(w.Env.Banks) {
		bank = w.Env.Banks[o.Bank]
	}
	n := 4
	if o.Mod.Has(isa.MPair) {
		n = 8
	}
	if o.Reg < 0 && !o.Mod.Has(isa.MIndex) {
		fill(s, readBank(bank, o.Imm, n))
	} else {
		for l := range s {
			off := o.Imm
			if o.Reg >= 0 {
				off += w.regs[o.Reg][l] & 0xffffffff
			}
			if o.Mod.Has(isa.MIndex) {
				off += w.regs[o.Index][l] & 0xffffffff
			}
			s[l] = readBank(bank, off, n)
		}
	}
	if m := o.Mod &^ (isa.MPair | isa.MIndex); m != 0 {
		applyMod(m|o.Mod&isa.MPair, s)
	}
	return s
}

// readBank reads n little-endian bytes of bank at off; bytes outside the
// bank read as zero.
func readBank(bank []byte, off uint64, n int) uint64 {
	if off < uint64(len(bank)) && uint64(len(bank))-off >= uint64(n) {
		if n == 8 {
			return binary.LittleEndian.Uint64(bank[off:])
		}
		return uint64(binary.LittleEndian.Uint32(bank[off:]))
	}
	var v uint64
	for i := 0; i < n; i++ {
		if k := off + uint64(i); k >= off && k < uint64(len(bank)) {
			v |= uint64(bank[k]) << (8 * i)
		}
	}
	return v
}

// sassAddr stages a SASS address: the base register (a pair with MPair, else
// its 32 bits), plus the 32 bits of Index (MIndex), plus the offset.
func (w *Warp) sassAddr(o *isa.Operand, slot int) *Vec {
	// The terms added a pass each (the sum wraps the same in any order), so
	// that no lane loop tests the operand's form.
	s := &w.scratch[slot]
	for l := range s {
		s[l] = o.Imm
	}
	if o.Reg >= 0 {
		r := &w.regs[o.Reg]
		if o.Mod.Has(isa.MPair) {
			hi := &w.regs[o.Reg+1]
			for l := range s {
				s[l] += r[l]&0xffffffff | hi[l]<<32
			}
		} else {
			for l := range s {
				s[l] += r[l] & 0xffffffff
			}
		}
	}
	if o.Mod.Has(isa.MIndex) {
		x := &w.regs[o.Index]
		for l := range s {
			s[l] += x[l] & 0xffffffff
		}
	}
	return s
}

// writeSASS writes a register destination with modifiers or in the uniform
// file: a pair takes the low word in Reg and the high in Reg+1; a uniform
// register written by some lanes takes the first of them's value in every
// lane.
func (w *Warp) writeSASS(d *isa.Operand, mask uint32, v *Vec, t isa.Type) {
	if mask == 0 {
		return
	}
	m := widthMask(t)
	uniform := d.Reg >= w.uniR
	first := bits.TrailingZeros32(mask)
	lo := &w.regs[d.Reg]
	var hi *Vec
	if d.Mod.Has(isa.MPair) {
		hi = &w.regs[d.Reg+1]
	}
	for l := 0; l < Lanes; l++ {
		x := v[l]
		switch {
		case uniform:
			x = v[first]
		case mask>>l&1 == 0:
			continue
		}
		x &= m
		if hi != nil {
			lo[l], hi[l] = x&0xffffffff, x>>32
		} else {
			lo[l] = x
		}
	}
}

// SetLane writes value v of lane l into destination d (a register, a pair,
// or nothing for a sink): what a memory instruction returns to one lane.
func (w *Warp) SetLane(d *isa.Operand, l int, v uint64) {
	if d.Kind != isa.KReg {
		return
	}
	if d.Mod.Has(isa.MPair) {
		w.regs[d.Reg][l], w.regs[d.Reg+1][l] = v&0xffffffff, v>>32
		return
	}
	w.regs[d.Reg][l] = v
}

// ConstOffset is the byte offset in its bank that KConst operand o reads
// for lane l (its register and index parts as they are now).
func (w *Warp) ConstOffset(o *isa.Operand, l int) uint64 {
	off := o.Imm
	if o.Reg >= 0 {
		off += w.regs[o.Reg][l] & 0xffffffff
	}
	if o.Mod.Has(isa.MIndex) {
		off += w.regs[o.Index][l] & 0xffffffff
	}
	return off
}
