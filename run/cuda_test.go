package run

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smsim/smsim/sm"
)

// cudaCase is one entry of testdata/cuda/manifest.json: a kernel compiled
// from CUDA by nvcc, run on an H200, and what it wrote to global memory.
type cudaCase struct {
	Name          string   `json:"name"`
	PTX           string   `json:"ptx"`
	Kernel        string   `json:"kernel"`
	Block         [3]int   `json:"block"`
	Grid          [3]int   `json:"grid"`
	Smem          int      `json:"smem"`
	Args          []string `json:"args"`
	Deterministic bool     `json:"deterministic"`
	Dumps         []struct {
		Param  string `json:"param"`
		Type   string `json:"type"`
		Count  int    `json:"count"`
		Values []any  `json:"values"`
	} `json:"dumps"`
}

// approxSlots names the outputs of a case that come from MUFU approximations
// (rcp/sqrt/ex2/lg2/sin/cos .approx, __fdividef): NVIDIA does not publish the
// unit's tables, so smsim computes them correctly rounded and they may differ
// from the H200 in the last bits. They are compared within a few ulp; every
// other output is compared bit for bit.
type approxSlots struct {
	stride int
	slots  []int // nil: every output
	loose  []int // slots of tanh.approx, whose hardware error is ~2^-11 relative
}

func (a approxSlots) covers(i int) bool {
	if a.slots == nil {
		return true
	}
	for _, s := range a.slots {
		if i%a.stride == s {
			return true
		}
	}
	return false
}

var approximate = map[string]approxSlots{
	// MUFU's sin, cos, lg2 and tanh are evaluated to nearest (warp/mufu.go
	// tables ex2, rcp and rsqrt bit for bit): r[0] __sinf, r[1] __cosf,
	// r[4] __log2f, r[5] __logf, r[9] sqrt.approx, r[10] tanh.approx.
	"mix_mufu_64": {stride: 12, slots: []int{0, 1, 4, 5, 9, 10}, loose: []int{10}},
}

// tolerance is the relative error allowed for output i.
func (a approxSlots) tolerance(i int) float64 {
	for _, s := range a.loose {
		if i%a.stride == s {
			return 0x1p-10
		}
	}
	return 0x1p-20
}

// closeF32 compares two hex-dumped f32 words within a relative error (or an
// absolute error of 2^-21 near zero, where sin/cos approximations are
// specified absolutely).
func closeF32(got, want any, rel float64) bool {
	g, err1 := strconv.ParseUint(strings.TrimPrefix(fmt.Sprint(got), "0x"), 16, 32)
	w, err2 := strconv.ParseUint(strings.TrimPrefix(fmt.Sprint(want), "0x"), 16, 32)
	if err1 != nil || err2 != nil {
		return false
	}
	fg, fw := math.Float32frombits(uint32(g)), math.Float32frombits(uint32(w))
	if math.IsNaN(float64(fg)) || math.IsNaN(float64(fw)) || math.IsInf(float64(fg), 0) || math.IsInf(float64(fw), 0) {
		return g == w
	}
	diff := math.Abs(float64(fg) - float64(fw))
	return diff <= rel*math.Abs(float64(fw)) || diff <= 0x1p-21
}

func loadManifest(t *testing.T) []cudaCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "cuda", "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []cudaCase
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber() // keep integers as written (no float64 rounding or exponent form)
	if err := dec.Decode(&cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestCUDAKernelsMatchTheH200 runs every kernel of testdata/cuda (nvcc's PTX
// of CUDA that computes reductions, scans, completion-function barriers, TMA
// pipelines with checksums, libcu++ code, integer/float/atomic/vote mixes)
// and compares what it leaves in global memory with what the H200 left, bit
// for bit.
func TestCUDAKernelsMatchTheH200(t *testing.T) {
	sources := map[string]*Source{}
	for _, c := range loadManifest(t) {
		t.Run(c.Name, func(t *testing.T) { runCUDACase(t, sources, c.PTX, c) })
	}
}

// runCUDACase runs manifest case c from file (of testdata/cuda: its PTX or
// its SASS) and compares the dumps with the H200's.
func runCUDACase(t *testing.T, sources map[string]*Source, file string, c cudaCase) {
	t.Helper()
	if !c.Deterministic {
		t.Skip("the hardware result depends on thread timing")
	}
	src, ok := sources[file]
	if !ok {
		var err error
		src, err = Load(filepath.Join("..", "testdata", "cuda", file))
		if err != nil {
			t.Fatal(err)
		}
		sources[file] = src
	}
	prog, err := src.Kernel(c.Kernel)
	if err != nil {
		t.Fatal(err)
	}
	j := &Job{Source: src, Prog: prog, Config: sm.DefaultConfig(), Block: c.Block, Grid: c.Grid, Smem: c.Smem,
		Args: c.Args, Launches: 1, MaxCycles: 500_000_000}
	for _, d := range c.Dumps {
		j.Dumps = append(j.Dumps, DumpSpec{Name: d.Param, Type: d.Type, Count: d.Count})
	}
	out, err := Execute(j)
	if err == nil {
		err = out.Err
	}
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	for k, d := range c.Dumps {
		got := out.Dumps[k].Values
		if len(got) != len(d.Values) {
			t.Fatalf("param %s: got %d values, want %d", d.Param, len(got), len(d.Values))
		}
		bad := 0
		for i := range got {
			if ap, ok := approximate[c.Name]; ok && ap.covers(i) && closeF32(got[i], d.Values[i], ap.tolerance(i)) {
				continue
			}
			if fmt.Sprint(got[i]) != fmt.Sprint(d.Values[i]) {
				if bad < 5 {
					t.Errorf("param %s[%d] (%s): got %v, want %v", d.Param, i, d.Type, got[i], d.Values[i])
				}
				bad++
			}
		}
		if bad > 0 {
			t.Errorf("param %s: %d of %d values differ", d.Param, bad, len(got))
		}
	}
}
