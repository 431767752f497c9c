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
	// SMs is each SM's share of a launch on several SMs (gpu.Run); nil
	// for a launch on one SM.
	SMs []SMReport
}

// SMReport is one SM's share of a launch on several SMs.
type SMReport struct {
	SM     int
	Cycles uint64 // the SM's last busy cycle from the launch's start
	Stats  Stats
	Copies tma.Stats
	Stalls [NumReasons]uint64 // its warps' stall cycles by reason
	CTAs   []int              // the CTAs its listed warps belong to, ascending
}

// Limits on what a Result lists one by one, so that its memory does not grow
// with the phases or the grid without bound (docs/cli.md). What is not
// listed is counted: in the barrier's Unlisted totals, or in one record per
// barrier address (and one per warp of the block) for the CTAs past
// ReportCTAs.
const (
	ReportPhases      = 10_000  // phases listed per barrier: its first ones
	ReportPhaseBudget = 1 << 18 // phases listed per launch, over all barriers
	ReportCTAs        = 1024    // CTAs whose barriers and warps are listed one by one
	ReportBarriers    = 1 << 14 // barriers listed one by one per launch
)

// BarrierReport is one mbarrier's history.
type BarrierReport struct {
	Name     string // source name ("full[2]") or "smem+0x40"
	CTA      int    // -1: the CTAs past ReportCTAs (or ReportBarriers), folded
	Addr     uint32 // shared-memory offset
	Expected uint32 // count given at init
	Phases   []PhaseReport
	// CTAs is how many CTAs' barriers at Addr the record stands for: 1, or
	// more for a folded record (CTA -1).
	CTAs int
	// Unlisted counts the phases not in Phases: past ReportPhases or the
	// launch's ReportPhaseBudget, or all of a folded record's.
	Unlisted PhaseTotals
}

// PhaseTotals sums phases that are not listed one by one.
type PhaseTotals struct {
	Phases         uint64  // phases counted
	Completed      uint64  // of which completed
	Arrivals       uint64  // thread arrivals
	Updates        uint64  // barrier updates that arrived
	TxBytes        uint64  // bytes completed
	Cycles         uint64  // durations of the completed phases, summed
	MaxCycles      uint64  // the longest of them
	Waits          uint64  // warps' waits
	StallCycles    uint64  // their cycles, summed
	MaxWait        uint64  // the longest
	UpdatesPerWarp float64 // updates per arriving warp, summed over the completed phases with arrivals
}

// addPhase counts one phase.
func (t *PhaseTotals) addPhase(p *PhaseReport) {
	t.Phases++
	t.Arrivals += p.Arrivals
	t.Updates += p.Updates
	t.TxBytes += p.TxBytes
	if p.Completed >= 0 {
		t.Completed++
		d := uint64(p.Completed) - p.Opened
		t.Cycles += d
		t.MaxCycles = max(t.MaxCycles, d)
		if p.ArrivingWarps > 0 {
			t.UpdatesPerWarp += float64(p.Updates) / float64(p.ArrivingWarps)
		}
	}
	for _, w := range p.Waits {
		t.addWait(w.Cycles)
	}
}

// addWait counts one warp's wait.
func (t *PhaseTotals) addWait(cycles uint64) {
	t.Waits++
	t.StallCycles += cycles
	t.MaxWait = max(t.MaxWait, cycles)
}

// add counts the phases of u as well.
func (t *PhaseTotals) add(u PhaseTotals) {
	t.Phases += u.Phases
	t.Completed += u.Completed
	t.Arrivals += u.Arrivals
	t.Updates += u.Updates
	t.TxBytes += u.TxBytes
	t.Cycles += u.Cycles
	t.MaxCycles = max(t.MaxCycles, u.MaxCycles)
	t.Waits += u.Waits
	t.StallCycles += u.StallCycles
	t.MaxWait = max(t.MaxWait, u.MaxWait)
	t.UpdatesPerWarp += u.UpdatesPerWarp
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
	// Arrivals from other CTAs of the cluster (remote mbarrier.arrive):
	// the thread arrivals and the ranks they came from (bit r: rank r).
	RemoteArrivals uint64
	RemoteRanks    uint32
}

// Arriver identifies the update that arrived last.
type Arriver struct {
	Remote bool // from another CTA of the cluster: Warp is a warp slot of that CTA's SM
	CTA    int  // the arriving warp's CTA, when Remote
	Warp   int
	Lanes  uint32
	Pos    isa.Pos // source of the arriving instruction (formatted by the report, not on the hot path)
	Cycle  uint64
}

// WaitReport is one warp's wait for one phase.
type WaitReport struct {
	Warp   int
	Cycles uint64
}

// WarpReport is one warp's accounting.
type WarpReport struct {
	Warp         int // slot on the SM; -1 for a folded record
	CTA          int // -1: warp InCTA of every CTA past ReportCTAs, folded
	InCTA        int
	Instructions uint64
	Start, End   uint64 // a folded record: the first start and the last end
	Stalls       [NumReasons]uint64
	Warps        int // how many warps the record stands for: 1, or more when folded
	SM           int // the SM it ran on (on a GPU of several)
}
