// Package mbarrier models one Hopper shared-memory mbarrier object as a pure
// value-type state machine: the four architectural fields of PTX ISA
// §9.7.13.15.2 (phase, pending arrivals, expected arrivals, signed tx-count)
// and every operation that changes or reads them (init, inval, arrive,
// arrive_drop, their .expect_tx and .noComplete forms, expect_tx, complete_tx,
// the pending increment of cp.async.mbarrier.arrive, test_wait/try_wait with a
// token or a parity, and pending_count). The specification is
// docs/mbarrier-semantics.md §1; where §5 records an H200 measurement, the
// package follows the measurement.
//
// One Apply call is one atomic update: what one warp-instruction issue does to
// one barrier for the active lanes that address it, with their counts and
// bytes summed by the caller (§1.8). Apply checks every precondition before it
// changes anything (a precondition/action pair per operation, as in
// Ramulator), so an *Error always leaves the barrier unchanged. Lint-level
// findings come back as Warnings in the Result and never change behaviour.
//
// Two modes govern waits only. Strict (the default) turns undefined behaviour
// into an *Error; Faithful returns what the H200 returns where the spec knows
// it (parity-only token comparison, §5.9). Apply has no mode: every error it
// reports is an error on the hardware too (over-arrival traps, §5.6) or has no
// known hardware behaviour to emulate.
//
// What this package deliberately leaves to others:
//   - addresses, alignment, the shared-memory window, remote (.shared::cluster)
//     access and ordinary loads/stores overlapping a barrier: package sm, which
//     keeps barriers keyed by address;
//   - grouping a warp's active lanes by barrier address and summing their
//     counts, divergence, elect.sync: packages warp and sm;
//   - suspending try_wait, its time limit, waking waiters, deadlock detection:
//     package sm (the Result says when a phase completed; the caller wakes);
//   - bulk copies and the timing of their complete_tx: package tma;
//   - memory ordering, proxy fences and data hazards: packages sm and sharedmem;
//   - time: nothing here knows about cycles.
//
// The package has no goroutines, no engine and no imports outside the
// standard library.
package mbarrier
