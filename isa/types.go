package isa

import "fmt"

// Type is the data type an instruction operates on (the PTX type suffix).
type Type uint8

// Types. B types are untyped bits; U unsigned; S signed; F floating point.
const (
	TNone Type = iota
	Pred
	B8
	B16
	B32
	B64
	B128
	U8
	U16
	U32
	U64
	S8
	S16
	S32
	S64
	F16
	F16x2
	BF16
	BF16x2
	TF32
	F32
	F64
	numTypes
)

var typeNames = [...]string{
	TNone: "none", Pred: "pred", B8: "b8", B16: "b16", B32: "b32", B64: "b64", B128: "b128",
	U8: "u8", U16: "u16", U32: "u32", U64: "u64", S8: "s8", S16: "s16", S32: "s32", S64: "s64",
	F16: "f16", F16x2: "f16x2", BF16: "bf16", BF16x2: "bf16x2", TF32: "tf32", F32: "f32", F64: "f64",
}

// String is the PTX spelling without the dot.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("type(%d)", uint8(t))
}

// ParseType maps a PTX type name (without the dot) to a Type.
func ParseType(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s && i != int(TNone) {
			return Type(i), true
		}
	}
	return TNone, false
}

// Bits is the width of the type in bits (predicates count as 1).
func (t Type) Bits() int {
	switch t {
	case Pred:
		return 1
	case B8, U8, S8:
		return 8
	case B16, U16, S16, F16, BF16:
		return 16
	case B32, U32, S32, F32, F16x2, BF16x2, TF32:
		return 32
	case B64, U64, S64, F64:
		return 64
	case B128:
		return 128
	}
	return 0
}

// Bytes is the width in bytes (0 for predicates and none).
func (t Type) Bytes() int { return t.Bits() / 8 }

// Signed reports whether the type is a signed integer.
func (t Type) Signed() bool { return t == S8 || t == S16 || t == S32 || t == S64 }

// Float reports whether the type is a floating-point type.
func (t Type) Float() bool {
	switch t {
	case F16, F16x2, BF16, BF16x2, TF32, F32, F64:
		return true
	}
	return false
}

// Space is a PTX state space.
type Space uint8

// State spaces. Generic addresses are resolved to one of the others at run time.
const (
	Generic Space = iota
	Global
	Shared  // .shared::cta (and .shared without qualifier)
	Cluster // .shared::cluster
	Local
	Const
	ParamSpace
	numSpaces
)

var spaceNames = [...]string{Generic: "generic", Global: "global", Shared: "shared", Cluster: "shared::cluster", Local: "local", Const: "const", ParamSpace: "param"}

// String names the space as PTX spells it.
func (s Space) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return fmt.Sprintf("space(%d)", uint8(s))
}
