package sm

// Observer receives the events a timeline needs. The SM calls it only when
// one is attached (a nil check on the hot path), so tracing costs nothing
// when off. Cycles are counted from the launch's start.
type Observer interface {
	// Launch: a launch begins; cycles start again from 0 (--launches N
	// runs N launches on one SM, and the report is the last one's).
	Launch()
	// Issue: warp issued the instruction at pc with the given active lanes.
	Issue(cycle uint64, warp, pc int, lanes uint32)
	// Stall: warp spent [from, to) for the reason (ReasonSelected: issuing);
	// what names the barrier and phase of an mbarrier wait, else "".
	Stall(warp int, from, to uint64, r Reason, what string)
	// Phase: a barrier phase was open over [opened, completed].
	Phase(barrier string, cta int, phase uint64, opened, completed uint64)
	// Copy: a bulk copy of bytes was in flight over [issued, done] for barrier.
	Copy(id uint64, bytes int, issued, done uint64, barrier string)
	// MMAGroup: warp's wgmma group of n wgmma.mma_async was in flight over
	// [issued, done] (from its first wgmma's issue to its completion).
	MMAGroup(warp, n int, issued, done uint64)
}
