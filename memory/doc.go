// Package memory is smsim's global memory: what the bytes are (Global) and
// how long it takes one SM to reach them (Hierarchy).
//
// Global is sparse: 4 KiB pages allocated on first write, so a 256 MiB
// buffer costs nothing until touched, and a byte never written reads as its
// region's Fill (zero, a byte, 32-bit sequence numbers, or a seeded
// SplitMix64 stream) — every fill is a function of the offset, so pages are
// generated independently and lazily. Every access must lie inside one
// region (a buffer from Alloc or module data from MapData); anything else is
// an *AccessError that names the nearest region and by how many bytes the
// access missed it. Buffers start at isa.HeapBase, are separated by guard
// gaps, and the total is capped at 64 GiB.
//
// Hierarchy models timing only (tags, LRU, occupancy; never data): a
// per-SM L1 (sectored, LRU), a TLB with a reach and a miss penalty, a
// set-associative sectored L2 with LRU eviction whose sets are allocated on
// first use (memory use is bounded by the L2's line count), the SM↔L2 link
// and DRAM as bandwidth resources. Access serves loads and stores of the SM
// (latency only); Stream, StreamWrite and StreamReduce serve the TMA unit's
// bulk transfers (latency plus bytes over bandwidth, hits and misses per
// line; a bulk reduction is a write whose sectors missing in L2 are read
// from DRAM first).
// State persists across launches so a second launch sees a warm L2; the SM
// calls InvalidateL1 at each launch, Warm for ranges the host just wrote, and
// Flush where the calibration host flushes L2.
//
// Values and their sources are documented on Config and in docs/tma.md:
// L1, L2 and DRAM latencies come from the probe's pointer chase
// (calibration/h200/probe.csv, global_load_chain); the link bandwidth and
// the bulk path's L2 latency from microbench.csv's bulk-copy rows; the TLB
// is assumed.
//
// What it leaves out: L2 partitions and the far-partition penalty, address
// hashing (sets are indexed by line address modulo the set count), DRAM
// banks, rows and refresh, write-backs of dirty lines, L1 write policy
// subtleties (stores write through and keep L1 copies valid), other SMs'
// traffic, the cost of an atomic's read-modify-write in L2 beyond its
// access, constant and texture caches, and coherence — one SM
// is the whole machine.
package memory
