package memory

// cache is a set-associative, sectored, LRU tag store (no data: contents
// live in Global). Sets are allocated on first use, chunkSets at a time, so
// a 60 MiB L2 of which one SM touches a few lines costs a few chunks; fully
// used it costs 16 bytes per line (under 8 MiB for 60 MiB of 128-byte
// lines).
type cache struct {
	chunks [][]way // chunkSets sets of ways each, nil until a line maps to one
	nsets  int
	ways   int
	clock  uint64 // LRU stamp source
	hashed bool   // sets chosen by a hash of the line address (index)
}

// chunkSets is how many sets are allocated together.
const chunkSets = 16

// way is one line of a set: 16 bytes, so that a 16-way set spans four of
// the host's cache lines (a streaming kernel's every access scans a set
// no earlier access brought in).
type way struct {
	tag  uint64 // line address (byte address / LineBytes) + 1; 0: the way is empty
	meta uint64 // LRU stamp (larger is more recent) << 8 | valid sectors
}

// newWay is line holding sectors mask, used at stamp (empty without sectors).
func newWay(line uint64, stamp uint64, mask uint8) way {
	if mask == 0 {
		return way{}
	}
	return way{tag: line + 1, meta: stamp<<8 | uint64(mask)}
}

func (w *way) mask() uint8  { return uint8(w.meta) }
func (w *way) used() uint64 { return w.meta >> 8 }

// touch makes w most recently used at stamp, adding sectors mask.
func (w *way) touch(stamp uint64, mask uint8) { w.meta = stamp<<8 | (w.meta|uint64(mask))&0xff }

func newCache(bytes, lineBytes, ways int) cache {
	n := bytes / lineBytes / ways
	return cache{chunks: make([][]way, (n+chunkSets-1)/chunkSets), nsets: n, ways: ways}
}

// newHashedCache is newCache whose sets are chosen by hashedIndex.
func newHashedCache(bytes, lineBytes, ways int) cache {
	c := newCache(bytes, lineBytes, ways)
	c.hashed = true
	return c
}

// hashChunkLines is how many consecutive lines keep consecutive sets in a
// hashed cache: an aligned chunk of 16 lines (2 KiB).
const hashChunkLines = 16

// index is the set of line. A plain cache takes the line address modulo
// the sets. A hashed one first XORs it with a hash of its chunk's address,
// as the L2 spreads addresses over its slices and sets: a power-of-two
// stride then reaches every set, where modulo indexing puts a 64 KiB
// stride in 30 of the L2's 15,360 (calibration/h200/dramline.csv: 512
// lines 64 KiB apart stay L2 hits on the H200, 454 cycles a round of 16
// against 449 for consecutive lines). The lines of a chunk stay in
// distinct sets.
func (c *cache) index(line uint64) uint64 {
	if c.hashed {
		line ^= mix64(line/hashChunkLines) &^ (hashChunkLines - 1)
	}
	return line % uint64(c.nsets)
}

// mix64 is the finaliser of SplitMix64: a bijective hash of x.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// setAt returns the ways of set i, or nil while its chunk is unused.
func (c *cache) setAt(i uint64) []way {
	ch := c.chunks[i/chunkSets]
	if ch == nil {
		return nil
	}
	o := int(i%chunkSets) * c.ways
	return ch[o : o+c.ways : o+c.ways]
}

// set returns the ways of line's set, allocating its chunk on first use.
func (c *cache) set(line uint64) []way {
	i := c.index(line)
	if c.chunks[i/chunkSets] == nil {
		c.chunks[i/chunkSets] = make([]way, chunkSets*c.ways)
	}
	return c.setAt(i)
}

// probe returns the subset of want that is valid for line, and refreshes
// the line's LRU stamp when any of it is.
func (c *cache) probe(line uint64, want uint8) uint8 {
	s := c.setAt(c.index(line))
	for i := range s {
		w := &s[i]
		if w.tag == line+1 {
			if hit := w.mask() & want; hit != 0 {
				c.clock++
				w.touch(c.clock, 0)
				return hit
			}
			return 0
		}
	}
	return 0
}

// access is probe then fill of the same sectors in one pass over the set:
// it marks sectors mask of line valid and most recently used and returns
// those of them that were valid before.
func (c *cache) access(line uint64, mask uint8) (had uint8) {
	s := c.set(line)
	for i := range s {
		if w := &s[i]; w.tag == line+1 {
			had = w.mask() & mask
			c.clock++
			w.touch(c.clock, mask)
			return had
		}
	}
	c.clock++
	s[victimWay(s)] = newWay(line, c.clock, mask)
	return 0
}

// victimWay is the way of set s a missing line takes: the first empty way,
// else the least recently used (the first of them, were two equal).
func victimWay(s []way) int {
	victim := 0
	for i := range s {
		if s[i].tag == 0 {
			return i
		}
		if s[i].meta < s[victim].meta {
			victim = i
		}
	}
	return victim
}

// fill marks sectors mask of line valid and most recently used. When the
// line is not present it takes an empty way, or else evicts the least
// recently used line of the set; evicted reports the latter.
func (c *cache) fill(line uint64, mask uint8) (evicted bool) {
	s := c.set(line)
	victim := -1
	for i := range s {
		if w := &s[i]; w.tag == line+1 {
			victim, mask = i, mask|w.mask()
			break
		}
	}
	if victim < 0 {
		victim = 0
		for i := range s {
			if s[i].tag == 0 {
				victim = i
				break
			}
			if s[i].used() < s[victim].used() {
				victim = i
			}
		}
		evicted = s[victim].tag != 0
	}
	c.clock++
	s[victim] = newWay(line, c.clock, mask)
	return evicted
}

// drop removes line, if present.
func (c *cache) drop(line uint64) {
	if w := c.way(line); w != nil {
		*w = way{}
	}
}

// way returns line's way, or nil when the line is not present.
func (c *cache) way(line uint64) *way {
	s := c.setAt(c.index(line))
	for i := range s {
		if w := &s[i]; w.tag == line+1 {
			return w
		}
	}
	return nil
}

// clear empties the cache (keeping the allocated sets).
func (c *cache) clear() {
	for _, ch := range c.chunks {
		clear(ch)
	}
}

// tlb is a fully associative LRU translation cache of page numbers.
type tlb struct {
	page  []uint64 // page number + 1; 0: empty
	used  []uint64
	clock uint64
	last  int // entry of the last hit
}

func newTLB(entries int) tlb {
	return tlb{page: make([]uint64, entries), used: make([]uint64, entries)}
}

// access looks up page number p, installs it on a miss, and reports a hit.
func (t *tlb) access(p uint64) bool {
	t.clock++
	key := p + 1
	if t.page[t.last] == key {
		t.used[t.last] = t.clock
		return true
	}
	victim := 0
	for i, k := range t.page {
		if k == key {
			t.used[i], t.last = t.clock, i
			return true
		}
		if t.used[i] < t.used[victim] {
			victim = i
		}
	}
	t.page[victim], t.used[victim], t.last = key, t.clock, victim
	return false
}
