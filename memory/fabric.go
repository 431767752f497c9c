package memory

import "github.com/smsim/smsim/sim"

// fabric is what the SMs of one GPU share past their own links: the L2's
// partitions, each serving its share of the lines at GPUL2BytesPerCycle /
// L2Partitions, and DRAM at GPUDRAMBytesPerCycle. Every L2 access of every
// SM (a load's L1 miss, an L1-bypassing load, a store, a bulk copy's sectors)
// takes its bytes' turn at the partition that serves it (the SM's near one,
// or the line's home when the access crosses: l2.go), and every
// L2 miss its turn at DRAM; a request that finds the resource busy waits.
// Contention emerges from the SMs' requests: nothing depends on the grid.
//
// One SM alone never meets these limits on the H200 (calibration/h200/
// l2bw.csv: 1 to 66 CTAs, one an SM, stream as fast as one), so a lone
// hierarchy has no fabric and its timing is the one-SM model's; the first
// Sibling call gives the GPU one.
type fabric struct {
	l2Free   []fixed // per partition: when it can take the next byte
	dramFree fixed
	l2Rate   int // bytes a cycle of one partition
	dramRate int
	gpcs     []*gpcFlight // each GPC's lines in flight (gpcmerge.go)
}

// newFabric returns an idle fabric for cfg's partitions and bandwidths.
func newFabric(cfg Config) *fabric {
	parts := max(cfg.L2Partitions, 1)
	return &fabric{
		l2Free:   make([]fixed, parts),
		l2Rate:   max(cfg.GPUL2BytesPerCycle/parts, 1),
		dramRate: max(cfg.GPUDRAMBytesPerCycle, 1),
	}
}

// l2 reserves n bytes of partition p from cycle t and returns how long the
// request waited for it.
func (f *fabric) l2(t sim.Cycle, p, n int) sim.Cycle {
	return wait(&f.l2Free[p], t, n, f.l2Rate)
}

// dram reserves n bytes of DRAM from cycle t and returns the wait.
func (f *fabric) dram(t sim.Cycle, n int) sim.Cycle {
	return wait(&f.dramFree, t, n, f.dramRate)
}

// wait takes n bytes' turn of a resource serving perCycle bytes a cycle and
// returns the whole cycles the request waited behind earlier ones.
func wait(free *fixed, t sim.Cycle, n, perCycle int) sim.Cycle {
	at := toFixed(t)
	start := max(at, *free)
	*free = start + fixed((uint64(n)*fixedOne+uint64(perCycle)-1)/uint64(perCycle))
	return sim.Cycle((start - at) / fixedOne)
}
