package main

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
func buildParams(p *isa.Program, args []string, gm *memory.Global) (*params, error) {
	vals := make([]string, len(p.Params))
	have := make([]bool, len(p.Params))
	pos := 0
	for _, a := range args {
		name, v, named := strings.Cut(a, "=")
		if named && !strings.Contains(name, ":") {
			_, i, ok := p.Param(name)
			if !ok {
				return nil, &usageError{msg: fmt.Sprintf("--arg %q: kernel %s has no parameter %q (%s)", a, p.Name, name, paramList(p))}
			}
			vals[i], have[i] = v, true
			continue
		}
		for pos < len(have) && have[pos] {
			pos++
		}
		if pos >= len(have) {
			return nil, &usageError{msg: fmt.Sprintf("--arg %q: kernel %s takes only %d parameters (%s)", a, p.Name, len(p.Params), paramList(p))}
		}
		vals[pos], have[pos] = a, true
		pos++
	}
	for i, q := range p.Params {
		if !have[i] {
			if q.Default == "" {
				return nil, &usageError{msg: fmt.Sprintf("kernel %s: parameter %d (%s) has no value; give --arg (%s)", p.Name, i, q.Name, paramList(p))}
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
				return nil, &inputError{err: fmt.Errorf("--arg %s=%q: %w", q.Name, vals[i], err)}
			}
		}
	}
	return out, nil
}

func paramList(p *isa.Program) string {
	var ns []string
	for i, q := range p.Params {
		ns = append(ns, fmt.Sprintf("%d:%s %s", i, q.Name, paramType(q)))
	}
	if len(ns) == 0 {
		return "no parameters"
	}
	return strings.Join(ns, ", ")
}

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

// putScalar writes an integer or float literal into a parameter.
func putScalar(dst []byte, q isa.Param, v string) error {
	n := len(dst)
	if n == 0 || n > 8 {
		return fmt.Errorf("parameter %s is %d bytes; only scalars, buf: and tensormap: values can be given", q.Name, n)
	}
	if q.Type.Float() {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("want a floating-point number for %s %s", q.Type, q.Name)
		}
		if n == 4 {
			binary.LittleEndian.PutUint32(dst, math.Float32bits(float32(f)))
		} else {
			binary.LittleEndian.PutUint64(dst, math.Float64bits(f))
		}
		return nil
	}
	var u uint64
	if i, err := strconv.ParseInt(v, 0, 64); err == nil {
		if n < 8 && (i < -(1<<(8*n-1)) || i >= 1<<(8*n)) {
			return fmt.Errorf("%d does not fit the %d-byte parameter %s", i, n, q.Name)
		}
		u = uint64(i)
	} else if x, err2 := strconv.ParseUint(v, 0, 64); err2 == nil {
		if n < 8 && x >= 1<<(8*n) {
			return fmt.Errorf("%d does not fit the %d-byte parameter %s", x, n, q.Name)
		}
		u = x
	} else if f, err3 := strconv.ParseFloat(v, 64); err3 == nil && n >= 4 {
		if n == 4 {
			u = uint64(math.Float32bits(float32(f)))
		} else {
			u = math.Float64bits(f)
		}
	} else {
		return fmt.Errorf("want an integer or floating-point literal, buf:SIZE[:FILL] or tensormap:...")
	}
	var tmp [8]byte
	binary.LittleEndian.PutUint64(tmp[:], u)
	copy(dst, tmp[:n])
	return nil
}
