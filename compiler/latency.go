package compiler

import "github.com/smsim/smsim/isa"

// Latencies is ptxas's scheduling model as the compiler model assumes it:
// the cycles its list scheduler counts from an instruction of each timing
// class to a reader of the result, and from a compare to the guard or
// branch that reads its predicate. ScheduleLoads orders instructions by it
// (only the arithmetic and load classes matter there).
//
// It is a parameter of the compiler model, not the machine's latency table
// (the SM's latency.<class>): ptxas compiles once, blind to the machine a
// what-if run describes, so changing a machine latency with --set must not
// reschedule the program. Where the machine has a fixed latency the default
// model assumes the same (the H200's defaults; a test in cmd/smsim keeps
// the two tables equal there). Global and local loads are the exception:
// the machine's latency for them is the memory path's (latency.global and
// latency.local are 0), and ptxas plans with a fixed 300 cycles. With the
// machine's 0 instead, ten PTX files of the calibration suite schedule
// differently.
type Latencies struct {
	// Class is the latency of a result of each timing class.
	Class [isa.NumClasses]int
	// Pred is the latency of a predicate to the guard or branch that
	// reads it (SASS's stall counts from an ISETP to its BRA sum to 13).
	Pred int
}

// PtxasLoadLatency is the latency ptxas's scheduler assumes for a global
// or local load, whose real latency the memory hierarchy decides (an L1 hit
// 32 cycles on the H200, an L2 hit 289).
const PtxasLoadLatency = 300

// PtxasLatencies returns the default scheduling model (see Latencies).
func PtxasLatencies() Latencies {
	l := Latencies{Pred: 13}
	for c, v := range map[isa.Class]int{
		isa.ClassALU: 4, isa.ClassIMAD: 4, isa.ClassFMA: 4, isa.ClassFP64: 8, isa.ClassSFU: 17,
		isa.ClassDiv: 45, isa.ClassDiv64: 112, isa.ClassIDiv: 129, isa.ClassIDivInv: 62,
		isa.ClassIDiv64: 316, isa.ClassIDiv64Inv: 266, isa.ClassSpecial: 2, isa.ClassBranch: 5, isa.ClassShared: 23,
		isa.ClassGlobal: PtxasLoadLatency, isa.ClassLocal: PtxasLoadLatency, isa.ClassConst: 28, isa.ClassParam: 4,
		isa.ClassSyncs: 0, isa.ClassBar: 0, isa.ClassWarpSync: 1, isa.ClassFence: 8, isa.ClassTMA: 44,
		isa.ClassSleep: 0, isa.ClassCompute: 4, isa.ClassDelay: 0, isa.ClassHalf2: 6, isa.ClassHalf2MMA: 10,
		isa.ClassCvtFloat: 5, isa.ClassMMA: 1,
	} {
		l.Class[c] = v
	}
	return l
}
