package run

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/warp"
)

// putScalar writes a literal into a scalar parameter. A float parameter
// takes any number, stored as a float of its width. A signed or unsigned
// integer parameter takes only an integer literal (decimal, 0x, 0o or 0b)
// that fits its width, signed or unsigned. An untyped .bN parameter takes an
// integer as an integer parameter does, else a float stored as a float of
// its width.
func putScalar(dst []byte, q isa.Param, v string) error {
	n := len(dst)
	if n == 0 || n > 8 {
		return fmt.Errorf("%d bytes: only scalars, buf: and tensormap: values can be given", n)
	}
	var u uint64
	switch {
	case q.Type.Float():
		bits, err := floatBits(q.Type, n, v)
		if err != nil {
			return err
		}
		u = bits
	case isBitsType(q.Type):
		bits, err := intBits(n, v)
		var re *rangeError
		if err != nil && isNumber(v) && !errors.As(err, &re) {
			bits, err = floatBits(q.Type, n, v)
		}
		if err != nil {
			return err
		}
		u = bits
	default:
		bits, err := intBits(n, v)
		if err != nil {
			return err
		}
		u = bits
	}
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], u)
	copy(dst, tmp[:n])
	return nil
}

// rangeError is an integer literal too large for its parameter.
type rangeError struct {
	v    string
	bits int
}

func (e *rangeError) Error() string { return fmt.Sprintf("%s does not fit %d bits", e.v, e.bits) }

// isBitsType reports whether t is an untyped bit pattern (.b8 to .b64).
func isBitsType(t isa.Type) bool {
	return t == isa.B8 || t == isa.B16 || t == isa.B32 || t == isa.B64
}

// intBits parses an integer literal for an n-byte parameter: it must fit n
// bytes as a signed or an unsigned integer.
func intBits(n int, v string) (uint64, error) {
	bits := 8 * n
	if i, err := strconv.ParseInt(v, 0, 64); err == nil {
		if bits < 64 && (i < -(1<<(bits-1)) || i >= 1<<bits) {
			return 0, &rangeError{v, bits}
		}
		return uint64(i), nil
	}
	x, err := strconv.ParseUint(v, 0, 64)
	switch {
	case err == nil && bits < 64 && x >= 1<<bits, errors.Is(err, strconv.ErrRange):
		return 0, &rangeError{v, bits}
	case err == nil:
		return x, nil
	}
	if f, ferr := strconv.ParseFloat(v, 64); ferr == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		return 0, fmt.Errorf("want an integer literal; %s is a float literal (write %d)", v, int64(f))
	}
	if v == "" {
		return 0, errors.New("no value; want an integer literal such as 42 or 0x2a")
	}
	return 0, fmt.Errorf("want an integer literal such as 42 or 0x2a, not %q", v)
}

// floatBits parses a number for an n-byte parameter of type t, stored as
// a float of that width (2 bytes: f16, or bf16 for a .bf16 parameter; 4:
// f32; 8: f64), and returns its bits. A finite number too large for the
// width is refused rather than stored as an infinity.
func floatBits(t isa.Type, n int, v string) (uint64, error) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		if v == "" {
			return 0, errors.New("no value; want a number such as 1.5, 2e-3 or 7")
		}
		return 0, fmt.Errorf("want a number such as 1.5, 2e-3 or 7, not %q", v)
	}
	finite := err == nil && !math.IsInf(f, 0)
	var bits uint64
	var back float64
	switch n {
	case 2:
		h := warp.F32ToF16(float32(f))
		back = float64(warp.F16ToF32(h))
		if t == isa.BF16 {
			h = warp.F32ToBF16(float32(f))
			back = float64(warp.BF16ToF32(h))
		}
		bits = uint64(h)
	case 4:
		bits = uint64(math.Float32bits(float32(f)))
		back = float64(float32(f))
	case 8:
		bits, back = math.Float64bits(f), f
	default:
		return 0, fmt.Errorf("a %d-byte parameter cannot hold a float", n)
	}
	if (errors.Is(err, strconv.ErrRange) && math.IsInf(f, 0)) || (finite && math.IsInf(back, 0)) {
		return 0, fmt.Errorf("%s is too large for a %d-bit float", v, 8*n)
	}
	return bits, nil
}
