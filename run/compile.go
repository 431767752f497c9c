package run

import (
	"github.com/smsim/smsim/isa"
)

// applyPTXPasses applies to a lowered PTX kernel what ptxas does to such
// code that decides timing (isa.DropUnusedTokens, isa.FoldPredicateBranches,
// isa.InvertBranchesOverJumps,
// isa.IfConvert, isa.IfConvertDiamonds, isa.HoistInvariantCompares, isa.RecomputeCompares, isa.HoistPastWaitLoops, isa.HoistPastBulkWaits, isa.UnrollCountedLoops,
// isa.ElideMoves, isa.FoldArriveCounts, isa.DropDeadResults, isa.FuseAdds, isa.FoldSharedAddressAdds, isa.Half2Pipes, isa.ElideNarrowingCvts, isa.NarrowConversionsOfLoads, isa.HoistLoopCounters, isa.ScheduleLoads,
// isa.HoistClockReads, isa.HoistDivisors, isa.MarkDivergentWaits,
// isa.ReloadSharedWindowInCallLoops, isa.ReloadSharedWindowInSleepLoops).
func applyPTXPasses(p *isa.Program) {
	isa.DropUnusedTokens(p)
	isa.FoldPredicateBranches(p)
	isa.InvertBranchesOverJumps(p)
	isa.IfConvert(p)
	isa.IfConvertDiamonds(p)
	isa.HoistInvariantCompares(p)
	isa.RecomputeCompares(p)
	isa.HoistPastWaitLoops(p)
	isa.HoistPastBulkWaits(p)
	isa.UnrollCountedLoops(p)
	isa.ElideMoves(p)
	isa.FoldArriveCounts(p)
	isa.DropDeadResults(p)
	isa.FuseAdds(p)
	isa.FoldSharedAddressAdds(p)
	isa.Half2Pipes(p)
	isa.ElideNarrowingCvts(p)
	isa.NarrowConversionsOfLoads(p)
	isa.HoistLoopCounters(p)
	isa.ScheduleLoads(p)
	isa.HoistClockReads(p)
	isa.HoistDivisors(p)
	isa.MarkDivergentWaits(p)
	isa.MoveCopyOperandsToUniform(p)
	isa.ReloadSharedWindowInCallLoops(p)
	isa.ReloadSharedWindowInSleepLoops(p)
}
