package tma

import (
	"encoding/binary"
	"fmt"
)

// Field is a field of a tensor map that tensormap.replace writes (PTX ISA
// §9.7.9.26, the .tile fields sm_90a has).
type Field uint8

// Fields.
const (
	FieldGlobalAddress Field = iota + 1 // .global_address: Base
	FieldRank                           // .rank: the value is Rank − 1
	FieldBoxDim                         // .box_dim[ord]
	FieldGlobalDim                      // .global_dim[ord]
	FieldGlobalStride                   // .global_stride[ord]: Strides[ord], the byte stride of dimension ord+1
	FieldElementStride                  // .element_stride[ord]
	FieldElemType                       // .elemtype: the ISA's numbering (ElemTypeOf)
	FieldInterleave                     // .interleave_layout: 0 none, 1 16B, 2 32B
	FieldSwizzle                        // .swizzle_mode: 0 none, 1 32B, 2 64B, 3 128B
	FieldFillMode                       // .fill_mode: 0 zero, 1 OOB-NaN
)

// String is the PTX spelling of the field.
func (f Field) String() string {
	switch f {
	case FieldGlobalAddress:
		return "global_address"
	case FieldRank:
		return "rank"
	case FieldBoxDim:
		return "box_dim"
	case FieldGlobalDim:
		return "global_dim"
	case FieldGlobalStride:
		return "global_stride"
	case FieldElementStride:
		return "element_stride"
	case FieldElemType:
		return "elemtype"
	case FieldInterleave:
		return "interleave_layout"
	case FieldSwizzle:
		return "swizzle_mode"
	case FieldFillMode:
		return "fill_mode"
	}
	return fmt.Sprintf("Field(%d)", uint8(f))
}

// elemTypes maps the .elemtype values of tensormap.replace to element types.
// They are not CUtensorMapDataType's numbers (the ISA says so): 8 is
// .f32.ftz, 9 .f64 and 10 .bf16, where the driver has f64, bf16, f32ftz.
// 13–15 (the packed sub-byte types) are sm_100's.
var elemTypes = [...]DType{U8, U16, U32, S32, U64, S64, F16, F32, F32FTZ, F64, BF16, TF32, TF32FTZ}

// ElemTypeOf returns the element type of a tensormap.replace .elemtype value.
func ElemTypeOf(v uint64) (DType, bool) {
	if v >= uint64(len(elemTypes)) {
		return 0, false
	}
	return elemTypes[v], true
}

// Replace writes field f (entry ord of the per-dimension fields) of the
// 128-byte tensor map img, in smsim's encoding, to v: tensormap.replace. Like
// the instruction it writes the field and nothing else, so the map may pass
// through states that break a driver limit (a rank raised before its new
// dimension is set); a copy through it is checked when it is issued, as any
// map is. It fails on bytes that are not a map smsim encoded, an ord past the
// field's entries, a value outside what the ISA defines for .elemtype,
// .interleave_layout, .swizzle_mode and .fill_mode, and a value the encoding
// has no room for (a box dimension above 65535, an element stride or a rank
// above 255: all far outside the driver's limits).
func Replace(img []byte, f Field, ord int, v uint64) error {
	if len(img) < MapBytes || string(img[0:4]) != mapMagic || binary.LittleEndian.Uint16(img[4:]) != mapVersion {
		return fmt.Errorf("tensormap.replace: the 128 bytes are not a tensor map built with --arg tensormap:... (smsim's own encoding)")
	}
	n := MaxRank
	if f == FieldGlobalStride {
		n = MaxRank - 1
	}
	switch f {
	case FieldBoxDim, FieldGlobalDim, FieldGlobalStride, FieldElementStride:
		if ord < 0 || ord >= n {
			return fmt.Errorf("tensormap.replace .%s: ordinal %d is outside 0..%d", f, ord, n-1)
		}
	}
	tooBig := func(max uint64, what string) error {
		return fmt.Errorf("tensormap.replace .%s: %d does not fit the map (at most %d; %s)", f, v, max, what)
	}
	switch f {
	case FieldGlobalAddress:
		binary.LittleEndian.PutUint64(img[offBase:], v)
	case FieldRank:
		if v >= 255 {
			return tooBig(254, "the field holds the rank − 1, and a rank is 1..5")
		}
		img[7] = byte(v + 1)
	case FieldBoxDim:
		if v > 0xffff {
			return tooBig(0xffff, "a box dimension is 1..256")
		}
		binary.LittleEndian.PutUint16(img[offBox+2*ord:], uint16(v))
	case FieldGlobalDim:
		binary.LittleEndian.PutUint64(img[offDims+8*ord:], v)
	case FieldGlobalStride:
		binary.LittleEndian.PutUint64(img[offStrides+8*ord:], v)
	case FieldElementStride:
		if v > 0xff {
			return tooBig(0xff, "an element stride is 1..8")
		}
		img[offEStride+ord] = byte(v)
	case FieldElemType:
		t, ok := ElemTypeOf(v)
		if !ok {
			return fmt.Errorf("tensormap.replace .elemtype: %d is not one of the sm_90 element types 0..12", v)
		}
		img[6] = byte(t)
	case FieldInterleave, FieldSwizzle, FieldFillMode:
		lim, at := uint64(Interleave32B), 8
		switch f {
		case FieldSwizzle:
			lim, at = uint64(Swizzle128B), 9
		case FieldFillMode:
			lim, at = uint64(OOBNaN), 11
		}
		if v > lim {
			return fmt.Errorf("tensormap.replace .%s: %d is not a valid value (0..%d)", f, v, lim)
		}
		img[at] = byte(v)
	default:
		return fmt.Errorf("tensormap.replace: unknown field %d", uint8(f))
	}
	return nil
}
