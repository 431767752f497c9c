package memory

import "math/bits"

// l2 is the L2 of a GPU: Partitions parts (gpu.l2_partitions), each a
// hashed cache of L2Bytes / Partitions. Every line has a home partition, by
// a hash of its address (home), where writes land; every SM is attached to
// one partition, its near one (Hierarchy.SetPartition). A read finds a line
// in the near partition at the L2 round trip; a line only at its home in
// another partition costs L2FarCycles more, the hop between partitions, and
// leaves a copy in the near partition, so the next read from that side is
// near. Measured on the H200 (calibration/h200/l2near.csv): one thread's
// chase of L2-resident lines takes about 350 cycles a load for three lines
// in four and about 528 for the fourth after every SM wrote them (a line's
// home is the far partition for half of them, and half of those were
// written from the far side), every line about 350 on the next chase from
// that SM or from any SM of its side, and half of them 528 again from an SM
// of the other side; a read from DRAM likewise takes about 619 or 802.
// The SMs split evenly between the partitions (66 each).
type l2 struct {
	parts []cache
}

func newL2(cfg Config) *l2 {
	n := max(cfg.L2Partitions, 1)
	c := &l2{parts: make([]cache, n)}
	for i := range c.parts {
		c.parts[i] = newHashedCache(cfg.L2Bytes/n, cfg.LineBytes, cfg.L2Ways)
	}
	return c
}

// homeBits are the line-index bits whose parity picks a line's home of
// two partitions: address bits 12, 13, 15, 17 and 19 within a 2 MiB page,
// and the page's own bits from 21 up. Measured (calibration/h200/
// l2near.csv dramline rows: which of 1,817 lines of 8 MiB came from DRAM at
// 619 cycles or at 802): within each of the four pages that parity of bits
// 12-19 gives every line's side but 5 to 14 of 430-500 (the timing's
// noise), and the pages' own parities (0, 1, 1, 0) are those of their
// indices' bits 21 and 22. So a 4 KiB block's lines share a home, and the
// blocks alternate.
const homeBits = 1<<5 | 1<<6 | 1<<8 | 1<<10 | 1<<12 | ^uint64(1<<14-1)

// home is the partition that holds line (a line index) when only one does.
func (c *l2) home(line uint64) int {
	switch n := uint64(len(c.parts)); n {
	case 1:
		return 0
	case 2:
		return bits.OnesCount64(line&homeBits) & 1
	default:
		return int(mix64(line/32) % n) // no measurement for more: whole 4 KiB blocks, spread
	}
}

// read looks up the sectors mask of line for a read from an SM near
// partition near. It returns the sectors no partition held (read from DRAM
// through the line's home) and whether the read crossed to the home
// partition (some sector was not near). The near partition ends up holding
// the sectors, the home the ones DRAM supplied.
func (c *l2) read(line uint64, mask uint8, near int) (miss uint8, far bool) {
	rest := mask &^ c.parts[near].access(line, mask)
	if rest == 0 {
		return 0, false
	}
	if h := c.home(line); h != near {
		return rest &^ c.parts[h].access(line, rest), true
	}
	return rest, false
}

// write lands the sectors mask of line, written from an SM near partition
// near: at the line's home, and in the near partition, and in no other
// (their copies are stale). It reports the sectors the home did not hold
// and whether the home is another partition than near.
func (c *l2) write(line uint64, mask uint8, near int) (miss uint8, far bool) {
	h := c.home(line)
	miss = mask &^ c.parts[h].access(line, mask)
	if h != near {
		c.parts[near].fill(line, mask)
	}
	for p := range c.parts {
		if p != h && p != near {
			c.parts[p].drop(line)
		}
	}
	return miss, h != near
}

// host lands a line the host wrote (a copy engine's write, which no SM's
// side sees): at its home alone.
func (c *l2) host(line uint64, mask uint8) {
	h := c.home(line)
	c.parts[h].fill(line, mask)
	for p := range c.parts {
		if p != h {
			c.parts[p].drop(line)
		}
	}
}

// clear empties every partition.
func (c *l2) clear() {
	for i := range c.parts {
		c.parts[i].clear()
	}
}
