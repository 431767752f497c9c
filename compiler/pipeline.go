package compiler

import "github.com/smsim/smsim/isa"

// Pass is one transformation of the compiler model: something ptxas does to
// PTX that decides how the SASS it makes runs. Like go/analysis's Analyzer,
// each pass is a named value in the file that implements it.
type Pass struct {
	// Name is the pass's name (docs/model.md heads its section with it).
	Name string
	// Doc says in one paragraph what ptxas does and the SASS that shows it.
	Doc string
	// Run applies the pass to p. Every pass keeps what each lane computes;
	// only the order of instructions, the branches, the number of loop
	// passes, the timing classes and the SASS annotations change.
	Run func(p *isa.Program, o *Options)
}

// Options are the compiler model's parameters.
type Options struct {
	// Latencies is ptxas's scheduling model (see Latencies).
	Latencies Latencies
}

// DefaultOptions returns the parameters the calibration was made with.
func DefaultOptions() Options { return Options{Latencies: PtxasLatencies()} }

// Pipeline returns the passes in the order Compile applies them. The order
// matters: branch shapes are simplified before if-conversion looks for
// short regions, loops are unrolled before copies, adds and loads are
// folded, fused and scheduled in the result, and the passes that annotate
// or insert SASS-only work (convergence, vector addresses, window reloads,
// uniform moves) run last on the final layout.
func Pipeline() []Pass {
	return []Pass{
		DropUnusedTokens,
		FoldPredicateBranches,
		InvertBranchesOverJumps,
		IfConvert,
		IfConvertDiamonds,
		HoistInvariantCompares,
		RecomputeCompares,
		HoistPastWaitLoops,
		HoistPastBulkWaits,
		UnrollCountedLoops,
		ElideMoves,
		FoldArriveCounts,
		DropDeadResults,
		FuseAdds,
		FoldSharedAddressAdds,
		Half2Pipes,
		ElideNarrowingCvts,
		NarrowConversionsOfLoads,
		HoistLoopCounters,
		ScheduleLoads,
		HoistClockReads,
		HoistDivisors,
		MarkDivergentWaits,
		MoveCopyOperandsToUniform,
		ReloadSharedWindowInCallLoops,
		ReloadSharedWindowInSleepLoops,
	}
}

// Compile applies the pipeline to p, a program as a frontend lowered it
// (reconvergence points computed), in place.
func Compile(p *isa.Program, o Options) {
	for _, ps := range Pipeline() {
		ps.Run(p, &o)
	}
}
