package memory

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// Clean pages read as their fills whatever happens around them: random
// spans (each page kept on its second read) checked against the fill's
// own bytes, through writes that take a clean page over, a SetFill that
// changes a buffer's fill, and a data region mapped into a page already
// kept; no clean page counts as resident.
func TestCleanPagesReadAsTheirFills(t *testing.T) {
	g := NewGlobal()
	a, _ := g.Alloc(6*pageBytes, 256, "a")
	fills := map[uint64]Fill{a: {Kind: FillF32Rand, Seed: 7}}
	if err := g.SetFill(a, fills[a]); err != nil {
		t.Fatal(err)
	}
	shadow := make([]byte, 6*pageBytes) // what a holds
	fills[a].Generate(0, shadow)
	rng := rand.New(rand.NewPCG(3, 4))
	scratch := make([]byte, 1024)
	check := func(step int) {
		t.Helper()
		for k := 0; k < 50; k++ {
			lo := a + uint64(rng.IntN(6*pageBytes-8))
			hi := min(lo+1+uint64(rng.IntN(600)), a+6*pageBytes)
			got, ok := g.Span(lo, hi, scratch)
			if !ok || !bytes.Equal(got, shadow[lo-a:hi-a]) {
				t.Fatalf("step %d: Span(%#x, %#x) ok %v, not the buffer's bytes", step, lo, hi, ok)
			}
		}
	}
	for step := 0; step < 40; step++ {
		check(step)
		switch step % 4 {
		case 1: // a write into a page, kept or not
			at := uint64(rng.IntN(6*pageBytes - 16))
			b := []byte{byte(step), 1, 2, 3, 4, 5, 6, 7}
			if err := g.Write(a+at, b); err != nil {
				t.Fatal(err)
			}
			copy(shadow[at:], b)
		case 3: // a new fill: everything written before is gone
			f := Fill{Kind: FillRandom, Seed: uint64(step)}
			if err := g.SetFill(a, f); err != nil {
				t.Fatal(err)
			}
			f.Generate(0, shadow)
		}
	}
	if g.Resident() != 0 {
		t.Errorf("%d bytes resident after the last SetFill, want 0", g.Resident())
	}

	// A region mapped into a page kept clean reads its own bytes there.
	base := a + 7*pageBytes // past a's end, in its guard gap
	data := []byte{1, 2, 3, 4, 5, 6, 7, 8}
	for i := 0; i < 2; i++ {
		g.Span(a+6*pageBytes-16, a+6*pageBytes, scratch)
	}
	if err := g.MapData(base+100, data, "d"); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if got, ok := g.Span(base+100, base+108, scratch); !ok || !bytes.Equal(got, data) {
			t.Fatalf("read %d of the mapped data: %x, %v; want %x", i, got, ok, data)
		}
	}
}
