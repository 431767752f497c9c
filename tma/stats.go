package tma

// Stats are the unit's counters. Rates are computed by the report.
type Stats struct {
	Loads, TensorLoads   uint64 // copies into shared memory
	Stores, TensorStores uint64 // copies out of shared memory, reductions included
	Reductions           uint64 // of those, reductions (cp.reduce.async.bulk{.tensor})
	Prefetches           uint64 // L2 prefetches (1-D and tensor)
	BytesLoaded          uint64 // bytes credited to barriers (full boxes)
	BytesStored          uint64 // bytes written to global memory
	OOBBytes             uint64 // bytes of loads filled instead of read
	DRAMBytes            uint64 // bytes of loads, prefetches and reductions that came from DRAM
	BusyCycles           uint64 // cycles the front end was occupied
	QueueFullIssues      uint64 // requests issued while the queue was full (see AcceptAt)
	DescriptorMisses     uint64 // tensor copies that fetched their tensor map
}

// Sub returns s − o, counter by counter (to remove a warm-up snapshot).
func (s Stats) Sub(o Stats) Stats {
	return Stats{
		Loads: s.Loads - o.Loads, TensorLoads: s.TensorLoads - o.TensorLoads,
		Stores: s.Stores - o.Stores, TensorStores: s.TensorStores - o.TensorStores,
		Reductions: s.Reductions - o.Reductions, Prefetches: s.Prefetches - o.Prefetches,
		BytesLoaded: s.BytesLoaded - o.BytesLoaded, BytesStored: s.BytesStored - o.BytesStored,
		OOBBytes: s.OOBBytes - o.OOBBytes, DRAMBytes: s.DRAMBytes - o.DRAMBytes,
		BusyCycles: s.BusyCycles - o.BusyCycles, QueueFullIssues: s.QueueFullIssues - o.QueueFullIssues,
		DescriptorMisses: s.DescriptorMisses - o.DescriptorMisses,
	}
}
