package sm

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/tma"
)

// Reason is why a warp did not issue in a cycle, named as Nsight Compute
// names its warp-state samples where a name exists there, plus "mbarrier"
// for waits on asynchronous barriers.
type Reason uint8

// Stall reasons.
const (
	ReasonSelected         Reason = iota // issued an instruction
	ReasonNotSelected                    // ready, but the scheduler picked another warp
	ReasonWait                           // fixed-latency dependency (ALU, FMA, conversions)
	ReasonShortScoreboard                // dependency on shared memory / MIO results
	ReasonLongScoreboard                 // dependency on global or local memory
	ReasonMathPipeThrottle               // the math pipe is busy with other warps' instructions
	ReasonMIOThrottle                    // the MIO (shared memory / barrier unit) queue is busy
	ReasonLGThrottle                     // the global-memory queue is busy
	ReasonBranchResolving                // waiting for a branch target / reconvergence
	ReasonBarrier                        // CTA barrier (bar.sync) or warp sync
	ReasonMembar                         // memory fence
	ReasonSleeping                       // nanosleep
	ReasonMbarrier                       // suspended in an mbarrier wait (try_wait) or its result
	ReasonMisc                           // anything else
	numReasons
)

// NumReasons is the number of stall reasons.
const NumReasons = int(numReasons)

var reasonNames = [...]string{"selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard",
	"math_pipe_throttle", "mio_throttle", "lg_throttle", "branch_resolving", "barrier", "membar", "sleeping",
	"mbarrier", "misc"}

// String is the Nsight Compute style name.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "unknown"
}

// Stats are plain counters of one run.
type Stats struct {
	Cycles           uint64
	WarpInstructions uint64
	ThreadInstrs     uint64
	CTAs             uint64
	WarpsLaunched    uint64
	SyncsUpdates     uint64 // barrier updates applied (arrive groups, expect/complete tx)
	SyncsWaits       uint64 // test_wait / try_wait checks
	SmemWavefronts   uint64
	GlobalAccesses   uint64
	Ticks            uint64 // scheduler ticks (cycles in which the SM did work)
}

// Sub returns s minus t, for removing a warm-up snapshot.
func (s Stats) Sub(t Stats) Stats {
	return Stats{
		Cycles: s.Cycles - t.Cycles, WarpInstructions: s.WarpInstructions - t.WarpInstructions,
		ThreadInstrs: s.ThreadInstrs - t.ThreadInstrs, CTAs: s.CTAs - t.CTAs,
		WarpsLaunched: s.WarpsLaunched - t.WarpsLaunched, SyncsUpdates: s.SyncsUpdates - t.SyncsUpdates,
		SyncsWaits: s.SyncsWaits - t.SyncsWaits, SmemWavefronts: s.SmemWavefronts - t.SmemWavefronts,
		GlobalAccesses: s.GlobalAccesses - t.GlobalAccesses, Ticks: s.Ticks - t.Ticks,
	}
}

// Result is the report of one launch: plain data, formatted by the caller.
type Result struct {
	Kernel   string
	Cycles   uint64
	Barriers []BarrierReport
	Warps    []WarpReport
	Stats    Stats
	Warnings []string // lint findings (arrive before the previous phase was observed, ...)
	// Copies counts the launch's bulk and tensor copies (the TMA unit's
	// counters over this launch; zero without a unit).
	Copies tma.Stats
}

// BarrierReport is one mbarrier's history.
type BarrierReport struct {
	Name     string // source name ("full[2]") or "smem+0x40"
	CTA      int
	Addr     uint32 // shared-memory offset
	Expected uint32 // count given at init
	Phases   []PhaseReport
}

// PhaseReport is one phase of one barrier.
type PhaseReport struct {
	Phase         uint64
	Opened        uint64 // cycle (from launch start)
	Completed     int64  // cycle, or -1 if the phase never completed
	Arrivals      uint64 // thread arrivals (sum of counts)
	Updates       uint64 // barrier updates that arrived (the entanglement count)
	TxBytes       uint64 // bytes completed on this phase
	CompletedBy   string // "arrivals", "bytes" or "" if open
	ArrivingWarps int    // distinct warps that arrived in the phase
	LastArriver   Arriver
	Waits         []WaitReport
}

// Arriver identifies the update that arrived last.
type Arriver struct {
	Warp  int
	Lanes uint32
	Pos   isa.Pos // source of the arriving instruction (formatted by the report, not on the hot path)
	Cycle uint64
}

// WaitReport is one warp's wait for one phase.
type WaitReport struct {
	Warp   int
	Cycles uint64
}

// WarpReport is one warp's accounting.
type WarpReport struct {
	Warp         int // slot on the SM
	CTA          int
	InCTA        int
	Instructions uint64
	Start, End   uint64
	Stalls       [NumReasons]uint64
}
