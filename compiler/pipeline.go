package compiler

import "github.com/smsim/smsim/isa"

// Pass is one transformation of the compiler model: something ptxas does to
// PTX that decides how the SASS it makes runs.
type Pass struct {
	// Name is the pass's name, as docs/model.md heads its section.
	Name string
	// Doc says in one paragraph what ptxas does and the SASS that shows it.
	Doc string
	// Run applies the pass to p.
	Run func(p *isa.Program, o *Options)
}

// Options are the compiler model's parameters.
type Options struct{}

// DefaultOptions are the parameters the calibration was made with.
func DefaultOptions() Options { return Options{} }

// Pipeline returns the passes in the order Compile applies them.
func Pipeline() []Pass {
	wrap := func(name string, f func(*isa.Program)) Pass {
		return Pass{Name: name, Run: func(p *isa.Program, _ *Options) { f(p) }}
	}
	return []Pass{
		wrap("DropUnusedTokens", DropUnusedTokens),
		wrap("FoldPredicateBranches", FoldPredicateBranches),
		wrap("InvertBranchesOverJumps", InvertBranchesOverJumps),
		wrap("IfConvert", IfConvert),
		wrap("IfConvertDiamonds", IfConvertDiamonds),
		wrap("HoistInvariantCompares", HoistInvariantCompares),
		wrap("RecomputeCompares", RecomputeCompares),
		wrap("HoistPastWaitLoops", HoistPastWaitLoops),
		wrap("HoistPastBulkWaits", HoistPastBulkWaits),
		wrap("UnrollCountedLoops", UnrollCountedLoops),
		wrap("ElideMoves", ElideMoves),
		wrap("FoldArriveCounts", FoldArriveCounts),
		wrap("DropDeadResults", DropDeadResults),
		wrap("FuseAdds", FuseAdds),
		wrap("FoldSharedAddressAdds", FoldSharedAddressAdds),
		wrap("Half2Pipes", Half2Pipes),
		wrap("ElideNarrowingCvts", ElideNarrowingCvts),
		wrap("NarrowConversionsOfLoads", NarrowConversionsOfLoads),
		wrap("HoistLoopCounters", HoistLoopCounters),
		wrap("ScheduleLoads", ScheduleLoads),
		wrap("HoistClockReads", HoistClockReads),
		wrap("HoistDivisors", HoistDivisors),
		wrap("MarkDivergentWaits", MarkDivergentWaits),
		wrap("MoveCopyOperandsToUniform", MoveCopyOperandsToUniform),
		wrap("ReloadSharedWindowInCallLoops", ReloadSharedWindowInCallLoops),
		wrap("ReloadSharedWindowInSleepLoops", ReloadSharedWindowInSleepLoops),
	}
}

// Compile applies the pipeline to p.
func Compile(p *isa.Program, o Options) {
	for _, ps := range Pipeline() {
		ps.Run(p, &o)
	}
}
