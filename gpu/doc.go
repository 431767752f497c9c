// Package gpu models a GPU of several SMs: N sm.SM instances, each on its own
// event engine, each with its own L1, TLB and link to L2 and all sharing the L2's
// contents and the L2 partitions' and DRAM's bandwidth
// (memory.Hierarchy.Sibling), and the CTA dispatcher that places
// the grid's CTAs on them by the hardware's rules: an SM takes a CTA while
// its residency limits allow (limit.*, smem.capacity), CTAs spread over the
// SMs one at a time before any SM takes a second, the rest start in waves
// as CTAs retire, and the CTAs of a thread-block cluster start together on
// distinct SMs of one GPC (gpu.gpc_sms).
//
// The SMs run in lock step, each on its own event engine (sim.Group): in
// each cycle the dispatcher's events run first, then each SM's, in the
// order CTAs are given to the SMs (clockOrder), so a run is deterministic,
// and the SMs meet what they share (the L2, DRAM, a GPC's delivery, global
// memory) in that order. On several host threads (SetThreads) each SM takes
// its turn there (sim.Engine.Serial; serial.go), so a run gives the same
// results on any number of threads (docs/parallel.md).
package gpu
