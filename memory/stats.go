package memory

// Stats are the hierarchy's counters. They only count; rates are computed
// by the report.
type Stats struct {
	Loads, Stores     uint64 // Access calls
	L1Hits, L1Misses  uint64 // line lookups of loads in L1
	L2Hits, L2Misses  uint64 // line lookups in L2 (a miss: some sector was absent)
	TLBMisses         uint64 // pages not in the TLB
	FarReads          uint64 // line reads that crossed to the line's home partition (l2.go)
	Streams           uint64 // bulk reads
	StreamBytes       uint64 // bytes requested by bulk reads
	StreamWrites      uint64 // bulk writes
	StreamWriteBytes  uint64 // bytes of bulk writes
	StreamReduces     uint64 // bulk reductions (read-modify-writes in L2)
	StreamReduceBytes uint64 // bytes of bulk reductions
	DRAMBytes         uint64 // sector bytes read from DRAM
}

// Sub returns s − o, counter by counter (to remove a warm-up snapshot).
func (s Stats) Sub(o Stats) Stats {
	return Stats{
		Loads: s.Loads - o.Loads, Stores: s.Stores - o.Stores,
		L1Hits: s.L1Hits - o.L1Hits, L1Misses: s.L1Misses - o.L1Misses,
		L2Hits: s.L2Hits - o.L2Hits, L2Misses: s.L2Misses - o.L2Misses,
		TLBMisses: s.TLBMisses - o.TLBMisses, FarReads: s.FarReads - o.FarReads,
		Streams: s.Streams - o.Streams, StreamBytes: s.StreamBytes - o.StreamBytes,
		StreamWrites: s.StreamWrites - o.StreamWrites, StreamWriteBytes: s.StreamWriteBytes - o.StreamWriteBytes,
		StreamReduces: s.StreamReduces - o.StreamReduces, StreamReduceBytes: s.StreamReduceBytes - o.StreamReduceBytes,
		DRAMBytes: s.DRAMBytes - o.DRAMBytes,
	}
}
