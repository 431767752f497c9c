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
// each cycle the dispatcher's events run first, then each SM's, in SM
// order, so a run is deterministic, and an SM's events of a cycle meet
// what the SMs share (the L2, DRAM, a GPC's delivery) in SM order, the
// order a parallel run can keep (docs/parallel.md).
package gpu
