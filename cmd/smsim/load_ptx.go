package main

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/traces/ptx"
)

// compilePTX parses a PTX file, lowers every entry, and applies what ptxas
// does to such code that decides timing (isa.DropUnusedTokens, isa.FoldPredicateBranches,
// isa.InvertBranchesOverJumps,
// isa.IfConvert, isa.IfConvertDiamonds, isa.HoistInvariantCompares, isa.RecomputeCompares, isa.HoistPastWaitLoops, isa.HoistPastBulkWaits, isa.UnrollCountedLoops,
// isa.ElideMoves, isa.FoldArriveCounts, isa.DropDeadResults, isa.FuseAdds, isa.FoldSharedAddressAdds, isa.Half2Pipes, isa.ElideNarrowingCvts, isa.NarrowConversionsOfLoads, isa.HoistLoopCounters, isa.ScheduleLoads,
// isa.HoistClockReads, isa.HoistDivisors, isa.MarkDivergentWaits,
// isa.ReloadSharedWindowInCallLoops, isa.ReloadSharedWindowInSleepLoops).
func compilePTX(path string, src []byte) ([]*isa.Program, error) {
	ps, err := ptx.Compile(path, src)
	if err != nil {
		return nil, err
	}
	for _, p := range ps {
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
	return ps, nil
}
