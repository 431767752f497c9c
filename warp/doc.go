// Package warp models one warp's architectural state and its SIMT control
// flow: 32 lanes of 64-bit registers and predicates, the functional effect of
// arithmetic, logic, comparison and conversion instructions, and Volta-style
// independent thread scheduling.
//
// Divergence is data. A warp is a set of Splits (paths): each has a program
// counter, a lane mask and a stack of reconvergence frames. A divergent branch
// turns one split into two that both carry a frame naming the branch's
// immediate post-dominator; a split that reaches its frame's point parks
// there, and when every split holding the frame has parked (or exited) they
// merge back into one. bar.warp.sync parks a split until every non-exited
// lane of the mask has reached a warp sync. Splits issue separately, and the
// warp moves on to another runnable split whenever the current one parks,
// blocks or takes a backward branch, so a path spinning in a wait loop never
// starves the path that would release it.
//
// What it leaves out: timing (the sm package decides when a warp issues and
// charges latencies), memory and barriers (the sm package executes those
// instructions, using the operand helpers here), and any notion of which
// frontend produced the program.
package warp
