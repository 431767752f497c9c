package run

import (
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
)

// FuzzArgs feeds arbitrary --arg, --dump, --symbol, --block and size
// spellings to the argument parsers: they must never panic, and a rejected
// value is a clear one-line error.
func FuzzArgs(f *testing.F) {
	for _, s := range []string{"buf:4096:seq", "buf:64KiB:random:7", "buf:3:f16int:9", "buf:5:e4m3int:2", "buf:1:byte:0x3f", "42", "-1", "0x10", "1.5e3",
		"tensormap:f16,64x64,box=64x64", "tensormap:f16,512x128,box=64x128,swizzle=128B,fill=f16int:1", "tensormap:f32,100x3,box=8x3,stride=4096,oob=nan,fill=seq",
		"tensormap:bf16,4096x8192,box=64x64,swizzle=128B,buf=p0", "buf:99999999999999", "buf:0", "buf:16:file:/nonexistent",
		"N=3", "p0=buf:8", "out:i64:4", "x:hex", "32,4,1", "1,1,1,1", "ctab=random:7", "g=file:t.bin", "a==seq", ""} {
		f.Add(s)
	}
	prog := &isa.Program{Name: "k", Params: []isa.Param{
		{Name: "p0", Type: isa.U64, Size: 8, Align: 8, Offset: 0},
		{Name: "n", Type: isa.S32, Size: 4, Align: 4, Offset: 8},
		{Name: "f", Type: isa.F32, Size: 4, Align: 4, Offset: 12},
		{Name: "map", Type: isa.B8, Size: 128, Align: 64, Offset: 64},
	}, ParamBytes: 192}
	f.Fuzz(func(t *testing.T, s string) {
		gm := memory.NewGlobal()
		for _, args := range [][]string{{s}, {"buf:64", s}, {"buf:64", "1", s}, {"buf:64", "1", "2.5", s}, {"p0=" + s}} {
			if _, err := BuildParams(prog, args, gm); err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("BuildParams(%q): multi-line error %q", args, err)
			}
		}
		if _, err := ParseDump(s); err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseDump(%q): multi-line error", s)
		}
		if sf, err := ParseSymbolFill(s); err != nil && strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseSymbolFill(%q): multi-line error", s)
		} else if err == nil && (sf.Name == "" || sf.Fill == "" || strings.Contains(sf.Name, "=")) {
			t.Errorf("ParseSymbolFill(%q) = %+v: want a name without = and a fill", s, sf)
		}
		_, _ = parseSize(s)
		_, _ = Dims("--block", s, [3]int{}, 32)
	})
}
