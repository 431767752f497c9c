package ptx

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// TestSharedSymbolsIndexByElement: a shared array is indexed by its element
// (a byte array, as nvcc declares C arrays, by its alignment), so reports
// name full[1] rather than full+8; scalars and the dynamic region keep byte
// offsets.
func TestSharedSymbolsIndexByElement(t *testing.T) {
	tests := []struct {
		decl string // declares v
		off  uint64 // an offset into v
		elem uint64
		want string
	}{
		{".shared .align 8 .b8 v[32];", 8, 8, "v[1]"},
		{".shared .align 8 .b8 v[32];", 20, 8, "v[2]+4"},
		{".shared .align 8 .u64 v[4];", 24, 8, "v[3]"},
		{".shared .align 16 .v4 .u32 v[4];", 32, 16, "v[2]"},
		{".shared .align 4 .b8 v[128];", 12, 4, "v[3]"},
		{".shared .align 1 .b8 v[5];", 3, 1, "v[3]"},
		{".shared .align 8 .b8 v[12];", 8, 1, "v[8]"}, // the alignment does not divide the size: bytes
		{".shared .align 8 .u64 v;", 0, 0, "v"},
		{".shared .align 8 .u64 v;", 4, 0, "v+4"},
	}
	for _, tt := range tests {
		t.Run(tt.decl+" +"+itoa(int(tt.off)), func(t *testing.T) {
			src := ".version 8.4\n.target sm_90a\n.address_size 64\n" + tt.decl + `
.visible .entry k()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, v;
	ret;
}
`
			ps, err := Compile("s.ptx", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			var found bool
			for _, y := range ps[0].Symbols {
				if y.Name != "v" {
					continue
				}
				found = true
				if y.Elem != tt.elem || y.At(tt.off) != tt.want {
					t.Errorf("element %d, name at +%d %q; want %d, %q", y.Elem, tt.off, y.At(tt.off), tt.elem, tt.want)
				}
			}
			if !found {
				t.Fatal("no symbol v")
			}
		})
	}
	src := ".version 8.4\n.target sm_90a\n.address_size 64\n.extern .shared .align 16 .b8 smem[];\n" + `
.visible .entry k()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, smem;
	ret;
}
`
	ps, err := Compile("s.ptx", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if y, ok := ps[0].SymbolAt(isa.Shared, 16384); !ok || y.Elem != 0 || y.At(16384) != "smem+16384" {
		t.Errorf("dynamic shared memory: %+v, want smem named by byte offsets", y)
	}
}
