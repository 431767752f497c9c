package tma

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// MapSpec is a tensor map as the command line spells it (docs/tma.md):
//
//	tensormap:DTYPE,D0xD1x…,box=B0xB1x…[,stride=S1x…][,estride=E0xE1x…]
//	         [,swizzle=none|32B|64B|128B][,oob=zero|nan][,l2=none|64B|128B|256B]
//	         [,interleave=none|16B|32B][,buf=NAME|fill=FILL]
//
// Dimensions are innermost first, as cuTensorMapEncodeTiled takes them.
// Map.Base is zero until the caller binds the tensor to memory (WithBase):
// to the buffer argument named Buf, or else to a new allocation of
// AllocBytes bytes with contents Fill (memory.ParseFill's spelling).
type MapSpec struct {
	Map  Map
	Buf  string // name of the buffer argument holding the tensor; "" for its own allocation
	Fill string // contents of the own allocation ("zero" unless fill= says otherwise)
}

// ParseMapSpec parses the command-line spelling of a tensor map. Strides
// default to packed rows padded to 16 bytes, element strides to 1, swizzle
// and interleave to none, oob to zero, l2 to none. The result is validated
// (with Base 0); errors name the field of the spelling that is wrong.
func ParseMapSpec(s string) (MapSpec, error) {
	parts := strings.Split(strings.TrimPrefix(s, "tensormap:"), ",")
	if len(parts) < 3 {
		return MapSpec{}, specErr("tensormap", "want DTYPE,DIMS,box=…, got %q", s)
	}
	spec := MapSpec{Fill: "zero"}
	m := &spec.Map
	var ok bool
	if m.DType, ok = ParseDType(parts[0]); !ok {
		return MapSpec{}, specErr("dtype", "unknown element type %q (u8 u16 u32 s32 u64 s64 f16 bf16 f32 f64 tf32 f32ftz tf32ftz)", parts[0])
	}
	dims, err := parseList(parts[1], "dims", 1, MaxRank)
	if err != nil {
		return MapSpec{}, err
	}
	m.Rank = len(dims)
	copy(m.Dims[:], dims)
	for i := range m.ElemStrides[:m.Rank] {
		m.ElemStrides[i] = 1
	}
	seen := map[string]bool{}
	for _, kv := range parts[2:] {
		key, val, found := strings.Cut(kv, "=")
		if !found || val == "" {
			return MapSpec{}, specErr(kv, "want KEY=VALUE")
		}
		if seen[key] {
			return MapSpec{}, specErr(key, "given twice")
		}
		seen[key] = true
		if err := spec.set(key, val); err != nil {
			return MapSpec{}, err
		}
	}
	if !seen["box"] {
		return MapSpec{}, specErr("box", "missing: give box=B0x… with %d values", m.Rank)
	}
	if seen["buf"] && seen["fill"] {
		return MapSpec{}, specErr("fill", "buf= and fill= exclude each other: a named buffer has its own contents")
	}
	if !seen["stride"] {
		if m.Strides, err = packedStrides(m); err != nil {
			return MapSpec{}, err
		}
	}
	if err := m.Validate(); err != nil {
		return MapSpec{}, err
	}
	if _, ok := m.Extent(); !ok {
		return MapSpec{}, spanErr(m.Rank-1, m.Dims[m.Rank-1], m.Strides[m.Rank-2])
	}
	return spec, nil
}

// set applies one KEY=VALUE of the spelling.
func (s *MapSpec) set(key, val string) error {
	m := &s.Map
	switch key {
	case "box":
		return setList(m.Box[:], val, key, m.Rank)
	case "estride":
		return setList(m.ElemStrides[:], val, key, m.Rank)
	case "stride":
		if m.Rank == 1 {
			return specErr(key, "a rank-1 tensor has no strides")
		}
		v, err := parseList(val, key, m.Rank-1, m.Rank-1)
		copy(m.Strides[:], v)
		return err
	case "swizzle":
		return setEnum(&m.Swizzle, val, key, Swizzle128B+1, Swizzle.String)
	case "interleave":
		return setEnum(&m.Interleave, val, key, Interleave32B+1, Interleave.String)
	case "l2":
		return setEnum(&m.L2Promotion, val, key, L2Promotion256B+1, L2Promotion.String)
	case "oob":
		return setEnum(&m.OOBFill, val, key, OOBNaN+1, OOBFill.String)
	case "buf":
		s.Buf = val
		return nil
	case "fill":
		s.Fill = val
		return nil
	}
	return specErr(key, "unknown key (box stride estride swizzle oob l2 interleave buf fill)")
}

// WithBase returns the map bound to the tensor's address, validated.
func (s MapSpec) WithBase(base uint64) (Map, error) {
	m := s.Map
	m.Base = base
	return m, m.Validate()
}

// AllocBytes is the size of the tensor's own allocation: its extent in
// global memory (ParseMapSpec refuses a tensor whose extent overflows).
func (s MapSpec) AllocBytes() uint64 { return s.Map.TensorBytes() }

// packedStrides returns the strides of a dense tensor whose rows are padded
// to 16 bytes (the driver requires strides to be multiples of 16). A stride
// the packing makes 2^40 or more, the driver's limit, is an error naming
// the dimensions, which the user gave, rather than the strides, which they
// did not.
func packedStrides(m *Map) ([MaxRank - 1]uint64, error) {
	var st [MaxRank - 1]uint64
	for _, d := range m.Dims[:m.Rank] {
		if d > MaxGlobalDim {
			return st, nil // Validate names the dimension
		}
	}
	row := (m.Dims[0]*uint64(m.DType.Size()) + 15) &^ 15 // at most 2^32 elements of at most 16 bytes
	for i := 0; i < m.Rank-1; i++ {
		if row >= MaxStride {
			return st, specErr("dims", "packed rows give dimension %d a stride of %d bytes, not below 2^40 (the driver's limit)", i+1, row)
		}
		st[i] = row
		hi, lo := bits.Mul64(row, m.Dims[i+1])
		if hi != 0 {
			return st, spanErr(i+1, m.Dims[i+1], row)
		}
		row = lo
	}
	return st, nil
}

// spanErr says that dimension dim, n elements stride bytes apart, takes the
// tensor past the 64-bit address space.
func spanErr(dim int, n, stride uint64) error {
	return specErr("dims", "the tensor spans more than 2^64 bytes (dimension %d: %d elements %d bytes apart)", dim, n, stride)
}

func specErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

// parseList parses "AxBxC" into between lo and hi unsigned numbers.
func parseList(s, field string, lo, hi int) ([]uint64, error) {
	items := strings.Split(s, "x")
	if len(items) < lo || len(items) > hi {
		if lo == hi {
			return nil, specErr(field, "want %d values separated by x, got %q", lo, s)
		}
		return nil, specErr(field, "want %d to %d values separated by x, got %q", lo, hi, s)
	}
	out := make([]uint64, len(items))
	for i, it := range items {
		v, err := strconv.ParseUint(it, 0, 64)
		if err != nil {
			return nil, specErr(field, "%q is not an unsigned number", it)
		}
		out[i] = v
	}
	return out, nil
}

// setList parses exactly n values into dst (which holds 32-bit fields).
func setList(dst []uint32, val, field string, n int) error {
	v, err := parseList(val, field, n, n)
	if err != nil {
		return err
	}
	for i, x := range v {
		if x > 1<<31 {
			return specErr(field, "%d is too large", x)
		}
		dst[i] = uint32(x)
	}
	return nil
}

func setEnum[T ~uint8](dst *T, val, field string, n T, name func(T) string) error {
	v, ok := parseEnum(val, n, name)
	if !ok {
		opts := make([]string, 0, int(n))
		for x := T(0); x < n; x++ {
			opts = append(opts, name(x))
		}
		return specErr(field, "%q is not one of %s", val, strings.Join(opts, " "))
	}
	*dst = v
	return nil
}
