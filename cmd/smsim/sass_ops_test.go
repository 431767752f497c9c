package main

import (
	"fmt"
	"math"
	"path/filepath"
	"testing"

	"github.com/smsim/smsim/sm"
)

// TestHandWrittenSASSRuns runs testdata/sass/ops.sass, a listing written by
// hand (no cubin, no encodings) around the SASS forms the corpus's runs do
// not reach: ATOMS.CAST.SPIN (the fall-back loop of generic 64-bit
// atomics), QSPC, P2R, BMOV of a convergence barrier, VOTE.EQ.
func TestHandWrittenSASSRuns(t *testing.T) {
	src, err := loadSource(filepath.Join("testdata", "sass", "ops.sass"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := src.kernel("ops")
	if err != nil {
		t.Fatal(err)
	}
	j := &job{src: src, prog: prog, cfg: sm.DefaultConfig(), block: [3]int{1, 1, 1}, grid: [3]int{1, 1, 1}, smem: 16,
		args: []string{"buf:64"}, launches: 1, maxCycles: 1_000_000, dumps: []dumpSpec{{name: "0", typ: "u32", count: 6}}}
	out, err := execute(j)
	if err == nil {
		err = out.runErr
	}
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(out.dumps[0].values)
	// CAST stores once (1) and then fails (0); memory holds 9; P0 (shared)
	// set, P1 (global) clear; B1 held lane 0; VOTE.EQ of one lane holds.
	if want := "[1 0 9 1 1 1]"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestSASSDivisionAndRootsAreCorrectlyRounded runs the SASS of
// testdata/cuda's mix_float on 2048 threads of random bit patterns (NaN,
// infinities, subnormals among them) and checks the IEEE results the H200
// computes exactly against the host: x / y (div.rn.f32: MUFU.RCP, FFMA
// refinement, FCHK and the slow subroutine it calls), 1/y (rcp.rn.f32) and
// sqrtf(|x|).
func TestSASSDivisionAndRootsAreCorrectlyRounded(t *testing.T) {
	src, err := loadSource(filepath.Join("..", "..", "testdata", "cuda", "isa_mix.sass"))
	if err != nil {
		t.Fatal(err)
	}
	prog, err := src.kernel("mix_float")
	if err != nil {
		t.Fatal(err)
	}
	const threads = 2048
	j := &job{src: src, prog: prog, cfg: sm.DefaultConfig(), block: [3]int{64, 1, 1}, grid: [3]int{threads / 64, 1, 1},
		args: []string{"buf:16384:random:77", "1", fmt.Sprintf("buf:%d", threads*48*4)}, launches: 1, maxCycles: 100_000_000,
		dumps: []dumpSpec{{name: "0", typ: "u32", count: 2 * threads}, {name: "2", typ: "u32", count: 48 * threads}}}
	out, err := execute(j)
	if err == nil {
		err = out.runErr
	}
	if err != nil {
		t.Fatal(err)
	}
	word := func(d int, i int) uint32 { return out.dumps[d].values[i].(uint32) }
	same := func(got uint32, want float32) bool {
		if want != want {
			return got == 0x7fffffff // NVIDIA's canonical NaN
		}
		return got == math.Float32bits(want)
	}
	bad := 0
	for g := 0; g < threads; g++ {
		x, y := math.Float32frombits(word(0, 2*g)), math.Float32frombits(word(0, 2*g+1))
		r := func(k int) uint32 { return word(1, 48*g+k) }
		checks := []struct {
			what string
			k    int
			want float32
		}{
			{"x/y", 4, float32(float64(x) / float64(y))},
			{"1/y", 6, float32(1 / float64(y))},
			{"sqrt|x|", 7, float32(math.Sqrt(math.Abs(float64(x))))},
		}
		for _, c := range checks {
			if !same(r(c.k), c.want) && bad < 10 {
				bad++
				t.Errorf("thread %d: %s of x=%#x y=%#x: got %#x, want %#x", g, c.what, math.Float32bits(x), math.Float32bits(y),
					r(c.k), math.Float32bits(c.want))
			}
		}
	}
}
