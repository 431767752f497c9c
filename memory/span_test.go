package memory

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// Span lends what Read reads — a written or clean page's bytes, a generated
// or cross-page copy — for every range inside one region that scratch holds,
// and refuses the others without reading; WritableSpan lends one page's
// bytes of one region, and what is written through it Read then reads.
func TestSpanIsWhatReadReads(t *testing.T) {
	g := NewGlobal()
	a, _ := g.Alloc(3*pageBytes, 256, "a")
	b, _ := g.Alloc(100, 256, "b")
	if err := g.SetFill(a, Fill{Kind: FillRandom, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if err := g.Write(a+pageBytes+10, []byte{1, 2, 3}); err != nil { // page 1 written, pages 0 and 2 not
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	scratch := make([]byte, 1024)
	for i := 0; i < 2000; i++ {
		lo := a - 64 + uint64(rng.IntN(3*pageBytes+128))
		hi := lo + uint64(rng.IntN(1200))
		want := make([]byte, hi-lo)
		readErr := g.Read(lo, want)
		got, ok := g.Span(lo, hi, scratch)
		wantOK := readErr == nil && hi > lo && (hi-lo <= uint64(len(scratch)) ||
			(lo/pageBytes == (hi-1)/pageBytes && (g.page(lo/pageBytes) != nil || g.clean[lo/pageBytes] != nil)))
		if ok != wantOK || (ok && !bytes.Equal(got, want)) {
			t.Fatalf("Span(%#x, %#x): ok %v, want %v (Read: %v); bytes equal %v", lo, hi, ok, wantOK, readErr, bytes.Equal(got, want))
		}
	}
	if _, ok := g.Span(b+90, b+110, scratch); ok {
		t.Error("Span past the end of a region was lent")
	}
	if _, ok := g.WritableSpan(a+pageBytes-8, a+pageBytes+8); ok {
		t.Error("WritableSpan across a page boundary was lent")
	}
	w, ok := g.WritableSpan(a+2*pageBytes+4, a+2*pageBytes+8)
	if !ok {
		t.Fatal("WritableSpan inside one page was refused")
	}
	copy(w, []byte{9, 8, 7, 6})
	got := make([]byte, 6)
	_ = g.Read(a+2*pageBytes+3, got)
	fill := make([]byte, 6)
	Fill{Kind: FillRandom, Seed: 3}.Generate(2*pageBytes+3, fill)
	if want := []byte{fill[0], 9, 8, 7, 6, fill[5]}; !bytes.Equal(got, want) {
		t.Errorf("after a write through WritableSpan, Read gives %x, want %x", got, want)
	}
}
