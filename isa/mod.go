package isa

// Mod is a set of operand modifiers of SASS, where a register holds 32 bits
// and an instruction may read a register pair, negate or select halves of an
// operand as it reads it. Warp.Operand applies them when it stages the value;
// the PTX and .sms frontends never set them, so their operands read as before.
type Mod uint16

// Operand modifiers, applied in this order: the value read (a pair, a
// constant word or two), then one of the transforms.
const (
	// MPair reads the 64-bit value of registers Reg (low word) and Reg+1
	// (high word), writes both halves, or reads 8 bytes of a constant bank.
	// On a KAddr it makes the base register a pair: [R2.64].
	MPair Mod = 1 << iota
	// MIndex adds register Index (32 bits) to a KAddr or KConst address.
	MIndex
	// MNeg is integer negation (two's complement of 32 bits, or 64 with MPair).
	MNeg
	// MNot is the bitwise complement (of 32 bits, or 64 with MPair).
	MNot
	// MFNeg flips the sign bit of a float (bit 31, or 63 with MPair).
	MFNeg
	// MFAbs clears the sign bit of a float (bit 31, or 63 with MPair).
	MFAbs
	// MHNeg and MHAbs flip or clear the sign bits of both halves of an
	// f16x2/bf16x2 value (bits 15 and 31).
	MHNeg
	MHAbs
	// MH0H0 and MH1H1 replicate the low or high 16 bits into both halves
	// (SASS R2.H0_H0, R2.H1_H1).
	MH0H0
	MH1H1
	// MH1 moves the high 16 bits into the low ones (SASS R2.H1 of a scalar
	// half operand).
	MH1
	// MSign reads the operand's bit 31 as 0 or 1, after the other
	// modifiers: the parity a SASS phase check takes from a register.
	MSign
)

// Has reports whether all of f's bits are set in m.
func (m Mod) Has(f Mod) bool { return m&f == f }

// RPair returns a register-pair operand: the 64-bit value of registers i
// (low) and i+1 (high).
func RPair(i int) Operand { return Operand{Kind: KReg, Reg: int32(i), Mod: MPair} }
