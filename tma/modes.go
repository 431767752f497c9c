package tma

import (
	"fmt"
	"strings"
)

// Interleave is the global layout of an interleaved tensor
// (CUtensorMapInterleave).
type Interleave uint8

// Interleave modes.
const (
	InterleaveNone Interleave = iota
	Interleave16B
	Interleave32B
)

// Swizzle is the shared-memory layout of a box (CUtensorMapSwizzle, the
// sm_90 modes).
type Swizzle uint8

// Swizzle modes.
const (
	SwizzleNone Swizzle = iota
	Swizzle32B
	Swizzle64B
	Swizzle128B
)

// L2Promotion is the L2 fetch granule hint (CUtensorMapL2promotion).
type L2Promotion uint8

// L2 promotion modes.
const (
	L2PromotionNone L2Promotion = iota
	L2Promotion64B
	L2Promotion128B
	L2Promotion256B
)

// OOBFill is what loads write for elements outside the tensor
// (CUtensorMapFloatOOBfill).
type OOBFill uint8

// OOB fill modes. OOBNaN is the driver's "NaN request zero FMA" mode: the
// canonical NaN of the element type, for floating-point maps only.
const (
	OOBZero OOBFill = iota
	OOBNaN
)

// Span is the swizzle span in bytes (32, 64, 128), 0 for SwizzleNone: the
// most a swizzled box's inner dimension may hold.
func (s Swizzle) Span() int {
	switch s {
	case Swizzle32B:
		return 32
	case Swizzle64B:
		return 64
	case Swizzle128B:
		return 128
	}
	return 0
}

// Repeat is the period of the swizzle pattern in bytes (256, 512, 1024).
func (s Swizzle) Repeat() int { return s.Span() * 8 }

// Apply maps a shared-memory offset to its swizzled offset. The pattern is
// CUTLASS's Swizzle<B,4,3>: 16-byte chunks are permuted by XOR-ing address
// bits [4, 4+B) with bits [7, 7+B), B = 1, 2, 3 for 32B, 64B, 128B. Within a
// 16-byte chunk bytes keep their order. Offsets are absolute shared-memory
// offsets, as the hardware swizzles address bits: a destination that is not
// aligned to Repeat shifts the pattern.
func (s Swizzle) Apply(off uint32) uint32 {
	switch s {
	case Swizzle32B:
		return off ^ (off>>3)&0x10
	case Swizzle64B:
		return off ^ (off>>3)&0x30
	case Swizzle128B:
		return off ^ (off>>3)&0x70
	}
	return off
}

// String is the command-line spelling.
func (s Swizzle) String() string {
	if s == SwizzleNone {
		return "none"
	}
	if n := s.Span(); n != 0 {
		return fmt.Sprintf("%dB", n)
	}
	return fmt.Sprintf("Swizzle(%d)", uint8(s))
}

// String is the command-line spelling.
func (i Interleave) String() string {
	switch i {
	case InterleaveNone:
		return "none"
	case Interleave16B:
		return "16B"
	case Interleave32B:
		return "32B"
	}
	return fmt.Sprintf("Interleave(%d)", uint8(i))
}

// String is the command-line spelling.
func (p L2Promotion) String() string {
	switch p {
	case L2PromotionNone:
		return "none"
	case L2Promotion64B:
		return "64B"
	case L2Promotion128B:
		return "128B"
	case L2Promotion256B:
		return "256B"
	}
	return fmt.Sprintf("L2Promotion(%d)", uint8(p))
}

// String is the command-line spelling.
func (f OOBFill) String() string {
	switch f {
	case OOBZero:
		return "zero"
	case OOBNaN:
		return "nan"
	}
	return fmt.Sprintf("OOBFill(%d)", uint8(f))
}

// parseEnum finds s (case-insensitive) among the String spellings of the
// values 0..n-1.
func parseEnum[T ~uint8](s string, n T, name func(T) string) (T, bool) {
	for v := T(0); v < n; v++ {
		if strings.EqualFold(name(v), s) {
			return v, true
		}
	}
	return 0, false
}
