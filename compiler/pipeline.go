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
	// Input is the frontend that lowered the program; it decides which
	// passes apply (Passes).
	Input Input
}

// Input names the frontend a program comes from.
type Input uint8

// Inputs.
const (
	// PTX: a kernel nvcc compiled to PTX; every pass applies.
	PTX Input = iota
	// SMS: a kernel of smsim's .sms language. It lowers to the instructions
	// nvcc would emit, but its examples and tests were written and measured
	// without the ptxas model, and nine passes change them (IfConvert,
	// IfConvertDiamonds, HoistPastWaitLoops, ElideMoves, DropDeadResults,
	// FuseAdds, HoistLoopCounters, ScheduleLoads, MarkDivergentWaits): until
	// their reports are re-derived with those passes (docs/model.md), a
	// .sms kernel takes only the others.
	SMS
)

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
		ContractMulAdds,
		FoldSharedAddressAdds,
		Half2Pipes,
		ElideNarrowingCvts,
		NarrowConversionsOfLoads,
		ExpandEx2,
		HoistLoopCounters,
		ScheduleLoads,
		HoistClockReads,
		HoistDivisors,
		SerializeWgmma,
		MarkDivergentWaits,
		MoveCopyOperandsToUniform,
		ReloadSharedWindowInCallLoops,
		ReloadSharedWindowInSleepLoops,
	}
}

// smsDeferred are the passes a .sms kernel does not take yet (see SMS).
var smsDeferred = map[string]bool{
	"IfConvert": true, "IfConvertDiamonds": true, "HoistPastWaitLoops": true, "ElideMoves": true,
	"DropDeadResults": true, "FuseAdds": true, "HoistLoopCounters": true, "ScheduleLoads": true,
	"MarkDivergentWaits": true,
}

// Passes returns the passes of the pipeline that apply to a program from
// input, in pipeline order.
func Passes(input Input) []Pass {
	all := Pipeline()
	if input == PTX {
		return all
	}
	var out []Pass
	for _, ps := range all {
		if !smsDeferred[ps.Name] {
			out = append(out, ps)
		}
	}
	return out
}

// Compile applies to p, a program as a frontend lowered it (reconvergence
// points computed), the passes that apply to it (Passes(o.Input)), in
// place.
func Compile(p *isa.Program, o Options) {
	for _, ps := range Passes(o.Input) {
		ps.Run(p, &o)
	}
}
