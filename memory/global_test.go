package memory

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/smsim/smsim/isa"
)

func TestSparseStorageRoundTrip(t *testing.T) {
	g := NewGlobal()
	base, err := g.Alloc(256<<20, 0, "big")
	if err != nil {
		t.Fatal(err)
	}
	writes := []struct {
		off  uint64
		data []byte
	}{
		{0, []byte("first page")},
		{pageBytes - 3, []byte("straddles two pages")},
		{200 << 20, []byte{0xde, 0xad, 0xbe, 0xef}},
		{256<<20 - 4, []byte{1, 2, 3, 4}},
	}
	for _, w := range writes {
		if err := g.Write(base+w.off, w.data); err != nil {
			t.Fatalf("write at +%#x: %v", w.off, err)
		}
	}
	for _, w := range writes {
		got := make([]byte, len(w.data))
		if err := g.Read(base+w.off, got); err != nil || !bytes.Equal(got, w.data) {
			t.Errorf("read at +%#x: got %q, %v, want %q", w.off, got, err, w.data)
		}
	}
	if g.Resident() > 5*pageBytes {
		t.Errorf("256 MiB buffer with 4 small writes holds %d bytes of storage, want at most 5 pages", g.Resident())
	}
}

func TestUntouchedMemoryReadsZero(t *testing.T) {
	g := NewGlobal()
	base, _ := g.Alloc(1<<20, 0, "a")
	_ = g.Store32(base+8, 0xffffffff) // touches page 0 only
	got := make([]byte, 64)
	for _, off := range []uint64{12, 64, 500 << 10} {
		if err := g.Read(base+off, got); err != nil {
			t.Fatal(err)
		}
		if !allZero(got) {
			t.Errorf("untouched bytes at +%#x: got %x, want zeros", off, got)
		}
	}
	if v, err := g.Load64(base + 1<<19); err != nil || v != 0 {
		t.Errorf("Load64 of untouched memory: got %#x, %v, want 0", v, err)
	}
}

func TestSizedLoadsAndStores(t *testing.T) {
	g := NewGlobal()
	base, _ := g.Alloc(4096, 0, "a")
	if err := g.Store64(base+16, 0x1122334455667788); err != nil {
		t.Fatal(err)
	}
	if v, _ := g.Load32(base + 16); v != 0x55667788 {
		t.Errorf("low word: got %#x, want 0x55667788", v)
	}
	if v, _ := g.Load32(base + 20); v != 0x11223344 {
		t.Errorf("high word: got %#x, want 0x11223344", v)
	}
	var ae *AccessError
	if _, err := g.Load32(base + 2); !errors.As(err, &ae) || ae.Align != 4 {
		t.Errorf("misaligned Load32: got %v, want an alignment *AccessError", err)
	}
}

func TestAccessErrorNamesNearestRegion(t *testing.T) {
	g := NewGlobal()
	a, _ := g.Alloc(4096, 0, "a")
	b, _ := g.Alloc(4096, 0, "b")
	tests := []struct {
		name     string
		addr     uint64
		size     int
		nearest  string
		distance uint64
		past     bool
		msg      string
	}{
		{"read just past the end of a", a + 4096, 4, "a", 4, true, `4 bytes past the end of buffer "a"`},
		{"read straddling the end of a", a + 4094, 4, "a", 2, true, `2 bytes past the end of buffer "a"`},
		{"read just before b", b - 16, 4, "b", 16, false, `16 bytes before the start of buffer "b"`},
		{"read far past b", b + 1<<20, 8, "b", 1<<20 - 4096 + 8, true, `past the end of buffer "b"`},
		{"null pointer", 0, 4, "a", a, false, `before the start of buffer "a"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := g.Read(tt.addr, make([]byte, tt.size))
			var ae *AccessError
			if !errors.As(err, &ae) {
				t.Fatalf("got %v, want *AccessError", err)
			}
			if ae.Nearest.Name != tt.nearest || ae.Distance != tt.distance || ae.Past != tt.past {
				t.Errorf("got nearest %q distance %d past %v, want %q %d %v",
					ae.Nearest.Name, ae.Distance, ae.Past, tt.nearest, tt.distance, tt.past)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message %q does not contain %q", err, tt.msg)
			}
		})
	}
	if err := NewGlobal().Write(isa.HeapBase, []byte{1}); err == nil || !strings.Contains(err.Error(), "no global memory is allocated") {
		t.Errorf("write with nothing allocated: got %v", err)
	}
}

func TestAllocPolicy(t *testing.T) {
	g := NewGlobal()
	small, _ := g.Alloc(100, 0, "small")
	odd, _ := g.Alloc(10, 64, "odd")
	big, _ := g.Alloc(3<<20, 0, "big")
	if small != isa.HeapBase {
		t.Errorf("first buffer at %#x, want isa.HeapBase %#x", small, isa.HeapBase)
	}
	if odd < small+100+guardBytes {
		t.Errorf("second buffer at %#x leaves no guard gap after the first (ends %#x)", odd, small+100)
	}
	if big%largeAlign != 0 {
		t.Errorf("3 MiB buffer at %#x is not 2 MiB aligned", big)
	}
	if r, ok := g.Lookup(odd + 5); !ok || r.Name != "odd" || r.Size != 10 {
		t.Errorf("Lookup: got %v %v, want odd of 10 bytes", r, ok)
	}
	if _, ok := g.Lookup(odd + 10); ok {
		t.Error("Lookup found a region one byte past the end")
	}
	if n := len(g.Regions()); n != 3 || g.Allocated() != 100+10+3<<20 {
		t.Errorf("got %d regions totalling %d bytes", n, g.Allocated())
	}
}

func TestAllocRefusals(t *testing.T) {
	tests := []struct {
		name        string
		size, align uint64
		msg         string
	}{
		{"zero size", 0, 0, "size 0"},
		{"alignment not a power of two", 64, 48, "not a power of two"},
		{"absurd size", 65 << 30, 0, "64 GiB limit"},
		{"wrapping size", ^uint64(0) - 8, 0, "64 GiB limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewGlobal().Alloc(tt.size, tt.align, "x")
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got %v, want an error containing %q", err, tt.msg)
			}
		})
	}
	g := NewGlobal()
	if _, err := g.Alloc(40<<30, 0, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.Alloc(30<<30, 0, "b"); err == nil || !strings.Contains(err.Error(), "total") {
		t.Errorf("second allocation over the total limit: got %v", err)
	}
}

func TestMapData(t *testing.T) {
	g := NewGlobal()
	init := make([]byte, 3*pageBytes)
	init[5] = 7
	init[2*pageBytes+1] = 9
	if err := g.MapData(isa.GlobalDataBase, init, "table"); err != nil {
		t.Fatal(err)
	}
	if g.Resident() != 2*pageBytes {
		t.Errorf("all-zero page of module data was stored: resident %d, want %d", g.Resident(), 2*pageBytes)
	}
	got := make([]byte, len(init))
	if err := g.Read(isa.GlobalDataBase, got); err != nil || !bytes.Equal(got, init) {
		t.Errorf("module data does not read back: %v", err)
	}
	if err := g.MapData(isa.GlobalDataBase+8, []byte{1}, "clash"); err == nil || !strings.Contains(err.Error(), "overlaps") {
		t.Errorf("overlapping data: got %v", err)
	}
}
