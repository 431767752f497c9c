// Package traces holds the frontends that turn kernel sources into an
// isa.Program. This directory (package traces) implements the .sms kernel
// language, a small hand-writable format for synthetic mbarrier experiments;
// the PTX frontend lives in the ptx subpackage.
//
// A .sms file declares the launch shape, named mbarriers, shared regions and
// global buffers, and then gives the code every thread runs, with per-warp
// roles (warps 0 { ... }), counted loops, lane-predicated regions and every
// mbarrier, bulk-copy and tensor-copy operation. Compile lowers it to the same
// instructions nvcc's PTX would produce for the equivalent CUDA: registers
// and predicates are allocated, control flow becomes setp plus guarded
// branches with post-dominator reconvergence (isa.Reconverge), and every
// instruction carries the file:line:col of the statement that produced it.
//
// What the language deliberately leaves out: floating-point values, function
// calls, while loops and pointers to registers. Experiments that need them
// should be written in CUDA and run through the PTX path.
//
// docs/kernel-language.md is the reference for the language.
package traces
