package sm

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

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

// Config holds every timing and capacity parameter of the SM model. All
// values are physical (cycles, counts, bytes, bytes per cycle); docs/model.md
// says where each comes from. Build one with DefaultConfig and override
// fields or keys (Set).
type Config struct {
	Name     string
	ClockMHz float64 // SM clock under load: converts ns (nanosleep, %globaltimer) to cycles

	// Residency limits of one SM.
	Schedulers int // sub-partitions, one issue per cycle each
	MaxWarps   int
	MaxCTAs    int
	MaxThreads int
	Policy     Policy

	// Latency by timing class (cycles from issue until a dependent instruction may issue).
	Latency [isa.NumClasses]int
	// Interval by timing class: cycles a warp-instruction occupies its pipe in the sub-partition.
	Interval [isa.NumClasses]int

	// Shared memory: capacity, banks, conflict cost.
	Smem sharedmem.Config

	// Barrier (SYNCS) unit.
	SyncsLatency       int // issue -> update applied at the barrier
	SyncsInterval      int // cycles between updates when the unit is saturated (measured ~2)
	SyncsCountInterval int // the same for an arrive with an explicit count operand (SASS ARRIVE.ART0)
	SyncsWarpInterval  int // cycles between barrier ops issued by one warp (measured ~5 back-to-back)
	SyncsResult        int // update applied (or phase found complete) -> token/predicate usable by the issuing warp
	SyncsQueue         int // barrier updates that may wait for the unit before issue stalls
	SyncsCheck         int // try_wait: issue -> phase check
	SyncsCheckCost     int // barrier-unit cycles one phase check takes
	SyncsVisibility    int // a phase completed by one warp reaches other warps' try_wait checks this much later
	SyncsPollVisible   int // ... and other warps' test_wait polls this much later
	TestWaitLatency    int // test_wait: issue -> predicate; the warp does not issue meanwhile
	TryWaitTimeout     int // try_wait without hint on an incomplete phase: cycles until it returns false
	TryWaitHintCycles  int // try_wait with a suspend-time hint: cycles until false (measured the same for all hints)
	TryWaitWake        int // phase completion -> suspended try_wait resumes with true
	TryWaitHold        int // 1: an un-hinted try_wait on a phase open at its issue holds its warp until the answer
	PadAnswers         int // 1: the stall counts ptxas pads after a barrier wait are paid after its answer (sm.variable)
	WakeCost           int // barrier-unit cycles to answer each suspended try_wait when its phase completes (0: all at once)
	WakeInterval       int // cycles a scheduler needs between resuming two of its warps on try_wait answers
	WindowReload       int // what a barrier/copy op in a loop with a call waits where ptxas reads the shared window again (effective)
	WindowRead         int // reading the shared window again (S2UR/S2R SR_CgaCtaId) for a shared address in a loop that sleeps
	CopyR2UR           int // a bulk load's vector operands moved to uniform registers before an elected lane issues it (ELECT; R2UR)
	CopyR2URLoop       int // a bulk store's vector operands moved to uniform registers, each checked uniform over the active lanes (R2UR.OR chain)
	SyncsAcquire       int // least time from a wait's issue to a true answer (its acquire), 0: none

	// ReadScoreboard is when an instruction of a Scheduled (SASS) program
	// that sets a read scoreboard (Ctrl.ReadSB: stores, atomics, barrier
	// and copy operations, whose sources are read late) has read its
	// source registers and releases it, counted from its issue.
	ReadScoreboard int

	// PredLatency is when a predicate written by setp can be used (by a
	// branch or a guard): the predicate file is read earlier in the pipe
	// than general registers.
	PredLatency int
	// MUFUForward is how much later a MUFU result reaches another
	// arithmetic pipe, and another pipe's result the MUFU unit.
	MUFUForward int

	// DivergeCycles is what a branch that splits a warp's lanes costs beyond
	// an ordinary branch (setting up the reconvergence point).
	DivergeCycles int
	// BranchTaken is when the instruction at a taken branch's target can
	// issue, counted from the branch's issue (the fetch is redirected);
	// a branch no lane takes holds the warp latency.branch cycles.
	BranchTaken int
	// BsyncCycles is what a warp pays leaving a lane-dependent region that
	// ptxas if-converted and closed with a convergence barrier (BSSY/BSYNC;
	// isa.SchedConverge marks where).
	BsyncCycles int

	// CTA barrier (bar.sync).
	BarLatency int // last arrival -> release
	BarPerWarp int // cycles per warp arrival at the barrier unit

	// Global memory path (caches, TLB, DRAM), persisting across launches.
	Mem           memory.Config
	GlobalPerLine int // extra cycles per additional line one warp access touches

	// TMA (bulk-copy) unit.
	TMA tma.Config

	// Misc.
	NanosleepMin int // smallest sleep in cycles
	WatchdogIdle int // livelock detector: cycles of spinning without any barrier progress before stopping
}

// DefaultConfig returns the h200 configuration.
func DefaultConfig() Config {
	c := Config{
		Name: "h200", ClockMHz: 1980,
		Schedulers: 4, MaxWarps: 64, MaxCTAs: 32, MaxThreads: 2048,
		Policy: GTO, Smem: sharedmem.DefaultConfig(),
		SyncsLatency: 42, SyncsInterval: 2, SyncsCountInterval: 4, SyncsWarpInterval: 5, SyncsResult: 5, SyncsQueue: 16, SyncsCheck: 7,
		SyncsCheckCost: 2, SyncsVisibility: 2, SyncsPollVisible: 35, DivergeCycles: 0, PredLatency: 13, MUFUForward: 1, BranchTaken: 10, BsyncCycles: 34,
		TestWaitLatency: 7, TryWaitTimeout: 7780, TryWaitHintCycles: 7838, TryWaitWake: 13, WakeCost: 2, WakeInterval: 11, SyncsAcquire: 27,
		WindowReload: 61, WindowRead: 4, CopyR2UR: 38, CopyR2URLoop: 58, ReadScoreboard: 12,
		BarLatency: 12, BarPerWarp: 2,
		Mem: memory.DefaultConfig(), GlobalPerLine: 2, TMA: tma.DefaultConfig(),
		NanosleepMin: 0, WatchdogIdle: 2_000_000,
	}
	lat := map[isa.Class]int{
		isa.ClassALU: 4, isa.ClassIMAD: 4, isa.ClassFMA: 4, isa.ClassFP64: 8, isa.ClassSFU: 17,
		isa.ClassDiv: 45, isa.ClassDiv64: 112, isa.ClassIDiv: 129, isa.ClassIDivInv: 62,
		isa.ClassIDiv64: 316, isa.ClassIDiv64Inv: 266, isa.ClassSpecial: 2, isa.ClassBranch: 5, isa.ClassShared: 23,
		isa.ClassGlobal: 0, isa.ClassLocal: 0, isa.ClassConst: 4, isa.ClassParam: 4, isa.ClassSyncs: 0,
		isa.ClassBar: 0, isa.ClassWarpSync: 1, isa.ClassFence: 8, isa.ClassTMA: 44, isa.ClassSleep: 0,
		isa.ClassCompute: 4, isa.ClassDelay: 0, isa.ClassHalf2: 6, isa.ClassHalf2MMA: 10,
		isa.ClassCvtFloat: 5,
	}
	ivl := map[isa.Class]int{
		isa.ClassALU: 2, isa.ClassIMAD: 2, isa.ClassFMA: 2, isa.ClassFP64: 2, isa.ClassSFU: 8,
		isa.ClassDiv: 8, isa.ClassDiv64: 16, isa.ClassIDiv: 18, isa.ClassIDivInv: 8,
		isa.ClassIDiv64: 24, isa.ClassIDiv64Inv: 14, isa.ClassSpecial: 2, isa.ClassBranch: 1, isa.ClassShared: 4,
		isa.ClassGlobal: 4, isa.ClassLocal: 1, isa.ClassConst: 1, isa.ClassParam: 1, isa.ClassSyncs: 1,
		isa.ClassBar: 1, isa.ClassWarpSync: 1, isa.ClassFence: 1, isa.ClassTMA: 1, isa.ClassSleep: 1,
		isa.ClassCompute: 1, isa.ClassDelay: 1, isa.ClassHalf2: 2, isa.ClassHalf2MMA: 2,
		isa.ClassCvtFloat: 2,
	}
	for k, v := range lat {
		c.Latency[k] = v
	}
	// Measured by dependent chains (calibration/h200/pipeline.csv latency_chain):
	// an L1-hit global load 32 cycles; an L2 hit 362 with the probe's address
	// arithmetic taken out of its 374 (probe.csv global_load_chain 2 MiB).
	c.Mem.L1HitCycles = 32
	// The SM-to-L2 round trip, DRAM penalty and link bandwidths, and the TMA
	// unit's timing, fitted with `smsim calibrate` to microbench.csv's
	// bulk-copy and tensor-copy rows (docs/model.md); an L2-hit load stays
	// at 362 cycles (L1 miss path + L2 round trip).
	c.Mem.L2Cycles = 257
	c.Mem.L1MissCycles = 362 - c.Mem.L2Cycles
	// A load's L2 miss, translation and effective L2 capacity measured by
	// gmem.csv's chases: 303 cycles beyond an L2 hit (dram_pages8), 10 for a
	// page not translated yet (dram_pages8192), and an L2 whose hit rate
	// for one SM's random chase over 32 MiB-512 MiB follows a capacity of
	// 30 MiB: one of the two 30 MiB partitions of the 60 MiB L2. The bulk
	// path keeps its fitted DRAM wait (mem.stream_dram). With the measured
	// branch costs (branch.csv) the copy rows were refitted (docs/model.md).
	// The DRAM rate comes from a scan over microbench.csv's copy rows and
	// membw.csv's DRAM rows together (mean error 9.18 % at 82, 9.30 at 86,
	// 9.77 at 90): 86, near the minimum and nearest the measured streaming
	// peak (89-91 B/cycle).
	c.Mem.DRAMCycles = 303
	c.Mem.StreamDRAMCycles = 126
	c.Mem.TLBMissCycles = 10
	c.Mem.L2Bytes = 30 << 20
	c.Mem.L2BytesPerCycle = 108
	c.Mem.DRAMBytesPerCycle = 86
	c.TMA.RequestBytesPerCycle = 261
	c.TMA.CompletionLatency = 32
	c.TMA.SetupCycles = 36
	c.TMA.IssueInterval = 44
	c.TMA.DescriptorCycles = 44
	c.TMA.RowCycles = 0
	c.TMA.TensorDRAMCycles = 367
	for k, v := range ivl {
		c.Interval[k] = v
	}
	return c
}

// Param describes one configuration key.
type Param struct {
	Key  string
	Unit string
	Doc  string
	get  func() string
	set  func(string) error
}

// Value formats the parameter's current value.
func (p Param) Value() string { return p.get() }

func intParam(key, unit, doc string, v *int) Param {
	return Param{Key: key, Unit: unit, Doc: doc,
		get: func() string { return strconv.Itoa(*v) },
		set: func(s string) error {
			n, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
			if err != nil || n < 0 || n > 1<<40 {
				return fmt.Errorf("want a non-negative integer, got %q", s)
			}
			*v = int(n)
			return nil
		}}
}

// Params lists every key of c, bound to c's fields, sorted by key.
func (c *Config) Params() []Param {
	ps := []Param{
		{Key: "clock_mhz", Unit: "MHz", Doc: "SM clock under load (ns to cycles for nanosleep and %globaltimer)",
			get: func() string { return strconv.FormatFloat(c.ClockMHz, 'g', -1, 64) },
			set: func(s string) error {
				f, err := strconv.ParseFloat(s, 64)
				if err != nil || f <= 0 || f > 1e5 {
					return fmt.Errorf("want a positive number, got %q", s)
				}
				c.ClockMHz = f
				return nil
			}},
		{Key: "sched.policy", Unit: "", Doc: "warp scheduler policy: gto or lrr",
			get: func() string { return string(c.Policy) },
			set: func(s string) error {
				if s != string(GTO) && s != string(LRR) {
					return fmt.Errorf("want gto or lrr, got %q", s)
				}
				c.Policy = Policy(s)
				return nil
			}},
		intParam("sched.count", "", "warp schedulers (sub-partitions), one issue per cycle each", &c.Schedulers),
		intParam("limit.warps", "warps", "resident warps per SM", &c.MaxWarps),
		intParam("limit.ctas", "CTAs", "resident CTAs per SM", &c.MaxCTAs),
		intParam("limit.threads", "threads", "resident threads per SM", &c.MaxThreads),
		intParam("smem.capacity", "bytes", "shared memory per SM", &c.Smem.Capacity),
		intParam("smem.per_cta", "bytes", "largest shared memory of one CTA", &c.Smem.MaxPerBlock),
		intParam("smem.banks", "banks", "shared-memory banks", &c.Smem.Banks),
		intParam("smem.bank_bytes", "bytes", "width of one bank", &c.Smem.BankBytes),
		intParam("smem.conflict_cycles", "cycles", "extra cycles per extra wavefront of an access (latency; the sub-partition's shared pipe is held this long per wavefront, at least interval.shared)", &c.Smem.ConflictCycles),
		intParam("smem.atomic_cycles", "cycles", "extra latency of a shared-memory atomic over a load of the same words (the read-modify-write)", &c.Smem.AtomicCycles),
		intParam("smem.queue", "instructions", "shared-memory instructions of one sub-partition that may wait for its pipe before issue stops (the MIO queue)", &c.Smem.Queue),
		intParam("smem.wavefront_cycles", "cycles", "cycles the SM's shared memory takes per 128-byte wavefront, all sub-partitions together (0: no limit)", &c.Smem.WavefrontCycles),
		intParam("syncs.latency", "cycles", "barrier op issue to update applied", &c.SyncsLatency),
		intParam("syncs.interval", "cycles", "barrier-unit cycles per update when saturated", &c.SyncsInterval),
		intParam("syncs.count_interval", "cycles", "barrier-unit cycles per arrive with an explicit count operand", &c.SyncsCountInterval),
		intParam("syncs.warp_interval", "cycles", "cycles between barrier ops of one warp", &c.SyncsWarpInterval),
		intParam("syncs.result", "cycles", "update applied (or phase found complete) to token/predicate usable", &c.SyncsResult),
		intParam("syncs.queue", "updates", "barrier updates waiting for the unit before issue stalls", &c.SyncsQueue),
		intParam("syncs.check", "cycles", "try_wait issue to phase check", &c.SyncsCheck),
		intParam("syncs.check_cost", "cycles", "barrier-unit cycles one phase check takes", &c.SyncsCheckCost),
		intParam("syncs.visibility", "cycles", "a completion reaches other warps' try_wait this much later", &c.SyncsVisibility),
		intParam("syncs.poll_visibility", "cycles", "a completion reaches other warps' test_wait polls this much later", &c.SyncsPollVisible),
		intParam("syncs.test_wait", "cycles", "test_wait issue to predicate (the warp waits)", &c.TestWaitLatency),
		intParam("syncs.try_wait_timeout", "cycles", "try_wait (no hint) on an incomplete phase: time until false", &c.TryWaitTimeout),
		intParam("syncs.try_wait_hint_timeout", "cycles", "try_wait with suspend-time hint: time until false", &c.TryWaitHintCycles),
		intParam("syncs.try_wait_wake", "cycles", "phase completion to suspended try_wait resuming", &c.TryWaitWake),
		intParam("syncs.pad_answers", "0/1", "1: the stall counts ptxas puts after a barrier wait (padding a fixed latency that spans it) are paid after the wait's answer, as in SASS; use with syncs.latency 36 and syncs.acquire 36 (0: the default fit)", &c.PadAnswers),
		intParam("syncs.try_wait_hold", "0/1", "1: an un-hinted try_wait on a phase open at its issue holds its warp until it answers (an effective model; the H200 holds nothing)", &c.TryWaitHold),
		intParam("syncs.wake_cost", "cycles", "barrier-unit cycles to answer each suspended try_wait when its phase completes (0: all at once)", &c.WakeCost),
		intParam("sched.wake_interval", "cycles", "cycles a scheduler needs between resuming two of its warps on a try_wait answer (a suspended waiter's wake-up, or a true answer on arrival)", &c.WakeInterval),
		intParam("latency.window_reload", "cycles", "a barrier or copy operation in a loop with a call waits this long where ptxas reads the shared-memory window again (an effective cost: the read itself is latency.window_read)", &c.WindowReload),
		intParam("latency.window_read", "cycles", "reading the shared-memory window again (S2UR/S2R SR_CgaCtaId) for a shared variable's address in a loop that sleeps", &c.WindowRead),
		intParam("latency.copy_r2ur", "cycles", "a bulk load or prefetch whose operands ptxas keeps in vector registers waits this long before it issues (ELECT, then R2UR moves to uniform registers)", &c.CopyR2UR),
		intParam("latency.copy_r2ur_loop", "cycles", "a bulk store or reduction whose operands ptxas keeps in vector registers waits this long before it issues (R2UR.OR moves, each checking the value is the same in every active lane, chained)", &c.CopyR2URLoop),
		intParam("syncs.acquire", "cycles", "least time from a try_wait's or test_wait's issue to a true answer", &c.SyncsAcquire),
		intParam("sass.read_scoreboard", "cycles", "SASS programs: an instruction's issue to the release of its read scoreboard (it has read its source registers)", &c.ReadScoreboard),
		intParam("latency.pred", "cycles", "setp to a guard or branch that reads its predicate", &c.PredLatency),
		intParam("latency.mufu_forward", "cycles", "extra wait of a MUFU result read by another arithmetic pipe, or of theirs read by the MUFU unit", &c.MUFUForward),
		intParam("branch.diverge", "cycles", "extra cost of a branch that splits the warp", &c.DivergeCycles),
		intParam("branch.taken", "cycles", "taken branch issue to its target's first issue", &c.BranchTaken),
		intParam("branch.bsync", "cycles", "leaving a lane-dependent if-converted region (ptxas's BSSY/BSYNC)", &c.BsyncCycles),
		intParam("bar.latency", "cycles", "bar.sync last arrival to release", &c.BarLatency),
		intParam("bar.per_warp", "cycles", "bar.sync cycles per warp arrival", &c.BarPerWarp),
		intParam("mem.line_bytes", "bytes", "cache line", &c.Mem.LineBytes),
		intParam("mem.sector_bytes", "bytes", "cache sector (fill granule)", &c.Mem.SectorBytes),
		intParam("mem.l1_bytes", "bytes", "L1 data cache", &c.Mem.L1Bytes),
		intParam("mem.l1_ways", "ways", "L1 associativity", &c.Mem.L1Ways),
		intParam("mem.l2_bytes", "bytes", "L2 capacity one SM's lines use (one partition)", &c.Mem.L2Bytes),
		intParam("mem.l2_ways", "ways", "L2 associativity", &c.Mem.L2Ways),
		intParam("mem.l1_hit", "cycles", "L1 hit load-to-use", &c.Mem.L1HitCycles),
		intParam("mem.l1_miss", "cycles", "load path added to the L2 round trip on an L1 miss", &c.Mem.L1MissCycles),
		intParam("mem.l2", "cycles", "SM to L2 round trip on a hit", &c.Mem.L2Cycles),
		intParam("mem.dram", "cycles", "extra latency of an L2 miss (a load)", &c.Mem.DRAMCycles),
		intParam("mem.stream_dram", "cycles", "what a bulk read from DRAM waits beyond mem.dram", &c.Mem.StreamDRAMCycles),
		intParam("mem.tlb_page_bytes", "bytes", "TLB page size", &c.Mem.TLBPageBytes),
		intParam("mem.tlb_entries", "entries", "TLB entries", &c.Mem.TLBEntries),
		intParam("mem.tlb_miss", "cycles", "TLB miss penalty", &c.Mem.TLBMissCycles),
		intParam("mem.l2_bytes_per_cycle", "B/cycle", "SM to L2 link bandwidth", &c.Mem.L2BytesPerCycle),
		intParam("mem.dram_bytes_per_cycle", "B/cycle", "DRAM bandwidth seen by the SM", &c.Mem.DRAMBytesPerCycle),
		intParam("mem.per_line", "cycles", "extra cycles per extra line of one warp access", &c.GlobalPerLine),
		intParam("tma.queue_depth", "requests", "requests waiting for the copy engine's front end", &c.TMA.QueueDepth),
		intParam("tma.issue_interval", "cycles", "front-end occupancy per request", &c.TMA.IssueInterval),
		intParam("tma.setup", "cycles", "request start to first memory request", &c.TMA.SetupCycles),
		intParam("tma.descriptor", "cycles", "extra setup of a tensor copy (tensor map, box)", &c.TMA.DescriptorCycles),
		intParam("tma.descriptor_miss", "cycles", "extra setup of a launch's first copy through a tensor map (the unit fetches it)", &c.TMA.DescriptorMissCycles),
		intParam("tma.descriptor_first", "cycles", "extra setup of the launch's first tensor-map fetch", &c.TMA.DescriptorFirstCycles),
		intParam("tma.row_cycles", "cycles", "least front-end time per box row", &c.TMA.RowCycles),
		intParam("tma.request_bytes_per_cycle", "B/cycle", "rate rows become L2 requests", &c.TMA.RequestBytesPerCycle),
		intParam("tma.smem_bytes_per_cycle", "B/cycle", "copy engine port into shared memory", &c.TMA.SmemBytesPerCycle),
		intParam("tma.completion", "cycles", "last byte written to complete_tx", &c.TMA.CompletionLatency),
		intParam("tma.store_bytes_per_cycle", "B/cycle", "rate at which the unit sends a store's bytes out of the SM", &c.TMA.StoreBytesPerCycle),
		intParam("tma.store_buffer", "bytes", "how far the unit reads a store's source ahead of the bytes it has sent", &c.TMA.StoreBufferBytes),
		intParam("tma.store_read_bytes", "bytes", "bytes of a store's source the unit reads per cycle of the shared-memory data array the warps' accesses use (0: the reads take none of it)", &c.TMA.StoreReadBytes),
		intParam("tma.tensor_dram", "cycles", "extra latency of a tensor copy with bytes from DRAM", &c.TMA.TensorDRAMCycles),
		intParam("nanosleep.min", "cycles", "shortest nanosleep", &c.NanosleepMin),
		intParam("watchdog.spin_cycles", "cycles", "livelock detector: spinning cycles without barrier progress before stopping", &c.WatchdogIdle),
	}
	for k := isa.Class(1); int(k) < isa.NumClasses; k++ {
		ps = append(ps,
			intParam("latency."+k.String(), "cycles", "issue to result usable, class "+k.String(), &c.Latency[k]),
			intParam("interval."+k.String(), "cycles", "pipe occupancy per warp instruction, class "+k.String(), &c.Interval[k]))
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Key < ps[j].Key })
	return ps
}

// Set assigns a key ("syncs.interval=3" split into key and value).
func (c *Config) Set(key, value string) error {
	for _, p := range c.Params() {
		if p.Key == key {
			if err := p.set(value); err != nil {
				return fmt.Errorf("config %s: %w", key, err)
			}
			return nil
		}
	}
	return fmt.Errorf("config: unknown key %q (smsim config show lists them)", key)
}

// Get returns a key's value.
func (c *Config) Get(key string) (string, bool) {
	for _, p := range c.Params() {
		if p.Key == key {
			return p.get(), true
		}
	}
	return "", false
}

// Validate checks that the configuration can run.
func (c *Config) Validate() error {
	checks := []struct {
		ok  bool
		msg string
	}{
		{c.Schedulers >= 1 && c.Schedulers <= 64, "sched.count must be 1..64"},
		{c.MaxWarps >= 1 && c.MaxWarps <= 1024, "limit.warps must be 1..1024"},
		{c.MaxCTAs >= 1, "limit.ctas must be at least 1"},
		{c.MaxThreads >= 32, "limit.threads must be at least 32"},
		{c.SyncsInterval >= 1, "syncs.interval must be at least 1"},
		{c.ClockMHz > 0, "clock_mhz must be positive"},
		{c.WatchdogIdle >= 1000, "watchdog.spin_cycles must be at least 1000"},
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
		if c.Interval[k] < 1 {
			return fmt.Errorf("config %s: interval.%s must be at least 1", c.Name, k)
		}
	}
	return nil
}
