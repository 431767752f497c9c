package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
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

func loadManifest(t *testing.T) []cudaCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "cuda", "manifest.json"))
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
	sources := map[string]*source{}
	for _, c := range loadManifest(t) {
		t.Run(c.Name, func(t *testing.T) {
			if !c.Deterministic {
				t.Skip("the hardware result depends on thread timing")
			}
			src, ok := sources[c.PTX]
			if !ok {
				var err error
				src, err = loadSource(filepath.Join("..", "..", "testdata", "cuda", c.PTX))
				if err != nil {
					t.Fatal(err)
				}
				sources[c.PTX] = src
			}
			prog, err := src.kernel(c.Kernel)
			if err != nil {
				t.Fatal(err)
			}
			j := &job{src: src, prog: prog, cfg: sm.DefaultConfig(), block: c.Block, grid: c.Grid, smem: c.Smem,
				args: c.Args, launches: 1, maxCycles: 500_000_000}
			for _, d := range c.Dumps {
				j.dumps = append(j.dumps, dumpSpec{name: d.Param, typ: d.Type, count: d.Count})
			}
			out, err := execute(j)
			if err == nil {
				err = out.runErr
			}
			if err != nil {
				t.Fatalf("run: %v", err)
			}
			for k, d := range c.Dumps {
				got := out.dumps[k].values
				if len(got) != len(d.Values) {
					t.Fatalf("param %s: got %d values, want %d", d.Param, len(got), len(d.Values))
				}
				bad := 0
				for i := range got {
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
		})
	}
}
