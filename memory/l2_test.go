package memory

import "testing"

// TestL2HomesSpreadLines: consecutive lines have their homes in both L2
// partitions, about half each.
func TestL2HomesSpreadLines(t *testing.T) {
	c := newL2(DefaultConfig())
	var n [2]int
	for line := uint64(0); line < 4096; line++ {
		n[c.home(line)]++
	}
	if n[0] < 1800 || n[1] < 1800 {
		t.Errorf("home counts %v of 4096 lines", n)
	}
}

// TestL2CopiesFollowReadsAndWrites: which partitions hold a line after each
// kind of access, and which reads cross (l2.go; l2near.csv's first, seq and
// after rows): a read from a side that lacks the line crosses once and
// leaves a copy there; a write leaves the line at its home and the writer's
// side and takes it from the other; the host's write leaves it at home.
func TestL2CopiesFollowReadsAndWrites(t *testing.T) {
	c := newL2(DefaultConfig())
	var l uint64 // a line whose home is partition 1
	for c.home(l) != 1 {
		l++
	}
	full := uint8(0xf)
	held := func() [2]bool { return [2]bool{c.parts[0].probe(l, full) != 0, c.parts[1].probe(l, full) != 0} }
	type step struct {
		name  string
		do    func() (uint8, bool)
		miss  uint8
		far   bool
		after [2]bool
	}
	for _, s := range []step{
		{"a read from side 0 of a line nowhere", func() (uint8, bool) { return c.read(l, full, 0) }, full, true, [2]bool{true, true}},
		{"the read again", func() (uint8, bool) { return c.read(l, full, 0) }, 0, false, [2]bool{true, true}},
		{"a read from its home's side", func() (uint8, bool) { return c.read(l, full, 1) }, 0, false, [2]bool{true, true}},
		{"the host's write", func() (uint8, bool) { c.host(l, full); return 0, false }, 0, false, [2]bool{false, true}},
		{"a read from side 0 after it", func() (uint8, bool) { return c.read(l, full, 0) }, 0, true, [2]bool{true, true}},
		{"a write from side 1, its home", func() (uint8, bool) { return c.write(l, full, 1) }, 0, false, [2]bool{false, true}},
		{"a write from side 0", func() (uint8, bool) { return c.write(l, full, 0) }, 0, true, [2]bool{true, true}},
	} {
		miss, far := s.do()
		if miss != s.miss || far != s.far {
			t.Errorf("%s: miss %#x far %v, want %#x %v", s.name, miss, far, s.miss, s.far)
		}
		if got := held(); got != s.after {
			t.Errorf("%s: partitions holding the line %v, want %v", s.name, got, s.after)
		}
	}
}
