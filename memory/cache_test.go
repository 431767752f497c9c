package memory

import (
	"math/rand/v2"
	"testing"
)

// refWay is a line of refCache: its address, valid sectors and last use.
type refWay struct {
	line  uint64
	mask  uint8
	stamp uint64
	full  bool
}

// refCache is the cache's definition written plainly: a set's ways in
// order, a missing line placed in the first empty way, else in the least
// recently used one.
type refCache struct {
	sets  [][]refWay
	clock uint64
}

func (r *refCache) access(set int, line uint64, mask uint8) uint8 {
	s := r.sets[set]
	for i := range s {
		if s[i].full && s[i].line == line {
			had := s[i].mask & mask
			r.clock++
			s[i].mask |= mask
			s[i].stamp = r.clock
			return had
		}
	}
	victim := -1
	for i := range s {
		if !s[i].full {
			victim = i
			break
		}
	}
	if victim < 0 {
		victim = 0
		for i := range s {
			if s[i].stamp < s[victim].stamp {
				victim = i
			}
		}
	}
	r.clock++
	s[victim] = refWay{line: line, mask: mask, stamp: r.clock, full: mask != 0}
	return 0
}

// TestCacheAccessIsProbeThenFill holds access — a lookup that fills what
// it misses — to refCache over random lines, sectors and drops (which leave
// empty ways between full ones) in a small cache whose sets fill and evict.
func TestCacheAccessIsProbeThenFill(t *testing.T) {
	const ways, sets = 4, 8
	c := newCache(sets*ways*128, 128, ways)
	ref := &refCache{sets: make([][]refWay, sets)}
	for i := range ref.sets {
		ref.sets[i] = make([]refWay, ways)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 200_000; i++ {
		line := uint64(rng.IntN(96))
		set := int(c.index(line))
		if rng.IntN(10) == 0 {
			c.drop(line)
			for k := range ref.sets[set] {
				if w := &ref.sets[set][k]; w.full && w.line == line {
					*w = refWay{}
				}
			}
			continue
		}
		mask := uint8(rng.IntN(16))
		if got, want := c.access(line, mask), ref.access(set, line, mask); got != want {
			t.Fatalf("access %d of line %d, sectors %#x: had %#x, want %#x", i, line, mask, got, want)
		}
		s := c.set(line)
		for k := range s {
			r := ref.sets[set][k]
			if (s[k].tag != 0) != r.full || r.full && (s[k].tag != r.line+1 || s[k].mask() != r.mask) {
				t.Fatalf("access %d: set %d way %d holds %+v, want %+v", i, set, k, s[k], r)
			}
		}
	}
}
