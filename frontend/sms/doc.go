// Package sms is the frontend of the .sms kernel language: it turns a .sms
// file into an isa.Program. The language is a small hand-writable format for
// synthetic mbarrier experiments; the PTX frontend is frontend/ptx.
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
package sms
