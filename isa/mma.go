package isa

import "fmt"

// MMAType is the element type of a warpgroup MMA's A or B matrix (the
// .atype and .btype of wgmma.mma_async). isa's Type has no FP8 or 1-bit
// types, so OpWgmma carries its two element types in Instr.Mode
// (WgmmaMode) and its accumulator type in Instr.Type.
type MMAType uint8

// Element types of wgmma.mma_async (PTX ISA, "Asynchronous Warpgroup Level
// Matrix Multiply-Accumulate": .f16, .bf16, .tf32, .e4m3, .e5m2, .s8, .u8,
// .b1).
const (
	MMANone MMAType = iota
	MMAF16
	MMABF16
	MMATF32
	MMAE4M3
	MMAE5M2
	MMAS8
	MMAU8
	MMAB1
	numMMATypes
)

var mmaTypeNames = [...]string{MMANone: "none", MMAF16: "f16", MMABF16: "bf16", MMATF32: "tf32", MMAE4M3: "e4m3",
	MMAE5M2: "e5m2", MMAS8: "s8", MMAU8: "u8", MMAB1: "b1"}

// String is the PTX spelling without the dot.
func (t MMAType) String() string {
	if int(t) < len(mmaTypeNames) {
		return mmaTypeNames[t]
	}
	return fmt.Sprintf("mmatype(%d)", uint8(t))
}

// ParseMMAType maps a PTX element-type name (without the dot) to an MMAType.
func ParseMMAType(s string) (MMAType, bool) {
	for i, n := range mmaTypeNames {
		if n == s && i != int(MMANone) {
			return MMAType(i), true
		}
	}
	return MMANone, false
}

// Bits is the width of one element.
func (t MMAType) Bits() int {
	switch t {
	case MMAF16, MMABF16:
		return 16
	case MMATF32:
		return 32
	case MMAE4M3, MMAE5M2, MMAS8, MMAU8:
		return 8
	case MMAB1:
		return 1
	}
	return 0
}

// K is the depth of one wgmma.mma_async with elements of type t: the
// shape m64nNkK the ISA allows for it (32 bytes of every row of A).
func (t MMAType) K() int {
	if b := t.Bits(); b > 0 {
		return 256 / b
	}
	return 0
}

// Integer reports whether t is an integer type (.s8, .u8, .b1).
func (t MMAType) Integer() bool { return t == MMAS8 || t == MMAU8 || t == MMAB1 }

// WgmmaMode packs the element types of A and B into Instr.Mode.
func WgmmaMode(a, b MMAType) uint8 { return uint8(a) | uint8(b)<<4 }

// WgmmaTypes unpacks the element types of A and B of an OpWgmma.
func (in *Instr) WgmmaTypes() (a, b MMAType) { return MMAType(in.Mode & 15), MMAType(in.Mode >> 4) }

// WgmmaN is the N of an OpWgmma's shape m64nNkK (Instr.Aux).
func (in *Instr) WgmmaN() int { return int(in.Aux) }

// WgmmaARegs is the number of A-fragment registers of an OpWgmma: 4, or 0
// when A is a shared-memory matrix descriptor. Its sources are the
// accumulator (NDst registers, the same as the destinations), A (4
// registers or 1 descriptor), B's descriptor, scale-d (a predicate or an
// immediate), imm-scale-a, imm-scale-b (1 or -1), imm-trans-a, imm-trans-b
// (0 or 1): NDst + 7 sources with a descriptor, NDst + 10 with registers.
func (in *Instr) WgmmaARegs() int {
	if in.NSrc()-int(in.NDst) == 7 {
		return 0
	}
	return 4
}
