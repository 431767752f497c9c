package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/tma"
	"github.com/smsim/smsim/warp"
)

// maxBufferBytes bounds one buffer argument; memory.Global bounds the total.
const maxBufferBytes = 16 << 30

// buffer is a global allocation made for a kernel argument.
type buffer struct {
	name string
	addr uint64
	size uint64
}

// params is the built .param space of a launch and the buffers behind it.
type params struct {
	block []byte
	bufs  map[string]buffer // by parameter name and by index ("0", "1", ...)
}

// buildParams assigns every kernel parameter a value from --arg (named or
// positional) or the program's default, allocating buffers and tensor maps.
//
// An --arg is NAME=VALUE when the text before its first '=' has no ':' (a
// buf: or tensormap: value may hold '=' after a ':'); NAME must then be a
// parameter's name or index. Anything else is a VALUE for the next parameter
// not yet given. A VALUE that is a parameter's name and no literal, as in
// "-a ITERS", is refused: it is a NAME missing its "=VALUE".
func buildParams(p *isa.Program, args []string, gm *memory.Global) (*params, error) {
	vals := make([]string, len(p.Params))
	given := make([]string, len(p.Params)) // the --arg that gave each value ("": the default)
	pos := 0
	for _, a := range args {
		name, v, named := strings.Cut(a, "=")
		if named && !strings.Contains(name, ":") {
			_, i, ok := p.Param(name)
			if !ok {
				return nil, &usageError{msg: fmt.Sprintf("--arg %q: kernel %s has no parameter %q (%s)", a, p.Title(), name, paramList(p))}
			}
			vals[i], given[i] = v, a
			continue
		}
		if q, i, ok := p.Param(a); ok && q.Name == a && !isNumber(a) {
			return nil, &usageError{msg: fmt.Sprintf("--arg %q: %s is parameter %d of kernel %s, with no value; give --arg %s=VALUE", a, a, i, p.Name, a)}
		}
		for pos < len(given) && given[pos] != "" {
			pos++
		}
		if pos >= len(given) {
			return nil, &usageError{msg: fmt.Sprintf("--arg %q: kernel %s takes only %s (%s)", a, p.Title(), countOf(uint64(len(p.Params)), "parameter"), paramList(p))}
		}
		vals[pos], given[pos] = a, a
		pos++
	}
	for i, q := range p.Params {
		if given[i] == "" {
			if q.Default == "" {
				return nil, &usageError{msg: fmt.Sprintf("kernel %s: parameter %d (%s) has no value; give --arg (%s)", p.Title(), i, q.Name, paramList(p))}
			}
			vals[i] = q.Default
		}
	}
	out := &params{block: make([]byte, p.ParamBytes), bufs: map[string]buffer{}}
	// Buffers first, so tensor maps can refer to them by name.
	for pass := 0; pass < 2; pass++ {
		for i, q := range p.Params {
			isMap := strings.HasPrefix(vals[i], "tensormap:")
			if (pass == 0) == isMap {
				continue
			}
			if err := out.set(p, i, q, vals[i], gm); err != nil {
				what := fmt.Sprintf("--arg %q", given[i])
				if given[i] == "" {
					what = fmt.Sprintf("the default %q", vals[i])
				}
				return nil, &inputError{err: fmt.Errorf("%s: parameter %d (%s %s): %w", what, i, q.Name, paramType(q), err)}
			}
		}
	}
	return out, nil
}

// isNumber reports whether s is a float literal (NaN and Inf included).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// paramList lists a kernel's parameters for messages: index, name and type.
func paramList(p *isa.Program) string {
	var ns []string
	for i, q := range p.Params {
		ns = append(ns, fmt.Sprintf("%d:%s", i, paramTitle(q)))
	}
	if len(ns) == 0 {
		return "no parameters"
	}
	return strings.Join(ns, ", ")
}

// paramTitle names a parameter for messages: its name (PTX kernels'
// parameters keep no source names) and its C++ type where the source gives
// one, else its PTX type.
func paramTitle(q isa.Param) string {
	if q.CType != "" {
		return q.Name + " " + q.CType
	}
	return q.Name + " " + paramType(q)
}

// paramType is a parameter's PTX type, with the element count of an array.
func paramType(q isa.Param) string {
	if q.Size == 128 && q.Type == isa.B8 {
		return "b8[128]"
	}
	if q.Size > q.Type.Bytes() && q.Type.Bytes() > 0 {
		return fmt.Sprintf("%s[%d]", q.Type, q.Size/q.Type.Bytes())
	}
	return q.Type.String()
}

func (ps *params) set(p *isa.Program, i int, q isa.Param, v string, gm *memory.Global) error {
	dst := ps.block[q.Offset : q.Offset+q.Size]
	switch {
	case strings.HasPrefix(v, "buf:"):
		if q.Size != 8 {
			return fmt.Errorf("a buffer is a 64-bit pointer but parameter %s is %d bytes", q.Name, q.Size)
		}
		b, err := allocBuffer(q.Name, v[4:], gm)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(dst, b.addr)
		ps.bufs[q.Name] = b
		ps.bufs[strconv.Itoa(i)] = b
		return nil
	case strings.HasPrefix(v, "tensormap:"):
		b, err := ps.setMap(q, v, dst, gm)
		if err == nil && b.size > 0 {
			// A tensor of its own answers to the map's name, as a
			// buffer argument does (validate's warm list).
			ps.bufs[q.Name] = b
			ps.bufs[strconv.Itoa(i)] = b
		}
		return err
	}
	return putScalar(dst, q, v)
}

// setMap builds a CUtensorMap parameter (docs/tma.md): bound to the buffer
// argument its spec names, or to an allocation of its own.
// It returns the tensor it allocated, if any.
func (ps *params) setMap(q isa.Param, v string, dst []byte, gm *memory.Global) (buffer, error) {
	if q.Size < tma.MapBytes {
		return buffer{}, fmt.Errorf("a tensor map is %d bytes but parameter %s is %d bytes", tma.MapBytes, q.Name, q.Size)
	}
	spec, err := tma.ParseMapSpec(v)
	if err != nil {
		return buffer{}, err
	}
	var base uint64
	var own buffer
	if spec.Buf != "" {
		b, ok := ps.bufs[spec.Buf]
		if !ok {
			return buffer{}, fmt.Errorf("tensor map names buffer %q, which is not a buffer argument of this kernel", spec.Buf)
		}
		if need := spec.AllocBytes(); b.size < need {
			return buffer{}, fmt.Errorf("tensor map needs %d bytes but buffer %s has %d", need, spec.Buf, b.size)
		}
		base = b.addr
	} else {
		size := spec.AllocBytes()
		if size == 0 || size > maxBufferBytes {
			return buffer{}, fmt.Errorf("tensor of %d bytes is outside 1..%d bytes", size, uint64(maxBufferBytes))
		}
		addr, err := gm.Alloc(size, 256, q.Name+".tensor")
		if err != nil {
			return buffer{}, err
		}
		f, err := memory.ParseFill(spec.Fill)
		if err != nil {
			return buffer{}, err
		}
		if err := gm.SetFill(addr, f); err != nil {
			return buffer{}, err
		}
		base = addr
		own = buffer{name: q.Name, addr: addr, size: size}
	}
	m, err := spec.WithBase(base)
	if err != nil {
		return buffer{}, err
	}
	enc, err := m.Encode()
	if err != nil {
		return buffer{}, err
	}
	copy(dst, enc[:])
	return own, nil
}

// allocBuffer parses SIZE[:FILL] and allocates it.
func allocBuffer(name, spec string, gm *memory.Global) (buffer, error) {
	sz, fill, _ := strings.Cut(spec, ":")
	size, err := parseSize(sz)
	if err != nil {
		return buffer{}, err
	}
	if size == 0 || size > maxBufferBytes {
		return buffer{}, fmt.Errorf("buffer size %d is outside 1..%d bytes", size, uint64(maxBufferBytes))
	}
	addr, err := gm.Alloc(size, 256, name)
	if err != nil {
		return buffer{}, err
	}
	b := buffer{name: name, addr: addr, size: size}
	if fill == "" {
		return b, nil
	}
	if path, ok := strings.CutPrefix(fill, "file:"); ok {
		return b, fillFromFile(gm, addr, size, path)
	}
	f, err := memory.ParseFill(fill)
	if err != nil {
		return b, err
	}
	return b, gm.SetFill(addr, f)
}

// fillFromFile copies the first size bytes of the regular file at path (all
// of it when shorter) to global memory at addr, a chunk at a time. The bytes
// copied may not exceed maxFillBytes: a larger buffer takes a file of at
// most that size.
func fillFromFile(gm *memory.Global, addr, size uint64, path string) error {
	want := int64(min(size, maxFillBytes))
	f, n, err := openInput(path, "file: fill", math.MaxInt64)
	if err != nil {
		return err
	}
	defer f.Close()
	if n > want && size > maxFillBytes {
		return tooLarge(path, "file: fill", maxFillBytes)
	}
	r := io.LimitReader(f, want)
	var chunk [1 << 20]byte
	for off := uint64(0); ; {
		k, err := io.ReadFull(r, chunk[:])
		if k > 0 {
			if werr := gm.Write(addr+off, chunk[:k]); werr != nil {
				return werr
			}
			off += uint64(k)
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
	}
}

// parseSize reads a byte count with an optional K/KiB/M/MiB/G/GiB suffix.
func parseSize(s string) (uint64, error) {
	mult := uint64(1)
	for _, u := range []struct {
		suf string
		m   uint64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if t, ok := strings.CutSuffix(s, u.suf); ok {
			s, mult = t, u.m
			break
		}
	}
	n, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 0, 64)
	if err != nil {
		return 0, fmt.Errorf("size %q: want a byte count such as 4096, 64KiB or 1MiB", s)
	}
	if n > math.MaxUint64/mult {
		return 0, fmt.Errorf("size %q overflows", s)
	}
	return n * mult, nil
}

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
