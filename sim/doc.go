// Package sim is smsim's discrete-event engine: integer cycles, a deterministic
// event queue and clocked components that sleep while they have nothing to do.
//
// Order. Events are ordered by (cycle, phase, sequence). The sequence number
// comes from a counter inside the Engine, so two runs of the same input process
// the same events in the same order (FIFO within a cycle and phase). Phases give
// a written-down order inside one cycle:
//
//	PhaseDeliver  completions of in-flight work land (TMA bytes, memory responses,
//	              barrier-unit updates), so that components ticking in the same
//	              cycle see them — as a pipeline's writeback precedes its issue.
//	PhaseTick     clocked components act on the state as of this cycle.
//	PhaseSample   observers read the settled state of the cycle.
//
// Sleeping. A clocked component's Tick returns the next cycle at which it wants
// to run (or Never). A component that is waiting on something else is woken by
// whoever hands it work (Clocked.WakeAt), so a kernel whose warps all wait ten
// million cycles on a copy costs a handful of events, not ten million ticks.
//
// Several engines. A GPU gives each SM an engine of its own and runs them as
// one clock with a Group: cycle by cycle, each engine's events of the cycle
// run together, engine after engine in a fixed order.
//
// What it leaves out: clock domains (there is one SM clock), parallel execution
// (a Group runs its engines on one thread; docs/parallel.md is the plan for
// several), and any global state.
package sim
