package tma

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode"
)

// Driver limits of cuTensorMapEncodeTiled (mbarrier-semantics.md §2.3, §2.7).
const (
	MaxRank       = 5
	MaxBoxDim     = 256
	MaxElemStride = 8
	MaxGlobalDim  = 1 << 32
	MaxStride     = 1 << 40 // strides must be below this
)

// Map is a tiled tensor map: smsim's decoded form of a CUtensorMap. Dims
// are innermost first, as cuTensorMapEncodeTiled takes them; Strides[i] is
// the byte stride of dimension i+1. Entries past Rank are ignored.
type Map struct {
	DType       DType
	Rank        int
	Base        uint64
	Dims        [MaxRank]uint64
	Strides     [MaxRank - 1]uint64
	Box         [MaxRank]uint32
	ElemStrides [MaxRank]uint32
	Interleave  Interleave
	Swizzle     Swizzle
	L2Promotion L2Promotion
	OOBFill     OOBFill
}

// FieldError is a tensor map that breaks a driver limit; Field names the
// offending field the way Map spells it (Box[0], Strides[1], …).
type FieldError struct {
	Field  string
	Reason string
}

// Error is "tensor map: FIELD: REASON", with a field spelled by the user
// quoted when it holds characters that would break the one-line message.
func (e *FieldError) Error() string {
	f := e.Field
	if strings.IndexFunc(f, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		f = strconv.Quote(f)
	}
	return "tensor map: " + f + ": " + e.Reason
}

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// Validate checks every limit cuTensorMapEncodeTiled checks (tile mode,
// sm_90 types and swizzles) and returns the first violation as a
// *FieldError.
func (m *Map) Validate() error {
	if err := m.validateKind(); err != nil {
		return err
	}
	if err := m.validateGlobal(); err != nil {
		return err
	}
	if err := m.validateBox(); err != nil {
		return err
	}
	return m.validateModes()
}

func (m *Map) validateKind() error {
	switch {
	case !m.DType.Valid():
		return fieldErr("DType", "unknown element type %d", uint8(m.DType))
	case m.Rank < 1 || m.Rank > MaxRank:
		return fieldErr("Rank", "%d is outside 1..%d", m.Rank, MaxRank)
	case m.Interleave > Interleave32B:
		return fieldErr("Interleave", "unknown mode %d", uint8(m.Interleave))
	case m.Interleave != InterleaveNone && m.Rank < 3:
		return fieldErr("Rank", "an interleaved map needs rank 3 or more, got %d", m.Rank)
	case m.Swizzle > Swizzle128B:
		return fieldErr("Swizzle", "unknown mode %d", uint8(m.Swizzle))
	case m.L2Promotion > L2Promotion256B:
		return fieldErr("L2Promotion", "unknown mode %d", uint8(m.L2Promotion))
	case m.OOBFill > OOBNaN:
		return fieldErr("OOBFill", "unknown mode %d", uint8(m.OOBFill))
	}
	return nil
}

func (m *Map) validateGlobal() error {
	align := uint64(16)
	if m.Interleave == Interleave32B {
		align = 32
	}
	if m.Base%align != 0 {
		return fieldErr("Base", "%#x is not %d-byte aligned", m.Base, align)
	}
	for i := 0; i < m.Rank; i++ {
		if m.Dims[i] < 1 || m.Dims[i] > MaxGlobalDim {
			return fieldErr(fmt.Sprintf("Dims[%d]", i), "%d is outside 1..2^32", m.Dims[i])
		}
	}
	for i := 0; i < m.Rank-1; i++ {
		switch s := m.Strides[i]; {
		case s%align != 0:
			return fieldErr(fmt.Sprintf("Strides[%d]", i), "%d is not a multiple of %d", s, align)
		case s >= MaxStride:
			return fieldErr(fmt.Sprintf("Strides[%d]", i), "%d is not below 2^40", s)
		}
	}
	return nil
}

func (m *Map) validateBox() error {
	for i := 0; i < m.Rank; i++ {
		if b := m.Box[i]; b < 1 || b > MaxBoxDim {
			return fieldErr(fmt.Sprintf("Box[%d]", i), "%d is outside 1..%d", b, MaxBoxDim)
		}
		if e := m.ElemStrides[i]; e < 1 || e > MaxElemStride {
			return fieldErr(fmt.Sprintf("ElemStrides[%d]", i), "%d is outside 1..%d", e, MaxElemStride)
		}
	}
	if inner := m.InnerBytes(); m.Interleave == InterleaveNone && inner%16 != 0 {
		return fieldErr("Box[0]", "the inner box dimension is %d × %d = %d bytes, not a multiple of 16",
			m.Box[0], m.DType.Size(), inner)
	}
	return nil
}

func (m *Map) validateModes() error {
	if m.Interleave == Interleave32B && m.Swizzle != Swizzle32B {
		return fieldErr("Swizzle", "32B interleave requires 32B swizzle, got %s", m.Swizzle)
	}
	if span := m.Swizzle.Span(); m.Interleave == InterleaveNone && span != 0 && m.InnerBytes() > span {
		return fieldErr("Swizzle", "the inner box dimension is %d bytes, more than the %s swizzle span [§4 #53]",
			m.InnerBytes(), m.Swizzle)
	}
	if m.OOBFill == OOBNaN && !m.DType.Float() {
		return fieldErr("OOBFill", "NaN fill needs a floating-point type, not %s", m.DType)
	}
	return nil
}

// InnerBytes is the byte length of one box row: Box[0] elements.
func (m *Map) InnerBytes() int { return int(m.Box[0]) * m.DType.Size() }

// count is the number of elements the box moves along dimension i:
// ceil(Box[i]/ElemStrides[i]); the element stride of dimension 0 is ignored
// without interleave, as the driver documents.
func (m *Map) count(i int) uint32 {
	if i == 0 && m.Interleave == InterleaveNone {
		return m.Box[0]
	}
	es := max(m.ElemStrides[i], 1)
	return (m.Box[i] + es - 1) / es
}

// Rows is the number of box rows (contiguous runs along dimension 0): the
// product of the element counts of dimensions 1..Rank-1.
func (m *Map) Rows() int {
	n := 1
	for i := 1; i < m.Rank; i++ {
		n *= int(m.count(i))
	}
	return n
}

// BoxBytes is the size of the box in shared memory and the number of bytes
// a load credits to its barrier, however much of the box lies outside the
// tensor (measured on H200, mbarrier-semantics.md §5.2): the product of the
// element counts times the element size.
func (m *Map) BoxBytes() uint32 {
	return uint32(m.Rows()) * m.count(0) * uint32(m.DType.Size())
}

// TensorBytes is the extent of the tensor in global memory from Base: the
// outermost stride times the outermost dimension (the packed row size for
// rank 1). It is meaningful only where Extent reports no overflow.
func (m *Map) TensorBytes() uint64 {
	n, _ := m.Extent()
	return n
}

// Extent is TensorBytes and whether it fits in 64 bits: a stride below 2^40
// times a dimension up to 2^32 may not.
func (m *Map) Extent() (uint64, bool) {
	if m.Rank <= 1 {
		hi, lo := bits.Mul64(m.Dims[0], uint64(m.DType.Size()))
		return lo, hi == 0
	}
	hi, lo := bits.Mul64(m.Strides[m.Rank-2], m.Dims[m.Rank-1])
	return lo, hi == 0
}
