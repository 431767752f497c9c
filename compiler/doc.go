// Package compiler models what ptxas does to PTX. The H200 runs the SASS
// ptxas makes of a kernel, not the PTX, and what ptxas does — the branches
// it removes, the loops it unrolls, the instructions it fuses, folds, drops
// or reorders, the uniform registers it cannot use — decides how the kernel
// runs. smsim runs PTX, so it imitates ptxas with rewrites of the lowered
// program (package isa) before a kernel runs.
//
// Each rewrite is a Pass, a named value in the file that implements it,
// whose Doc says what ptxas does and which SASS shows it. Pipeline lists
// them in order and Compile runs them:
//
//  1. control flow: DropUnusedTokens, FoldPredicateBranches,
//     InvertBranchesOverJumps, IfConvert, IfConvertDiamonds;
//  2. loops: HoistInvariantCompares, RecomputeCompares, HoistPastWaitLoops,
//     HoistPastBulkWaits, UnrollCountedLoops;
//  3. instructions that SASS does not have or merges: ElideMoves,
//     FoldArriveCounts, DropDeadResults, FuseAdds, ContractMulAdds,
//     FoldSharedAddressAdds, Half2Pipes, ElideNarrowingCvts,
//     NarrowConversionsOfLoads, ExpandEx2;
//  4. scheduling: HoistLoopCounters, ScheduleLoads, HoistClockReads,
//     HoistDivisors;
//  5. what only SASS shows, as annotations and inserted waits the SM
//     charges: SerializeWgmma, MarkDivergentWaits, MoveCopyOperandsToUniform,
//     ReloadSharedWindowInCallLoops, ReloadSharedWindowInSleepLoops.
//
// Every pass but ContractMulAdds keeps what each lane computes (that one
// rounds a multiply-add once, as ptxas's FFMA does): only the order of
// instructions, branches, the number of loop passes, timing classes and
// the SASS annotations (isa.SchedHints) change. The passes share the
// analyses of package isa (control-flow graph, loops, uses, dependences),
// the uniformity reading in uniform.go and the editing helpers in edit.go.
// Options carries the model's one parameter table, ptxas's scheduling
// latencies (Latencies).
//
// docs/model.md has a section per pass: the evidence, the measurements it
// moved and what was tried instead. cmd/smsim compiles every kernel it
// loads: a PTX kernel takes the whole pipeline, a .sms kernel the passes
// that apply to it (Passes(SMS); docs/model.md says why not all yet).
package compiler
