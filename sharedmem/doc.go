// Package sharedmem models the shared memory of one Hopper SM: its capacity
// limits, the storage of one CTA's shared window, the bank-conflict cost of a
// warp's access and a guard that marks the 8-byte words holding live
// mbarrier objects.
//
// Storage. A Memory is a CTA's shared window as a flat byte array. Every
// access is bounds-checked and the sized helpers (Load32, Store64, …) also
// check natural alignment, as PTX requires; a bad access returns an
// *AccessError and never panics, so the SM can report the faulting
// instruction.
//
// Banks. Config.Wavefronts is a pure function of the 32 lane addresses of one
// warp access: how many shared-memory wavefronts (passes through the 32
// banks) it needs. Lanes reading the same 4-byte word share it (broadcast);
// distinct words in one bank serialise. 8- and 16-byte accesses are split
// into half- and quarter-warp passes, as NVIDIA documents for Volta and later;
// the split is skipped when the whole warp fits in one pass without a
// conflict (a uniform 8-byte load is one wavefront). Config.ConflictCycles
// turns wavefronts into extra cycles: the H200 measures +2 cycles per extra
// wavefront (calibration/h200/probe.csv, smem_load_chain).
//
// Barrier guard. Ordinary loads and stores that overlap a live mbarrier are
// undefined behaviour (mbarrier-semantics.md §1.1, §4 #4). The SM marks each
// barrier's 8 bytes with MarkBarrier and asks IsBarrier before an ordinary
// access; the check is one bitmap probe per 8 bytes, and nothing at all while
// no barrier is live.
//
// What it leaves out: the L1/shared-memory carve-out (package memory picks the
// L1 size), distributed shared memory of a cluster (another SM's window), the
// timing of the shared-memory pipe other than wavefronts (the SM adds the base
// latency), atomics' read-modify-write cost, and ldmatrix/stmatrix layouts.
package sharedmem
