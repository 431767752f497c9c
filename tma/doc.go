// Package tma models the Tensor Memory Accelerator of one Hopper SM: the
// engine behind cp.async.bulk (1-D bulk copies) and cp.async.bulk.tensor
// (tiled tensor copies, 1 to 5 dimensions), their L2 prefetch forms, the
// bulk reductions into global memory (cp.reduce.async.bulk{.tensor}), and the
// per-thread bulk async-groups of copies and reductions to global memory.
//
// Tensor maps. Map is smsim's decoded form of a CUtensorMap. Validate
// enforces every limit cuTensorMapEncodeTiled enforces (rank, alignment,
// strides, box and element-stride ranges, inner-box bytes, swizzle span,
// interleave rules, NaN fill only for floats); Encode and Decode give it a
// 128-byte encoding of our own (the real one is opaque) so that a map can sit
// in parameter or global memory; Replace rewrites one field of an encoded
// map as tensormap.replace does; ParseMapSpec reads the command line's
// tensormap:… spelling (docs/tma.md). BoxRuns walks a box: global address,
// swizzled shared-memory offset, bytes, and whether each piece lies inside
// the tensor. BoxBytes is what a load credits to its barrier — the whole box
// even when part or all of it lies outside the tensor, as measured on H200.
//
// The engine. A Unit is created with New and talks to the rest of the SM
// through four small interfaces declared here: GlobalMem (bytes),
// MemPath (timing of bulk reads and writes; memory.Hierarchy implements it),
// SharedMem (the CTAs' shared windows) and TxSink (complete-tx on a
// barrier). Requests are validated at issue (§4 #43, #45, #53, #55 of
// mbarrier-semantics.md) and timed at issue — latency is data: the
// completion cycle is known when the copy is accepted — and then cost one
// engine event each, at which the bytes move (with swizzle and
// out-of-bounds fill) and the barrier is credited. Stores move their bytes
// when their source has been read and report completion through
// WaitGroup; groups complete in commit order. Reductions are stores whose
// bytes are combined, element by element, with what global memory holds
// (RedOp on the .type's or the map's elements, ReduceValid the PTX ISA's
// table of what is defined), timed as stores whose writes are
// read-modify-writes in L2 (MemPath.StreamReduce).
//
// Timing (docs/tma.md has the timeline, the parameters and the
// predicted-versus-measured table): a FIFO front end that starts one request
// per IssueInterval plus the time to generate its rows' requests; per-row
// memory requests through MemPath (latency plus bytes over the shared L2
// link, DRAM on misses); a shared-memory port; a completion latency. The
// SM's own share of a measured copy latency (issue, arrive.expect_tx,
// try_wait wake-up; about 100 cycles) is not in the unit.
//
// What it leaves out: multicast and shared::cluster destinations (one SM is
// simulated), im2col and the sm_100 modes, interleaved layouts (accepted by
// Validate, rejected by the unit as Unsupported), reductions into
// shared::cluster (another CTA's shared memory) and im2col reductions, the
// descriptor cache (a fixed DescriptorCycles), L2 promotion and cache hints
// (accepted, no effect), the real CUtensorMap layout (tensormap.replace
// works on smsim's encoding, field by field), and the proxy-fence hazard
// checks (the SM's concern).
package tma
