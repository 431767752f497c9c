package sm

import (
	"errors"
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/mbarrier"
	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
	"github.com/smsim/smsim/warp"
)

// GlobalMemory is the functional global memory the SM reads and writes.
type GlobalMemory interface {
	Read(addr uint64, b []byte) error
	Write(addr uint64, b []byte) error
}

// MemoryPath times global-memory accesses; its state (caches) persists
// across launches.
type MemoryPath interface {
	// Access returns the load-to-use latency of one access (one line of a
	// warp access) and the level that served it. memory.Hierarchy is one.
	Access(now sim.Cycle, addr uint64, size int, write bool) (sim.Cycle, memory.Level)
	// AccessL2 is Access for a load that bypasses L1 (ld.global.cg/.cv,
	// cp.async.cg).
	AccessL2(now sim.Cycle, addr uint64, size int) (sim.Cycle, memory.Level)
}

// Launch describes one kernel launch.
type Launch struct {
	Prog    *isa.Program
	Block   [3]int
	Grid    [3]int
	DynSmem int
	Params  []byte // the .param space image, Prog.ParamBytes long
	Mode    mbarrier.Mode
	// MaxCycles stops the run with a DiagLimit past this many cycles (0: no limit).
	MaxCycles uint64
	// Cluster is the CTAs of a thread-block cluster in each dimension
	// (zero: the launch has no cluster size; every CTA is a cluster of one).
	Cluster [3]int
	// Banks, when not nil, are the constant banks the launch reads in place
	// of Prog.Banks (SASS __constant__ variables the host wrote, as
	// cudaMemcpyToSymbol does); bank 0 is laid out for the launch either way.
	Banks [][]byte
}

// SM is one streaming multiprocessor running one launch at a time.
type SM struct {
	cfg Config
	// files and boards keep retired warps' register files and scoreboards
	// for the warps that start after them.
	files  warp.Files
	boards boardPool
	eng    *sim.Engine
	clk    *sim.Clocked
	gmem   GlobalMemory
	copy   CopyEngine
	obs    Observer

	launch      *Launch
	prog        *isa.Program
	banks       [][]byte          // constant banks of the launch (SASS c[N][...]): bank 0 laid out for it
	uops        []uop             // per instruction: what the scheduler and issue read of it (uop.go)
	kernels     []warp.Kernel     // per instruction: its lane kernel where it has one (decodeKernels)
	groups      [warp.Lanes]group // an mbarrier operation's lanes by barrier (execMbarrier's scratch)
	ctas        []*cta            // resident CTAs
	nextCTA     int               // next CTA of the grid to start
	totalCTA    int
	warps       []*wctx // resident warps by slot (nil when free)
	sched       []scheduler
	syncs       syncsUnit             // the barrier (SYNCS) unit
	lsu         lsu                   // the load/store unit's timing
	storeBytes  [warp.Lanes][2]uint64 // a global store's bytes, a mask per line it touches (mem.go)
	linesRising bool                  // the lines noteLine noted so far rise (mem.go)
	consts      constCache            // the constant caches (constcache.go)
	constExtra  sim.Cycle             // what the issuing instruction's constant reads add (constReads)
	place       placement             // where CTAs may start
	start       sim.Cycle
	lastRetire  sim.Cycle // when the SM's latest CTA retired
	err         error
	done        bool

	tickets    uint64 // wait tickets handed to blocked splits
	stats      Stats
	barList    []*barrier   // the barriers of the CTAs not yet retired (retireBarriers), in creation order
	barSeq     int          // barriers created in this launch
	reports    reports      // what the launch's report lists and counts (report.go)
	limits     reportLimits // what it may list
	watch      watchdog     // the livelock detector
	retired    []WarpReport
	warnings   []string
	copyID     uint64
	cpInFlight int       // cp.async landings and asynchronous arrivals pending
	copyStats0 tma.Stats // the copy engine's counters when the launch began
	copyIssued map[uint64]copyInfo
	landing    []landing            // bulk loads in flight, in issue order: the shared bytes they will write
	storeSrc   []storeSource        // bulk-store sources not yet covered by a wait_group.read
	commits    map[uint64]uint64    // bulk groups committed, by thread
	mapUse     []mapUse             // tensor maps read from global memory: rewritten since?
	laneBuf    [maxAccessBytes]byte // one lane's bytes of the memory access in progress (laneAccess)
	gspan      SpanMemory           // gmem's spans for the warp-wide accesses, if it lends them (mem_warp.go)
	lanes      warpLanes            // the warp-wide access in progress: its lanes' offsets
	laneByLane bool                 // every access a lane at a time: the tests hold the warp-wide path to it
	spanBuf    [warpSpanBytes]byte  // a warp-wide load's span of global memory where it is copied
	sinkVec    warp.Vec             // a warp-wide load's elements that go to no register
	cpFree     []*cpLanding         // landed cp.async events, for reuse

	// On a GPU of several SMs (package gpu): the SM's number, how many
	// there are, and the dispatcher that hands out the grid's CTAs.
	smid, nsm      int
	source         CTASource
	pendingCluster *Cluster // the cluster of the CTA StartCTA is starting
	pendingRank    int
	inbox          checkPool     // remote barrier operations in flight to this SM's CTAs
	dsmemFree      uint64        // when the SM's link to the SM-to-SM network is next free, in 1/256 cycle
	peer           *cta          // the CTA whose shared memory the lane access in progress reaches (nil: the warp's own)
	tensor         []tensorPipe  // the sub-partitions' tensor pipes (wgmma)
	mmaPool        *MMAWorkers   // computes the wgmmas' accumulators (mma_workers.go)
	ownPool        bool          // mmaPool is the SM's own, which it closes
	threads        int           // host threads the SM alone may use (0: every core)
	mmaModel       warp.MMAModel // the tensor cores' arithmetic
	mmaRead        mmaReader     // the wgmma's shared-memory reads
}

// ShareArray records that the TMA unit will take cycles of the shared-memory
// data array's cycles in [from, to) (tma.ArrayUser): the warps' wavefronts
// get the rest.
func (s *SM) ShareArray(from, to sim.Cycle, cycles int) {
	s.lsu.shareArray(s.eng.Now(), from, to, cycles, false)
}

// New builds an SM on eng with the given memory.
func New(cfg Config, eng *sim.Engine, gmem GlobalMemory, path MemoryPath) (*SM, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg.Mem = cfg.Mem.AtClock(cfg.ClockMHz) // the L2's and DRAM's nanoseconds at the SM's clock
	s := &SM{cfg: cfg, eng: eng, gmem: gmem, lsu: newLSU(&cfg, path), consts: newConstCache(&cfg), place: placement{limits: cfg.Limits, smem: cfg.Smem.Capacity},
		limits: defaultReportLimits(), mmaModel: warp.H200MMAModel()}
	s.gspan, _ = gmem.(SpanMemory)
	s.clk = sim.NewClocked(eng, s)
	return s, nil
}

// SetCopyEngine attaches the TMA unit.
func (s *SM) SetCopyEngine(c CopyEngine) { s.copy = c }

// SetObserver attaches an observer (timeline writer); nil detaches.
func (s *SM) SetObserver(o Observer) { s.obs = o }

// Config returns the SM's configuration.
func (s *SM) Config() Config { return s.cfg }

// Run executes one launch to completion and returns its report.
func (s *SM) Run(l *Launch) (*Result, error) {
	if err := s.begin(l); err != nil {
		return nil, err
	}
	return s.Finish(RunPast(s.eng, s.Limit(), s.Done))
}

// Done reports whether the launch has finished on the SM: its last CTA
// retired and none is left for it.
func (s *SM) Done() bool { return s.done || len(s.ctas) == 0 && s.gridDone() }

// Runner is what runs a launch's events: one SM's sim.Engine, or a GPU's
// sim.Group of them.
type Runner interface {
	Run(until sim.Cycle) error
}

// RunPast runs eng up to limit; if the limit stops it after the launch is
// done, what is left runs out without one. Past the last warp only
// bookkeeping can be queued (the time limits of waits that ended, copies'
// and stores' last bytes), and a launch that finished within --max-cycles
// has not reached it.
func RunPast(eng Runner, limit sim.Cycle, done func() bool) error {
	err := eng.Run(limit)
	if isLimit(err) && done() {
		err = eng.Run(sim.Never - 1)
	}
	return err
}

// Begin prepares the SM for launch l; on a GPU (SetPlace) the dispatcher
// then starts its CTAs (StartCTA) and the engine runs the SMs together.
func (s *SM) Begin(l *Launch) error { return s.begin(l) }

// Limit is the engine cycle past which the launch stops (--max-cycles).
func (s *SM) Limit() sim.Cycle {
	if s.launch.MaxCycles > 0 {
		return s.start + sim.Cycle(s.launch.MaxCycles)
	}
	return sim.Never - 1
}

// Finish turns the engine's outcome (err from sim.Engine.Run) into the SM's
// result and diagnostic: its own failure, the cycle limit, or a deadlock
// when work remains.
func (s *SM) Finish(err error) (*Result, error) {
	s.closeMMA()
	l := s.launch
	if err == nil {
		err = s.err
	}
	if err == nil && !s.done && len(s.ctas) == 0 && s.gridDone() {
		s.done = true // an SM of a GPU that the dispatcher gave no (more) CTAs
		s.stats.Cycles = uint64(max(s.lastRetire, s.start) - s.start)
	}
	var d *Diag
	var re *memory.ResidentError
	if err != nil && errors.As(err, &d) {
		err = d // a diagnostic wrapped by the copy engine
	} else if err != nil && errors.As(err, &re) {
		err = &Diag{Kind: DiagLimit, Code: "memory-limit", Warp: -1, Phase: -1, Msg: err.Error()}
	} else if err != nil && !isLimit(err) {
		err = &Diag{Kind: DiagMisuse, Code: "copy-fault", Warp: -1, Phase: -1, Msg: err.Error()}
	}
	if le, ok := err.(*sim.LimitError); ok {
		d := &Diag{Kind: DiagLimit, Code: "max-cycles", Warp: -1, Phase: -1, Cycle: uint64(le.Limit - s.start),
			Msg: fmt.Sprintf("--max-cycles %d reached before the kernel finished", l.MaxCycles)}
		d.Detail = s.dumpState()
		err = d
	}
	if err == nil && !s.done {
		err = s.deadlock()
	}
	if err != nil {
		if d, ok := err.(*Diag); ok && d.Cycle == 0 {
			d.Cycle = uint64(s.eng.Now() - s.start)
		}
		return s.result(), err
	}
	return s.result(), nil
}

func (s *SM) begin(l *Launch) error { return s.beginLike(l, nil) }

// BeginLike is Begin for an SM of a GPU whose SM like began the same
// launch: it takes like's decoded program (uops and lane kernels, pure
// functions of the program and the configuration, which the SMs share)
// instead of decoding it again.
func (s *SM) BeginLike(l *Launch, like *SM) error { return s.beginLike(l, like) }

func (s *SM) beginLike(l *Launch, like *SM) error {
	if l.Prog == nil {
		return &Diag{Kind: DiagInput, Code: "no-program", Warp: -1, Phase: -1, Msg: "no program to launch"}
	}
	s.launch, s.prog = l, l.Prog
	s.place.regsPerThread = l.Prog.RegsPerThread
	s.banks = launchBanks(l)
	if s.obs != nil {
		s.obs.Launch()
	}
	if like != nil && like.prog == l.Prog && like.uops != nil {
		s.uops, s.kernels = like.uops, like.kernels
	} else {
		s.uops, s.kernels = decode(l.Prog, &s.cfg), decodeKernels(l.Prog)
	}
	s.ctas, s.nextCTA, s.done, s.err = nil, 0, false, nil
	s.totalCTA = l.Grid[0] * l.Grid[1] * l.Grid[2]
	s.warps = make([]*wctx, s.cfg.Limits.Warps)
	s.sched = make([]scheduler, s.cfg.Sched.Count)
	groups := pipeGroups(s.uops)
	for i := range s.sched {
		s.sched[i] = newScheduler(s.cfg.Sched, s.cfg.Limits.Warps)
		s.sched[i].q.pairs = groups
	}
	s.syncs = newSyncsUnit(s.syncsSpec(l.Prog))
	s.inbox, s.dsmemFree = checkPool{}, 0
	s.stats = Stats{}
	s.barList, s.barSeq, s.reports = nil, 0, reports{}
	s.retired, s.warnings = nil, nil
	s.copyIssued = map[uint64]copyInfo{}
	s.landing = s.landing[:0]
	s.storeSrc, s.commits, s.mapUse = nil, map[uint64]uint64{}, nil
	s.cpInFlight = 0
	if s.copy != nil {
		s.copy.NewLaunch(s.copyLaunch(l.Prog))
	}
	s.copyStats0 = s.copyStats()
	s.start = s.eng.Now()
	s.lsu.reset()
	s.consts.reset()
	s.watch = watchdog{spin: sim.Cycle(s.cfg.Watchdog.SpinCycles), lastProg: s.start}
	if err := s.checkLaunch(l); err != nil {
		return err
	}
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	smem := s.prog.DynSmemBase() + l.DynSmem - s.prog.SharedReserved
	s.lsu.newLaunch(memory.L1BytesFor(s.place.carveout((threads+warp.Lanes-1)/warp.Lanes, threads, smem)))
	if s.source == nil {
		if err := s.fillCTAs(s.start); err != nil {
			return err
		}
	}
	s.clk.WakeAt(s.start)
	return nil
}

// syncsSpec is the barrier unit's spec for prog: a PTX program's answers
// include what ptxas's schedule around barrier operations adds or overlaps
// (ptxas.syncs_latency_pad, ptxas.syncs_acquire_overlap), which a SASS program's control
// bits carry themselves; a SASS program's guarded-off waits pass the unit
// at the measured syncs.guarded_off.
func (s *SM) syncsSpec(prog *isa.Program) SyncsSpec {
	spec := s.cfg.Syncs
	if !prog.Scheduled {
		spec.Latency += s.cfg.Ptxas.SyncsLatencyPad
		spec.Acquire = max(spec.Acquire-s.cfg.Ptxas.SyncsAcquireOverlap, 0)
		spec.PollVisibility += s.cfg.Ptxas.PollVisibilityPad
		// The compiler model bounds a guarded-off wait's pass by the
		// unit's check and answer, as it bounds a true answer.
		spec.GuardedOff = max(spec.Check+spec.Result, spec.Acquire)
	}
	return spec
}

func (s *SM) checkLaunch(l *Launch) error {
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	bad := func(msg string, a ...any) error {
		return &Diag{Kind: DiagInput, Code: "bad-launch", Warp: -1, Phase: -1, Msg: fmt.Sprintf(msg, a...)}
	}
	for i := 0; i < 3; i++ {
		if l.Block[i] < 1 || l.Grid[i] < 1 {
			return bad("block and grid dimensions must be at least 1 (block %v, grid %v)", l.Block, l.Grid)
		}
	}
	switch {
	case threads > 1024:
		return bad("block of %d threads exceeds 1024", threads)
	case l.Block[2] > 64:
		return bad("block z dimension %d exceeds 64", l.Block[2])
	case l.Grid[0] > 1<<31-1 || l.Grid[1] > 65535 || l.Grid[2] > 65535:
		return bad("grid %v exceeds the hardware limits (2^31-1, 65535, 65535)", l.Grid)
	case s.totalCTA > 1<<20:
		return bad("grid of %d blocks is more than one simulated SM will run (limit 1048576)", s.totalCTA)
	case l.DynSmem < 0:
		return bad("negative dynamic shared memory")
	}
	smem := s.prog.DynSmemBase() + l.DynSmem - s.prog.SharedReserved
	if smem > s.cfg.Smem.MaxPerBlock {
		return bad("shared memory of %d bytes per block (%d static + %d dynamic) exceeds the %d-byte limit (smem.per_cta)",
			smem, s.prog.SharedStatic, l.DynSmem, s.cfg.Smem.MaxPerBlock)
	}
	if need := s.place.ctaRegs((threads + warp.Lanes - 1) / warp.Lanes); need > s.cfg.Limits.Registers {
		return bad("block of %d threads at %d registers a thread needs %d registers, more than the SM's %d (limit.registers)",
			threads, s.prog.RegsPerThread, need, s.cfg.Limits.Registers)
	}
	if len(l.Params) < s.prog.ParamBytes {
		return bad("parameter block of %d bytes is shorter than the kernel's %d", len(l.Params), s.prog.ParamBytes)
	}
	return nil
}

func isLimit(err error) bool {
	var le *sim.LimitError
	return errors.As(err, &le)
}

// Engine returns the engine the SM runs on.
func (s *SM) Engine() *sim.Engine { return s.eng }

func (s *SM) fail(err error) {
	if s.err == nil {
		s.err = err
	}
}

// newWarpEnv fills the special-register values of warp k of c.
func (s *SM) newWarpEnv(c *cta, k int) (warp.Env, uint32) {
	l := s.launch
	var env warp.Env
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	var live uint32
	for lane := 0; lane < warp.Lanes; lane++ {
		t := k*warp.Lanes + lane
		if t >= threads {
			continue
		}
		live |= 1 << lane
		env.Tid[0][lane] = uint64(t % l.Block[0])
		env.Tid[1][lane] = uint64(t / l.Block[0] % l.Block[1])
		env.Tid[2][lane] = uint64(t / (l.Block[0] * l.Block[1]))
	}
	for i := 0; i < 3; i++ {
		env.Ntid[i] = uint32(l.Block[i])
		env.Nctaid[i] = uint32(l.Grid[i])
		env.Ctaid[i] = c.idx[i]
	}
	env.NWarpID = uint32(s.cfg.Limits.Warps)
	env.SMID = uint32(s.smid)
	env.NSMID = uint32(max(s.nsm, 1))
	env.Cluster = s.clusterEnv(c)
	env.DynSmem = uint32(l.DynSmem)
	env.TotSmem = c.smem.Size()
	env.ClockHz = uint64(s.cfg.ClockMHz * 1e6)
	env.CTAIndex = c.id
	env.Banks = s.banks
	return env, live
}

// copyLaunch is what the copy engine needs to know of prog. A SASS
// program reads its parameters with ULDCs the constant caches time; a PTX
// program's copies complete ptxas.copy_completion_pad later, standing in
// for the polling of an elected producer's wait that its SASS would do
// (docs/model.md: the PTX path has no YIELD).
func (s *SM) copyLaunch(prog *isa.Program) tma.Launch {
	if prog.Scheduled {
		return tma.Launch{ParamsRead: prog.UniformRegs > 0}
	}
	return tma.Launch{ParamsRead: prog.UniformRegs > 0, CompletionPad: s.cfg.Ptxas.CopyCompletionPad}
}
