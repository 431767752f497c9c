package memory

import (
	"errors"
	"testing"
)

// Writes materialise pages up to the resident limit; past it a write that
// needs a new page fails with a ResidentError, while pages already written
// stay readable and writable.
func TestWritesPastTheResidentLimitFail(t *testing.T) {
	for _, tc := range []struct {
		name  string
		write func(g *Global, addr uint64) error
	}{
		{"Write", func(g *Global, addr uint64) error { return g.Write(addr, []byte{1, 2, 3, 4}) }},
		{"Store32", func(g *Global, addr uint64) error { return g.Store32(addr, 7) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewGlobal()
			g.maxResident = 3 * pageBytes
			base, err := g.Alloc(16*pageBytes, 0, "buf")
			if err != nil {
				t.Fatal(err)
			}
			for k := uint64(0); k < 3; k++ {
				if err := tc.write(g, base+k*pageBytes); err != nil {
					t.Fatalf("page %d: %v", k, err)
				}
			}
			err = tc.write(g, base+3*pageBytes)
			var re *ResidentError
			if !errors.As(err, &re) || re.Limit != 3*pageBytes {
				t.Fatalf("fourth page: got %v, want a ResidentError", err)
			}
			if err := tc.write(g, base+8); err != nil {
				t.Errorf("a page already written: %v", err)
			}
			if g.Resident() != 3*pageBytes {
				t.Errorf("resident %d, want %d", g.Resident(), 3*pageBytes)
			}
		})
	}
}
