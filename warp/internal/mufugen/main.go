// Command mufugen makes warp's MUFU tables (warp/mufu/*.tbl) from the output
// of calibration/h200/mufu.cu run on an H200: for each table, the results
// the hardware returned on a grid of inputs, reconstructed from the
// program's per-input differences against the correctly rounded result
// (the host's double-precision libm, rounded once to float: Go's math
// gives the same float for every input of these grids), then stored as
// the first value and the grid's successive differences, two bits each
// (the tables are monotonic with steps of 0-3 units in the last place),
// compressed. It also copies the first 16384 random samples of each
// function as test data.
//
// Usage: go run ./warp/internal/mufugen DIR   (DIR: where mufu ran)
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
)

const n23 = 1 << 23

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mufugen DIR")
		os.Exit(2)
	}
	dir := os.Args[1]
	ref32 := func(x float64) uint32 { return math.Float32bits(float32(x)) }
	grids := []struct {
		out, in string
		n       int
		x       func(k int) float64
		f       func(x float64) float64
	}{
		{"ex2_pos", "ex2_pos.i8", n23, func(k int) float64 { return float64(float32(k) / n23) }, math.Exp2},
		{"ex2_neg", "ex2_neg.i8", n23, func(k int) float64 { return float64(-float32(k+1) / n23) }, math.Exp2},
		{"rcp", "rcp.i8", n23, func(k int) float64 { return float64(1 + float32(k)/n23) }, func(x float64) float64 { return 1 / x }},
		{"rsq", "rsq.i8", 2 * n23, func(k int) float64 {
			if k < n23 {
				return float64(1 + float32(k)/n23)
			}
			return float64(2 + float32(k-n23)/(n23/2))
		}, func(x float64) float64 { return 1 / math.Sqrt(x) }},
	}
	for _, g := range grids {
		d, err := os.ReadFile(filepath.Join(dir, g.in))
		check(err)
		if len(d) != g.n {
			check(fmt.Errorf("%s: %d bytes, want %d", g.in, len(d), g.n))
		}
		v := make([]uint32, g.n)
		for k := range v {
			if int8(d[k]) == -128 {
				check(fmt.Errorf("%s[%d]: the hardware is 128 or more units from the correctly rounded result", g.in, k))
			}
			v[k] = ref32(g.f(g.x(k))) + uint32(int32(int8(d[k])))
		}
		check(os.WriteFile(filepath.Join("warp", "mufu", g.out+".tbl"), pack(v), 0o644))
	}
	for _, name := range []string{"ex2", "ex2s", "rcp", "rsq"} {
		b, err := os.ReadFile(filepath.Join(dir, name+".rnd"))
		check(err)
		check(os.WriteFile(filepath.Join("warp", "testdata", "mufu", name+".rnd"), b[:8*16384], 0o644))
	}
}

// pack stores v as its first value, a direction byte (0 rising, 1
// falling) and the absolute steps, two bits each, gzip-compressed.
func pack(v []uint32) []byte {
	var raw bytes.Buffer
	binary.Write(&raw, binary.LittleEndian, uint32(len(v)))
	binary.Write(&raw, binary.LittleEndian, v[0])
	falling := v[len(v)-1] < v[0]
	if falling {
		raw.WriteByte(1)
	} else {
		raw.WriteByte(0)
	}
	steps := make([]byte, (len(v)-1+3)/4)
	for k := 1; k < len(v); k++ {
		s := int64(v[k]) - int64(v[k-1])
		if falling {
			s = -s
		}
		if s < 0 || s > 3 {
			check(fmt.Errorf("step %d at %d does not fit two bits", s, k))
		}
		steps[(k-1)/4] |= byte(s) << (2 * ((k - 1) % 4))
	}
	raw.Write(steps)
	var out bytes.Buffer
	w, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	w.Write(raw.Bytes())
	check(w.Close())
	return out.Bytes()
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mufugen:", err)
		os.Exit(1)
	}
}
