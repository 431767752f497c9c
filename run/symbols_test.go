package run

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smsim/smsim/memory"
)

// writeWords writes little-endian 32-bit words to a file of the test's.
func writeWords(t *testing.T, name string, ws ...uint32) string {
	t.Helper()
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// brx_probe's mode 2 multiplies by two __constant__ tables the host fills
// with cudaMemcpyToSymbol (testdata/cuda/branch/brx_probe.cu). Filled with
// --symbol from files of the host's values, its result is the H200's bit
// for bit, from PTX (the variables in global memory) and from SASS (bank
// 3); left empty (zeros) it is not.
func TestSymbolFillsAConstantTable(t *testing.T) {
	mul := writeWords(t, "kmul.bin", 3, 5, 7, 9, 11, 13, 15, 17)
	add := writeWords(t, "kadd.bin", 1, 7, 3, 5, 9, 11, 13, 15)
	const h200 = 4114453967 // brx_probe.csv, mode 2
	for _, ext := range []string{"ptx", "sass"} {
		for _, filled := range []bool{true, false} {
			spec := Spec{Kernel: "brx_probe", Block: "32", Grid: "1", Launches: 1, Config: "h200",
				Args: []string{"2", "12345", "buf:8", "buf:4"}}
			if filled {
				spec.Symbols = []string{"kmul=file:" + mul, "kadd=file:" + add}
			}
			x := binary.LittleEndian.Uint32(runBuffer(t, spec, "../testdata/cuda/branch/brx_probe."+ext, "3", 4))
			if (x == h200) != filled {
				t.Errorf("%s, tables filled %v: x = %d, the H200's %d", ext, filled, x, uint32(h200))
			}
		}
	}
}

// symbolKernel copies a module .global array and a .const array, a word a
// thread, to out.
const symbolKernel = ptxHead + `
.global .align 4 .u32 gtab[4];
.const .align 4 .u32 ctab[4] = {9, 9, 9, 9};
.visible .entry copy(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	mov.u64 %rd3, gtab;
	add.u64 %rd4, %rd3, %rd2;
	ld.global.u32 %r2, [%rd4];
	mov.u64 %rd5, ctab;
	add.u64 %rd5, %rd5, %rd2;
	ld.const.u32 %r3, [%rd5];
	add.u64 %rd6, %rd1, %rd2;
	st.global.u32 [%rd6], %r2;
	st.global.u32 [%rd6+16], %r3;
	ret;
}
`

// Each fill reaches the variable it names, whole, in both spaces, over an
// initializer too; the other variable keeps its own contents.
func TestSymbolFillsEachSpace(t *testing.T) {
	file := writeWords(t, "two.bin", 70, 71)
	random := make([]byte, 16)
	memory.Fill{Kind: memory.FillRandom, Seed: 7}.Generate(0, random)
	rw := func(i int) uint32 { return binary.LittleEndian.Uint32(random[4*i:]) }
	for _, c := range []struct {
		name    string
		symbols []string
		want    [8]uint32
	}{
		{"none", nil, [8]uint32{0, 0, 0, 0, 9, 9, 9, 9}},
		{"global seq", []string{"gtab=seq"}, [8]uint32{0, 1, 2, 3, 9, 9, 9, 9}},
		{"const over its initializer", []string{"ctab=byte:0x01"}, [8]uint32{0, 0, 0, 0, 0x01010101, 0x01010101, 0x01010101, 0x01010101}},
		{"random", []string{"gtab=random:7"}, [8]uint32{rw(0), rw(1), rw(2), rw(3), 9, 9, 9, 9}},
		{"a shorter file fills the start", []string{"ctab=file:" + file}, [8]uint32{0, 0, 0, 0, 70, 71, 0, 0}},
		{"both, the last of a name wins", []string{"gtab=seq", "ctab=zero", "gtab=byte:2"}, [8]uint32{0x02020202, 0x02020202, 0x02020202, 0x02020202, 0, 0, 0, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			j := gpuJob(t, symbolKernel, Spec{Kernel: "copy", Block: "4", Args: []string{"buf:32"}})
			for _, s := range c.symbols {
				sf, err := ParseSymbolFill(s)
				if err != nil {
					t.Fatal(err)
				}
				j.Symbols = append(j.Symbols, sf)
			}
			j.Dumps = []DumpSpec{{Name: "out", Type: "u32", Count: 8}}
			out, err := Execute(j)
			if err == nil {
				err = out.Err
			}
			if err != nil {
				t.Fatal(err)
			}
			b := out.Params.Bufs["out"]
			got := make([]byte, 32)
			if err := out.Global.Read(b.Addr, got); err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				if w := binary.LittleEndian.Uint32(got[4*i:]); w != c.want[i] {
					t.Errorf("word %d = %#x, want %#x", i, w, c.want[i])
				}
			}
		})
	}
}

// A --symbol that cannot be applied ends in one message that says why:
// usage errors for what the command line spells wrong, input errors for a
// file that cannot fill the variable.
func TestSymbolFillErrors(t *testing.T) {
	big := writeWords(t, "big.bin", 1, 2, 3, 4, 5)
	for _, c := range []struct {
		symbol string
		usage  bool
		want   string
	}{
		{"gtab", true, "want NAME=FILL"},
		{"=seq", true, "want NAME=FILL"},
		{"gtab=", true, "want NAME=FILL"},
		{"gtab=file:", true, "file: needs a path"},
		{"gtab=bogus", true, `fill "bogus"`},
		{"nosuch=seq", true, "not a module-scope variable of kernel copy's file (it has ctab, gtab)"},
		{"gtab=file:" + big, false, "bytes"},
		{"gtab=file:" + filepath.Join(t.TempDir(), "missing.bin"), false, "missing.bin"},
	} {
		t.Run(c.symbol, func(t *testing.T) {
			_, err := gpuJobErr(symbolKernel, Spec{Kernel: "copy", Block: "4", Args: []string{"buf:32"}, Symbols: []string{c.symbol}})
			if err == nil {
				t.Fatal("no error")
			}
			var u *UsageError
			if errors.As(err, &u) != c.usage {
				t.Errorf("%T %v: want a usage error %v", err, err, c.usage)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("%v: want it to say %q", err, c.want)
			}
		})
	}
}

// gpuJobErr is gpuJob's path for a spec that may be refused: the job's
// making and its execution, whichever fails first.
func gpuJobErr(src string, f Spec) (*Outcome, error) {
	dir, err := os.MkdirTemp("", "symbols")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "k.ptx")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		return nil, err
	}
	f.Config, f.Launches = "h200", 1
	j, err := f.Job(p)
	if err != nil {
		return nil, err
	}
	return Execute(j)
}
