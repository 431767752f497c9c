// Package gpu models a GPU of several SMs: N sm.SM instances on one event
// engine, each with its own L1, TLB and link to L2 and all sharing the L2's
// contents and the L2 partitions' and DRAM's bandwidth
// (memory.Hierarchy.Sibling), and the CTA dispatcher that places
// the grid's CTAs on them by the hardware's rules: an SM takes a CTA while
// its residency limits allow (limit.*, smem.capacity), CTAs spread over the
// SMs one at a time before any SM takes a second, the rest start in waves
// as CTAs retire, and the CTAs of a thread-block cluster start together on
// distinct SMs of one GPC (gpu.gpc_sms).
//
// The SMs run in lock step: every event of every SM is ordered by (cycle,
// phase, sequence) on the one engine, so a run is deterministic.
package gpu
