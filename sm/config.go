package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/tma"
)

// Policy is a warp-scheduler policy.
type Policy string

// Scheduler policies.
const (
	GTO Policy = "gto" // greedy then oldest: keep issuing the last warp while it can
	LRR Policy = "lrr" // loose round robin
)

// Config holds every parameter of the SM model: one spec per component,
// each field the value of one configuration key. The keys — name, unit,
// h200 value, where the value comes from, meaning — are declared once, in
// keys.go; DefaultConfig, Set, Get and Params (and so `smsim config show`
// and --set) are derived from those declarations. All hardware values are
// physical: cycles, counts, bytes, bytes per cycle.
type Config struct {
	Name     string
	ClockMHz float64 // clock_mhz: converts ns (nanosleep, %globaltimer) to cycles

	Sched  SchedSpec  // the sub-partitions' warp schedulers
	Limits Limits     // what the SM holds resident (CTA placement)
	Pipes  PipeSpec   // the execution pipes: latency and interval per timing class
	Branch BranchSpec // the cost of branches
	Syncs  SyncsSpec  // the barrier (SYNCS) unit
	Bar    BarSpec    // the CTA barriers (bar.sync)
	Tensor TensorSpec // the tensor pipes (wgmma)

	Smem  sharedmem.Config // shared memory: capacity, banks, wavefronts, the MIO queue
	Mem   memory.Config    // the memory path: caches, TLB, DRAM (persists across launches)
	LSU   LSUSpec          // the load/store unit's share of a global access
	Const ConstSpec        // the constant caches: what a read past the immediate constant cache costs
	TMA   tma.Config       // the copy engine

	SASS  SASSSpec     // issue by control bits (Scheduled programs)
	Ptxas PtxasSpec    // the compiler model: what ptxas's code costs a PTX program
	Model ModelChoices // choices between models of one behaviour

	GPU GPUSpec // the SMs of the GPU, their GPCs, the SM-to-SM network (clusters)

	NanosleepMin int          // nanosleep.min
	Watchdog     WatchdogSpec // the livelock detector (a tool setting)
}

// SchedSpec is the warp schedulers' spec.
type SchedSpec struct {
	Count        int    // sched.count: sub-partitions, one issue per cycle each
	Policy       Policy // sched.policy
	WakeInterval int    // sched.wake_interval: between resuming two warps on try_wait answers
}

// Limits are the SM's residency limits (CTA placement); the shared memory's
// are in sharedmem.Config.
type Limits struct {
	Warps   int // limit.warps
	CTAs    int // limit.ctas
	Threads int // limit.threads
	// Registers is the SM's register file in 32-bit registers
	// (limit.registers), allocated to a CTA's warps in units of
	// RegisterUnit registers a warp (limit.register_unit) for the
	// registers per thread the kernel was compiled to (a cubin's
	// EIATTR_REGCOUNT; a program that does not say is not bound by it).
	Registers    int
	RegisterUnit int
}

// PipeSpec is the execution pipes' spec.
type PipeSpec struct {
	// Latency by timing class: cycles from issue until a dependent
	// instruction may issue (latency.<class>).
	Latency [isa.NumClasses]int
	// Interval by timing class: cycles a warp instruction occupies its
	// pipe in the sub-partition (interval.<class>).
	Interval [isa.NumClasses]int
	// MUFUForward is how much later a MUFU result reaches another
	// arithmetic pipe, and another pipe's result the MUFU unit
	// (latency.mufu_forward).
	MUFUForward int
}

// BranchSpec is the cost of branches.
type BranchSpec struct {
	Taken   int // branch.taken: a taken branch's issue to its target's
	Diverge int // branch.diverge: a branch that splits the warp, beyond an ordinary one
	// YieldSwitch (branch.yield_switch): a YIELD that hands the warp to
	// another of its paths, one that can run or one parked at a WARPSYNC
	// (which tries again and hands it back).
	YieldSwitch int
	// YieldBsync (branch.yield_bsync): a YIELD whose next path is parked
	// at a BSYNC.
	YieldBsync int
}

// SyncsSpec is the barrier (SYNCS) unit's spec.
//
//	issue ──Latency──► apply (state changes here) ──Result──► token usable
//	        successive applies at least Interval apart (CountInterval for a counted arrive)
//	try_wait issue ──Check──► phase check (CheckCost of the unit's cycles)
//	phase completes ──WakeCost each──► suspended waits answered ──TryWaitWake──► warp resumes
//	constant load (LDC) ──LdcCost of the unit's cycles, booked as an update──► its result no sooner
type SyncsSpec struct {
	Latency            int // syncs.latency
	Interval           int // syncs.interval
	CountInterval      int // syncs.count_interval
	WarpInterval       int // syncs.warp_interval
	Result             int // syncs.result
	Queue              int // syncs.queue
	Check              int // syncs.check
	CheckCost          int // syncs.check_cost
	Visibility         int // syncs.visibility
	PollVisibility     int // syncs.poll_visibility
	TestWait           int // syncs.test_wait
	TryWaitTimeout     int // syncs.try_wait_timeout
	TryWaitHintTimeout int // syncs.try_wait_hint_timeout
	TryWaitWake        int // syncs.try_wait_wake
	WakeCost           int // syncs.wake_cost
	Acquire            int // syncs.acquire
	GuardedOff         int // syncs.guarded_off
	LdcCost            int // syncs.ldc_cost
}

// BarSpec is the CTA barriers' (bar.sync) spec.
type BarSpec struct {
	Latency int // bar.latency: last arrival to release
	PerWarp int // bar.per_warp: the unit's cycles per warp arrival
}

// ConstSpec is the constant caches' spec (constcache.go).
type ConstSpec struct {
	L15Cycles int // const.l1_5: a read's line from the constant cache, past the immediate constant cache
	L2Cycles  int // const.l2: a read's line from L2
	// UniformLines is the 64-byte lines the uniform datapath's immediate
	// constant cache holds (const.uniform_lines), least recently used out.
	UniformLines int
	// UniformL15Cycles is what a uniform read (ULDC) of a __constant__ bank
	// whose line that cache lacks pays for it from the constant cache behind
	// (const.uniform_l1_5); a parameter or driver line pays L15Cycles.
	UniformL15Cycles int
}

// LSUSpec is the load/store unit's spec beyond the pipes' (interval.global,
// interval.shared) and the memory path's.
type LSUSpec struct {
	GlobalPerLine int // mem.per_line: extra cycles per extra line of one warp access
	StoreBacklog  int // mem.store_backlog: cycles the SM→L2 path may be booked ahead before a store waits to issue
}

// SASSSpec is the spec of issue by control bits.
type SASSSpec struct {
	// ReadScoreboard is when an instruction that sets a read scoreboard
	// (Ctrl.ReadSB: stores, atomics, barrier and copy operations, whose
	// sources are read late) has read its source registers and releases
	// it, counted from its issue (sass.read_scoreboard).
	ReadScoreboard int
	// SpecialRead is when an S2R / S2UR, a special-register read the
	// compiler scoreboards (Ctrl.WriteSB), delivers its value, counted from
	// its issue (sass.special_read). CS2R (the clock) is fixed-latency:
	// latency.special.
	SpecialRead int
	// FenceRead is when a CTA-scope memory barrier (MEMBAR.ALL.CTA)
	// releases its read scoreboard at the earliest, counted from its issue
	// (sass.fence_read); it also waits for the warp's shared stores.
	FenceRead int
	// SmemStoreWritten is when a shared store's data is in the data array,
	// counted from its issue when nothing queues (sass.smem_store_written).
	SmemStoreWritten int
	// Bsync is how long a BSYNC holds its warp beyond its stall count
	// (sass.bsync): reconverging redirects the warp like a taken branch,
	// whether its lanes were all there or not.
	Bsync int
}

// PtxasSpec is the compiler model's costs: what a PTX program pays for code
// ptxas adds or schedules, which a SASS program carries as instructions and
// control bits of its own.
type PtxasSpec struct {
	PredLatency  int // latency.pred: setp to the guard or branch that reads its predicate (ptxas's padding)
	Bsync        int // branch.bsync: leaving an if-converted region (BSSY/BSYNC)
	WindowReload int // latency.window_reload
	WindowRead   int // latency.window_read
	CopyR2UR     int // latency.copy_r2ur
	CopyR2URLoop int // latency.copy_r2ur_loop
	// SyncsLatencyPad and SyncsAcquireOverlap turn syncs.latency and
	// syncs.acquire into what a PTX program sees (ptxas.syncs_latency_pad,
	// ptxas.syncs_acquire_overlap): the barrier unit's answer with the stall
	// counts ptxas puts around a barrier operation folded in, which the
	// compiler model does not place (syncs.pad_answers overlap). The unit's
	// own latencies stay the one knob for every input form.
	SyncsLatencyPad     int
	SyncsAcquireOverlap int
	// CopyCompletionPad (ptxas.copy_completion_pad): cycles a PTX
	// program's copies complete beyond tma.completion.
	CopyCompletionPad int
	// PollVisibilityPad (ptxas.poll_visibility_pad): cycles a completion
	// reaches a PTX program's test_wait polls beyond syncs.poll_visibility,
	// standing in for the BSYNC a SASS spin pays after its wait.
	PollVisibilityPad int
}

// ModelChoices choose between models of one behaviour.
type ModelChoices struct {
	PadAnswers  PadMode  // syncs.pad_answers
	TryWaitHold HoldMode // syncs.try_wait_hold
}

// PadMode says when a warp pays the stall counts ptxas pads after a barrier
// wait, where a fixed latency spans the wait (static.go).
type PadMode uint8

// Padding modes.
const (
	// PadOverlap lets the wait for the barrier unit's answer overlap the
	// padding: the h200 fit, whose answer microbench.csv's single-thread
	// rows set.
	PadOverlap PadMode = iota
	// PadAfterAnswer pays the padding after the answer, as the SASS does
	// (latency3.csv); it needs the clean answer latency (syncs.latency 36,
	// syncs.acquire 36).
	PadAfterAnswer
)

// HoldMode says what an un-hinted try_wait does to its warp.
type HoldMode uint8

// Hold modes.
const (
	// HoldNone holds nothing: only what reads the predicate waits for the
	// answer, as on the H200 (trywait.cu).
	HoldNone HoldMode = iota
	// HoldOpenPhase holds the warp until the answer when the phase is open
	// at the try_wait's issue: an effective model (with a short
	// syncs.try_wait_timeout it stands for a quick re-check).
	HoldOpenPhase
)

// WatchdogSpec is the livelock detector's setting.
type WatchdogSpec struct {
	SpinCycles int // watchdog.spin_cycles: cycles without barrier progress before stopping
}

// Validate checks that the configuration can run.
func (c *Config) Validate() error {
	checks := []struct {
		ok  bool
		msg string
	}{
		{c.Sched.Count >= 1 && c.Sched.Count <= 64, "sched.count must be 1..64"},
		{c.Limits.Warps >= 1 && c.Limits.Warps <= 1024, "limit.warps must be 1..1024"},
		{c.Limits.CTAs >= 1, "limit.ctas must be at least 1"},
		{c.Limits.Threads >= 32, "limit.threads must be at least 32"},
		{c.Limits.Registers >= 1 && c.Limits.RegisterUnit >= 1, "limit.registers and limit.register_unit must be at least 1"},
		{c.Syncs.Interval >= 1, "syncs.interval must be at least 1"},
		{min(c.Tensor.F16Ops, c.Tensor.TF32Ops, c.Tensor.FP8Ops, c.Tensor.Int8Ops) >= 1, "tensor.*_ops must be at least 1"},
		{c.ClockMHz > 0, "clock_mhz must be positive"},
		{c.GPU.CTALaunchNs >= 0, "gpu.cta_launch_ns must not be negative"},
		{c.Watchdog.SpinCycles >= 1000, "watchdog.spin_cycles must be at least 1000"},
		{c.GPU.SMs >= 1, "gpu.sms must be at least 1"},
		{c.GPU.DSMEMBytesPerCycle >= 1, "dsmem.bytes_per_cycle must be at least 1"},
		// A .release.cluster remote arrive waits cluster.release for its
		// membar, then travels the rest of cluster.arrive_latency: a trip
		// shorter than nothing would land the arrival before its release.
		{c.GPU.ArriveLatency >= c.GPU.Release, "cluster.arrive_latency must be at least cluster.release (the SM-to-SM trip is their difference)"},
		{c.Const.UniformLines >= 1 && c.Const.UniformLines <= maxUniformLines, "const.uniform_lines must be 1..64"}, // maxUniformLines, spelled out: Validate allocates nothing (TestNoAllocationPerInstruction)
	}
	for _, ch := range checks {
		if !ch.ok {
			return fmt.Errorf("config %s: %s", c.Name, ch.msg)
		}
	}
	if err := c.TMA.Validate(); err != nil {
		return fmt.Errorf("config %s: %w", c.Name, err)
	}
	if err := c.Mem.Validate(); err != nil {
		return fmt.Errorf("config %s: %w", c.Name, err)
	}
	if err := c.Smem.Validate(); err != nil {
		return fmt.Errorf("config %s: %w", c.Name, err)
	}
	for k := isa.Class(1); int(k) < isa.NumClasses; k++ {
		if c.Pipes.Interval[k] < 1 {
			return fmt.Errorf("config %s: interval.%s must be at least 1", c.Name, k)
		}
	}
	return nil
}
