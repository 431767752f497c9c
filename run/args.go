package run

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/tma"
)

// maxBufferBytes bounds one buffer argument; memory.Global bounds the total.
const maxBufferBytes = 16 << 30

// Buffer is a global allocation made for a kernel argument.
type Buffer struct {
	Name string
	Addr uint64
	Size uint64
}

// Params is the built .param space of a launch and the buffers behind it.
type Params struct {
	Block []byte
	Bufs  map[string]Buffer // by parameter name and by index ("0", "1", ...)
}

// BuildParams assigns every kernel parameter a value from --arg (named or
// positional) or the program's default, allocating buffers and tensor maps.
//
// An --arg is NAME=VALUE when the text before its first '=' has no ':' (a
// buf: or tensormap: value may hold '=' after a ':'); NAME must then be a
// parameter's name or index. Anything else is a VALUE for the next parameter
// not yet given. A VALUE that is a parameter's name and no literal, as in
// "-a ITERS", is refused: it is a NAME missing its "=VALUE".
func BuildParams(p *isa.Program, args []string, gm *memory.Global) (*Params, error) {
	vals := make([]string, len(p.Params))
	given := make([]string, len(p.Params)) // the --arg that gave each value ("": the default)
	pos := 0
	for _, a := range args {
		name, v, named := strings.Cut(a, "=")
		if named && !strings.Contains(name, ":") {
			_, i, ok := p.Param(name)
			if !ok {
				return nil, &UsageError{Msg: fmt.Sprintf("--arg %q: kernel %s has no parameter %q (%s)", a, p.Title(), name, ParamList(p))}
			}
			vals[i], given[i] = v, a
			continue
		}
		if q, i, ok := p.Param(a); ok && q.Name == a && !isNumber(a) {
			return nil, &UsageError{Msg: fmt.Sprintf("--arg %q: %s is parameter %d of kernel %s, with no value; give --arg %s=VALUE", a, a, i, p.Name, a)}
		}
		for pos < len(given) && given[pos] != "" {
			pos++
		}
		if pos >= len(given) {
			return nil, &UsageError{Msg: fmt.Sprintf("--arg %q: kernel %s takes only %s (%s)", a, p.Title(), countOf(len(p.Params), "parameter"), ParamList(p))}
		}
		vals[pos], given[pos] = a, a
		pos++
	}
	for i, q := range p.Params {
		if given[i] == "" {
			if q.Default == "" {
				return nil, &UsageError{Msg: fmt.Sprintf("kernel %s: parameter %d (%s) has no value; give --arg (%s)", p.Title(), i, q.Name, ParamList(p))}
			}
			vals[i] = q.Default
		}
	}
	out := &Params{Block: make([]byte, p.ParamBytes), Bufs: map[string]Buffer{}}
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
				return nil, &InputError{Err: fmt.Errorf("%s: parameter %d (%s %s): %w", what, i, q.Name, ParamType(q), err)}
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

// ParamList lists a kernel's parameters for messages: index, name and type.
func ParamList(p *isa.Program) string {
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
	return q.Name + " " + ParamType(q)
}

// ParamType is a parameter's PTX type, with the element count of an array.
func ParamType(q isa.Param) string {
	if q.Size == 128 && q.Type == isa.B8 {
		return "b8[128]"
	}
	if q.Size > q.Type.Bytes() && q.Type.Bytes() > 0 {
		return fmt.Sprintf("%s[%d]", q.Type, q.Size/q.Type.Bytes())
	}
	return q.Type.String()
}

func (ps *Params) set(p *isa.Program, i int, q isa.Param, v string, gm *memory.Global) error {
	dst := ps.Block[q.Offset : q.Offset+q.Size]
	switch {
	case strings.HasPrefix(v, "buf:"):
		if q.Size != 8 {
			return fmt.Errorf("a buffer is a 64-bit pointer but parameter %s is %d bytes", q.Name, q.Size)
		}
		b, err := allocBuffer(q.Name, v[4:], gm)
		if err != nil {
			return err
		}
		binary.LittleEndian.PutUint64(dst, b.Addr)
		ps.Bufs[q.Name] = b
		ps.Bufs[strconv.Itoa(i)] = b
		return nil
	case strings.HasPrefix(v, "tensormap:"):
		b, err := ps.setMap(q, v, dst, gm)
		if err == nil && b.Size > 0 {
			// A tensor of its own answers to the map's name, as a
			// buffer argument does (validate's warm list).
			ps.Bufs[q.Name] = b
			ps.Bufs[strconv.Itoa(i)] = b
		}
		return err
	}
	return putScalar(dst, q, v)
}

// setMap builds a CUtensorMap parameter (docs/tma.md): bound to the buffer
// argument its spec names, or to an allocation of its own.
// It returns the tensor it allocated, if any.
func (ps *Params) setMap(q isa.Param, v string, dst []byte, gm *memory.Global) (Buffer, error) {
	if q.Size < tma.MapBytes {
		return Buffer{}, fmt.Errorf("a tensor map is %d bytes but parameter %s is %d bytes", tma.MapBytes, q.Name, q.Size)
	}
	spec, err := tma.ParseMapSpec(v)
	if err != nil {
		return Buffer{}, err
	}
	var base uint64
	var own Buffer
	if spec.Buf != "" {
		b, ok := ps.Bufs[spec.Buf]
		if !ok {
			return Buffer{}, fmt.Errorf("tensor map names buffer %q, which is not a buffer argument of this kernel", spec.Buf)
		}
		if need := spec.AllocBytes(); b.Size < need {
			return Buffer{}, fmt.Errorf("tensor map needs %d bytes but buffer %s has %d", need, spec.Buf, b.Size)
		}
		base = b.Addr
	} else {
		size := spec.AllocBytes()
		if size == 0 || size > maxBufferBytes {
			return Buffer{}, fmt.Errorf("tensor of %d bytes is outside 1..%d bytes", size, uint64(maxBufferBytes))
		}
		addr, err := gm.Alloc(size, 256, q.Name+".tensor")
		if err != nil {
			return Buffer{}, err
		}
		f, err := memory.ParseFill(spec.Fill)
		if err != nil {
			return Buffer{}, err
		}
		if err := gm.SetFill(addr, f); err != nil {
			return Buffer{}, err
		}
		base = addr
		own = Buffer{Name: q.Name, Addr: addr, Size: size}
	}
	m, err := spec.WithBase(base)
	if err != nil {
		return Buffer{}, err
	}
	enc, err := m.Encode()
	if err != nil {
		return Buffer{}, err
	}
	copy(dst, enc[:])
	return own, nil
}

// allocBuffer parses SIZE[:FILL] and allocates it.
func allocBuffer(name, spec string, gm *memory.Global) (Buffer, error) {
	sz, fill, _ := strings.Cut(spec, ":")
	size, err := parseSize(sz)
	if err != nil {
		return Buffer{}, err
	}
	if size == 0 || size > maxBufferBytes {
		return Buffer{}, fmt.Errorf("buffer size %d is outside 1..%d bytes", size, uint64(maxBufferBytes))
	}
	addr, err := gm.Alloc(size, 256, name)
	if err != nil {
		return Buffer{}, err
	}
	b := Buffer{Name: name, Addr: addr, Size: size}
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
// copied may not exceed MaxFillBytes: a larger buffer takes a file of at
// most that size.
func fillFromFile(gm *memory.Global, addr, size uint64, path string) error {
	want := int64(min(size, MaxFillBytes))
	f, n, err := OpenInput(path, "file: fill", math.MaxInt64)
	if err != nil {
		return err
	}
	defer f.Close()
	if n > want && size > MaxFillBytes {
		return TooLarge(path, "file: fill", MaxFillBytes)
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
			return fmt.Errorf("%s: %w", path, UnwrapPath(err))
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

// countOf is n and what, plural unless n is 1: "3 parameters".
func countOf(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
