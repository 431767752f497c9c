package tma

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
)

// DType is a tensor element type, numbered as CUtensorMapDataType numbers
// them (the packed sub-byte types of sm_100 are left out).
type DType uint8

// Element types.
const (
	U8 DType = iota
	U16
	U32
	S32
	U64
	S64
	F16
	F32
	F64
	BF16
	F32FTZ
	TF32
	TF32FTZ
	numDTypes
)

// dtypeName is the spelling used by String and ParseDType.
func dtypeName(t DType) string {
	switch t {
	case U8:
		return "u8"
	case U16:
		return "u16"
	case U32:
		return "u32"
	case S32:
		return "s32"
	case U64:
		return "u64"
	case S64:
		return "s64"
	case F16:
		return "f16"
	case F32:
		return "f32"
	case F64:
		return "f64"
	case BF16:
		return "bf16"
	case F32FTZ:
		return "f32ftz"
	case TF32:
		return "tf32"
	case TF32FTZ:
		return "tf32ftz"
	}
	return ""
}

// String is the spelling of the command line (u8, f16, bf16, …).
func (t DType) String() string {
	if n := dtypeName(t); n != "" {
		return n
	}
	return fmt.Sprintf("DType(%d)", uint8(t))
}

// ParseDType maps a name (case-insensitive) to a DType.
func ParseDType(s string) (DType, bool) {
	s = strings.ToLower(s)
	for t := DType(0); t < numDTypes; t++ {
		if dtypeName(t) == s {
			return t, true
		}
	}
	return 0, false
}

// Valid reports whether t is one of the element types.
func (t DType) Valid() bool { return t < numDTypes }

// Size is the element size in bytes (tf32 is stored in 32 bits).
func (t DType) Size() int {
	switch t {
	case U8:
		return 1
	case U16, F16, BF16:
		return 2
	case U64, S64, F64:
		return 8
	case U32, S32, F32, F32FTZ, TF32, TF32FTZ:
		return 4
	}
	return 0
}

// Float reports whether t is a floating-point type (OOB-NaN fill allowed).
func (t DType) Float() bool {
	switch t {
	case F16, F32, F64, BF16, F32FTZ, TF32, TF32FTZ:
		return true
	}
	return false
}

// Type is the matching PTX type.
func (t DType) Type() isa.Type {
	switch t {
	case U8:
		return isa.U8
	case U16:
		return isa.U16
	case U32:
		return isa.U32
	case S32:
		return isa.S32
	case U64:
		return isa.U64
	case S64:
		return isa.S64
	case F16:
		return isa.F16
	case F32, F32FTZ:
		return isa.F32
	case F64:
		return isa.F64
	case BF16:
		return isa.BF16
	case TF32, TF32FTZ:
		return isa.TF32
	}
	return isa.TNone
}

// oobNaN returns the bit pattern the TMA unit writes for an out-of-bounds
// element of a float map with OOB-NaN fill: the half word 0x7ff7 repeated
// (measured on the H200 for f32: 0x7ff77ff7, testdata/cuda tma_tensor2d_f32_oobnan;
// the same pattern is a NaN in f16, bf16 and f64, and is assumed for them).
func oobNaN(size int) uint64 {
	const pattern = 0x7ff77ff77ff77ff7
	if size >= 8 {
		return pattern
	}
	return pattern & (1<<(8*size) - 1)
}
