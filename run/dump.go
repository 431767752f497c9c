package run

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/smsim/smsim/memory"
)

// DumpSpec is one --dump NAME[:TYPE[:COUNT]]: a buffer parameter to read
// after the run.
type DumpSpec struct {
	Name  string // the parameter, as --arg names it (PTX name or index)
	Type  string // i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 hex
	Count int    // values to read; -1: the whole buffer
}

// Dump is a dumped buffer: its values in the spec's type (integers as
// their Go types, floats as float64 or, for NaN and infinities, strings,
// hex words as "0x%08x").
type Dump struct {
	Name   string
	Type   string
	Values []any
}

// dumpSizes are the bytes of one value of each dump type.
func dumpSizes() map[string]int {
	return map[string]int{"i32": 4, "u32": 4, "f32": 4, "i64": 8, "u64": 8, "f64": 8, "hex": 4,
		"i8": 1, "u8": 1, "i16": 2, "u16": 2}
}

// MaxDumpValues bounds the values one dump reads.
const MaxDumpValues = 1 << 20

// ParseDump reads NAME[:TYPE[:COUNT]] (TYPE default i32, COUNT default the
// whole buffer).
func ParseDump(s string) (DumpSpec, error) {
	parts := strings.Split(s, ":")
	d := DumpSpec{Name: parts[0], Type: "i32", Count: -1}
	if d.Name == "" || len(parts) > 3 {
		return d, &UsageError{Msg: fmt.Sprintf("--dump %q: want NAME[:TYPE[:COUNT]]", s)}
	}
	if len(parts) > 1 && parts[1] != "" {
		d.Type = parts[1]
	}
	if _, ok := dumpSizes()[d.Type]; !ok {
		return d, &UsageError{Msg: fmt.Sprintf("--dump %q: type %q is not one of i8 u8 i16 u16 i32 u32 i64 u64 f32 f64 hex", s, d.Type)}
	}
	if len(parts) > 2 {
		n, err := strconv.Atoi(parts[2])
		if err != nil || n < 0 || n > MaxDumpValues {
			return d, &UsageError{Msg: fmt.Sprintf("--dump %q: count must be 0..%d", s, MaxDumpValues)}
		}
		d.Count = n
	}
	return d, nil
}

// ReadDumps reads each spec's buffer from global memory.
func ReadDumps(specs []DumpSpec, ps *Params, gm *memory.Global) ([]Dump, error) {
	var out []Dump
	for _, d := range specs {
		b, ok := ps.Bufs[d.Name]
		if !ok {
			return out, &UsageError{Msg: fmt.Sprintf("--dump %s: not a buffer parameter of the kernel", d.Name)}
		}
		es := dumpSizes()[d.Type]
		n := int(b.Size) / es
		if d.Count >= 0 && d.Count < n {
			n = d.Count
		}
		n = min(n, MaxDumpValues)
		raw := make([]byte, n*es)
		if err := gm.Read(b.Addr, raw); err != nil {
			return out, err
		}
		r := Dump{Name: d.Name, Type: d.Type, Values: make([]any, n)}
		for i := 0; i < n; i++ {
			r.Values[i] = decodeValue(raw[i*es:], d.Type)
		}
		out = append(out, r)
	}
	return out, nil
}

func decodeValue(b []byte, typ string) any {
	switch typ {
	case "i8":
		return int8(b[0])
	case "u8":
		return b[0]
	case "i16":
		return int16(binary.LittleEndian.Uint16(b))
	case "u16":
		return binary.LittleEndian.Uint16(b)
	case "i32":
		return int32(binary.LittleEndian.Uint32(b))
	case "u32":
		return binary.LittleEndian.Uint32(b)
	case "i64":
		return int64(binary.LittleEndian.Uint64(b))
	case "u64":
		return binary.LittleEndian.Uint64(b)
	case "f32":
		return jsonFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))))
	case "f64":
		return jsonFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)))
	}
	return fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b))
}

// jsonFloat keeps NaN and infinities representable in JSON (as strings).
func jsonFloat(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return f
}
