package gpu

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
	"github.com/smsim/smsim/tma"
)

// GPU is N SMs of one configuration, each with its own event engine, run
// together by a sim.Group.
type GPU struct {
	cfg   sm.Config
	eng   *sim.Engine // the dispatcher's
	clock *sim.Group  // the dispatcher's engine, then the SMs' in dispatch order
	sms   []*sm.SM
	gpcs  [][]int // the SMs of each GPC
	order []int   // the SMs in the order CTAs are given to them (dispatchOrder)
	d     dispatcher
	// threads bounds the host threads a launch may use (0: every core):
	// the tensor cores' arithmetic runs on all but one (sm.MMAWorkers).
	threads int
	// smThreadsAsked is how many host threads the SMs themselves run on
	// (sim.Group), within threads; one unless asked (≤ 1), since the SMs'
	// turns cost more than they save on many-core hosts (docs/parallel.md).
	smThreadsAsked int
	recs           []*recorder // each SM's observer while the SMs run (nil: none)
	recording      bool        // the SMs are running: their observers' calls are kept
}

// SetThreads bounds the host threads a launch may use (0: every core).
func (g *GPU) SetThreads(n int) { g.threads = n }

// SetSMThreads runs the SMs on up to n host threads, within SetThreads'
// bound (n ≤ 1, the default: one).
func (g *GPU) SetSMThreads(n int) { g.smThreadsAsked = n }

// Memory is what the SMs share: functional global memory (sm.GlobalMemory
// and tma.GlobalMem) and the first SM's timing hierarchy, whose L2 and DRAM
// the others' siblings share.
type Memory interface {
	sm.GlobalMemory
	tma.GlobalMem
}

// New builds a GPU of n SMs of cfg over global memory gm; h is the first
// SM's memory path (the others get h.Sibling()).
func New(cfg sm.Config, n int, gm Memory, h *memory.Hierarchy) (*GPU, error) {
	if n < 1 || n > cfg.GPU.SMs {
		return nil, fmt.Errorf("gpu: %d SMs: want 1..%d (gpu.sms)", n, cfg.GPU.SMs)
	}
	g := &GPU{cfg: cfg, eng: sim.New()}
	var engs []*sim.Engine // by SM
	var paths []*memory.Hierarchy
	for i := 0; i < n; i++ {
		path := h
		if i > 0 {
			path = h.Sibling()
		}
		path.SetPartition(partitionOf(i, cfg.Mem.L2Partitions))
		paths = append(paths, path)
		eng := sim.New()
		engs = append(engs, eng)
		path.SetSerial(eng)
		mem := smMemory(gm, eng)
		s, err := sm.New(cfg, eng, mem, path)
		if err != nil {
			return nil, err
		}
		if err := s.AttachTMA(mem, path); err != nil {
			return nil, err
		}
		s.SetPlace(i, n, &g.d)
		g.sms = append(g.sms, s)
	}
	g.gpcs = layout(cfg.GPU, n)
	g.order = dispatchOrder(g.gpcs)
	g.clock = sim.NewGroup(clockOrder(g.eng, engs, g.order)...)
	for i, path := range paths {
		path.SetGPC(cfg.GPU.GPCOf(i)) // after the first Sibling gave the GPU its fabric
	}
	g.d.g = g
	return g, nil
}

// clockOrder is the order in which the engines run within a cycle: the
// dispatcher's, then the SMs' in the order CTAs are given to them, which
// takes the GPCs in turn. Where the SMs run on several threads, SM k waits
// for the SMs before it in this order to finish the cycle before it
// touches what they share; with the GPCs interleaved, the SMs of one GPC,
// which a cluster launch keeps on one thread, are not all behind another
// GPC's.
func clockOrder(dispatcher *sim.Engine, bySM []*sim.Engine, order []int) []*sim.Engine {
	engs := []*sim.Engine{dispatcher}
	for _, i := range order {
		engs = append(engs, bySM[i])
	}
	return engs
}

// partitionOf is the L2 partition SM i is attached to (memory/l2.go): the
// TPCs (two SMs) alternate between the partitions, so that the SMs split
// evenly between them, as the H200's 66 and 66 do (calibration/h200/
// l2near.csv side rows). On the H200 a GPC's SMs share a side (the four CTAs
// of each cluster of cluster.csv's place rows do); smsim's GPCs
// (gpu.gpc_sms: 18, 18, 18, 18, 18, 16, 16, 10) cannot be split 66 and 66
// whole, and the bandwidth each partition serves follows the count of SMs
// on its side, so the TPCs alternate instead.
func partitionOf(i, partitions int) int {
	return i / 2 % max(partitions, 1)
}

// dispatchOrder is the order in which CTAs are given to the SMs: a TPC of
// each GPC in turn, both its SMs, then the GPCs' next TPCs, so that
// consecutive CTAs land in different GPCs, as on the H200: there 16 CTAs
// of one thread take one TPC of each of eight GPCs (calibration/h200/
// cluster.csv place,smid_c1_g264: %smid 126 128 130 124 0 2 4 … 14, then
// 127 129 … 15, each run of 16 %smid one TPC of each GPC), and 66 CTAs of
// l2bw.cu about 8 in each GPC (l2bw_cta.csv). Which SMs of a GPC come first
// differs between those two kernels; what the GPCs' shares of the L2's
// delivery see is how many CTAs each GPC holds (memory/gpcmerge.go).
func dispatchOrder(gpcs [][]int) []int {
	var order []int
	for tpc := 0; ; tpc++ {
		n := len(order)
		for half := 0; half < 2; half++ {
			for _, g := range gpcs {
				if i := 2*tpc + half; i < len(g) {
					order = append(order, g[i])
				}
			}
		}
		if len(order) == n {
			return order
		}
	}
}

// layout groups SMs 0..n-1 into the GPCs of spec (gpu.gpc_sms), in SM order.
func layout(spec sm.GPUSpec, n int) [][]int {
	var gpcs [][]int
	for i := 0; i < n; i++ {
		k := spec.GPCOf(i)
		for len(gpcs) <= k {
			gpcs = append(gpcs, nil)
		}
		gpcs[k] = append(gpcs[k], i)
	}
	out := gpcs[:0]
	for _, g := range gpcs {
		if len(g) > 0 {
			out = append(out, g)
		}
	}
	return out
}

// SMs returns the GPU's SMs, in SM order.
func (g *GPU) SMs() []*sm.SM { return g.sms }

// PerSM is an observer that can observe several SMs: ForSM(i) observes SM
// i (report.Timeline gives each SM its own process).
type PerSM interface {
	ForSM(i int) sm.Observer
}

// SetObserver attaches an observer: to every SM through ForSM when it is
// a PerSM, else to SM 0.
// The SMs' calls reach it in one order, from one goroutine, whatever the
// number of host threads (recorder).
func (g *GPU) SetObserver(o sm.Observer) {
	if o == nil {
		return
	}
	g.recs = make([]*recorder, len(g.sms))
	p, ok := o.(PerSM)
	for i, s := range g.sms {
		var to sm.Observer
		switch {
		case ok:
			to = p.ForSM(i)
		case i == 0:
			to = o
		default:
			continue
		}
		g.recs[i] = &recorder{to: to, on: &g.recording}
		s.SetObserver(g.recs[i])
	}
	g.clock.SetAfterPass(g.replay)
}

// Result is a launch's outcome on the GPU: the merged report and each SM's.
type Result struct {
	*sm.Result
	PerSM []*sm.Result
}

// Run executes one launch on the GPU's SMs and returns its report: the
// kernel's cycles are the last SM's, the statistics their sums.
func (g *GPU) Run(l *sm.Launch) (*Result, error) {
	g.clock.Align() // a launch starts every SM's clock where the last one ended
	if err := g.d.begin(l); err != nil {
		return nil, err
	}
	if err := g.sms[0].Begin(l); err != nil {
		return nil, err
	}
	for _, s := range g.sms[1:] {
		if err := s.BeginLike(l, g.sms[0]); err != nil { // the first's decoded program
			return nil, err
		}
	}
	mma := sm.NewMMAWorkers(g.threads) // one set of workers for every SM's wgmmas
	for _, s := range g.sms {
		s.ShareMMAWorkers(mma)
	}
	g.clock.SetThreads(g.smThreads())
	if l.Cluster != [3]int{} {
		g.clock.SetUnits(g.gpcUnits())
	}
	defer g.clock.Stop()
	start := g.eng.Now()
	err := g.d.fill(start) // the first wave, at once
	if err == nil {
		g.recording = true
		err = sm.RunPast(g.clock, g.sms[0].Limit(), g.done)
		g.recording = false
		g.replay()
	}
	if g.clock.Faulted() {
		mma.Close()
		return nil, ErrRedoOnOneThread
	}
	res := &Result{}
	var first error
	for _, s := range g.sms {
		r, e := s.Finish(err)
		res.PerSM = append(res.PerSM, r)
		if e != nil && first == nil {
			first = e
		}
	}
	mma.Close()
	res.Result = merge(res.PerSM)
	return res, first
}

// ErrRedoOnOneThread says a launch whose SMs ran on several host threads
// failed in a way that leaves other SMs a cycle ahead of where one thread
// would have stopped them (sim.Group.Faulted): its report would not be the
// exact one, and the whole job must be run again on one thread.
var ErrRedoOnOneThread = errors.New("gpu: a launch on several threads failed; run it again on one thread for its exact report")

// smThreads is how many host threads the SMs run on: SetSMThreads' count
// within the GPU's threads (0: every core), and one where the dispatcher
// starts CTAs the moment one retires (gpu.cta_launch_ns 0: from within an
// SM's cycle).
func (g *GPU) smThreads() int {
	bound := g.threads
	if bound <= 0 {
		bound = runtime.GOMAXPROCS(0)
	}
	if g.smThreadsAsked <= 1 || g.d.launch == 0 {
		return 1
	}
	return min(g.smThreadsAsked, bound, len(g.sms))
}

// gpcUnits gives each engine of the clock its SM's GPC as the unit whose
// engines share a thread (the dispatcher's its own): a cluster's CTAs,
// which act on each other's shared memory, barriers and copy engines
// within a cycle, run on SMs of one GPC.
func (g *GPU) gpcUnits() []int {
	units := []int{len(g.gpcs)}
	for _, i := range g.order {
		units = append(units, g.cfg.GPU.GPCOf(i))
	}
	return units
}

// done reports whether every SM has finished the launch.
func (g *GPU) done() bool {
	for _, s := range g.sms {
		if !s.Done() {
			return false
		}
	}
	return true
}

// merge folds the SMs' reports into one: the longest SM's cycles, summed
// statistics, every SM's warps, barriers and warnings.
func merge(rs []*sm.Result) *sm.Result {
	m := &sm.Result{}
	seen := map[string]bool{}
	for i, r := range rs {
		if r == nil {
			continue
		}
		m.SMs = append(m.SMs, smReport(i, r))
		m.Kernel = r.Kernel
		m.Cycles = max(m.Cycles, r.Cycles)
		m.Stats = addStats(m.Stats, r.Stats)
		m.Copies = addCopies(m.Copies, r.Copies)
		m.Warps = append(m.Warps, r.Warps...)
		m.Barriers = append(m.Barriers, r.Barriers...)
		for _, w := range r.Warnings {
			if !seen[w] {
				seen[w] = true
				m.Warnings = append(m.Warnings, w)
			}
		}
	}
	m.Stats.Cycles = m.Cycles
	sortReports(m)
	return m
}

// smReport is SM i's share of the launch: its cycles, counters and its
// warps' stalls.
func smReport(i int, r *sm.Result) sm.SMReport {
	s := sm.SMReport{SM: i, Cycles: r.Cycles, Stats: r.Stats, Copies: r.Copies}
	for _, w := range r.Warps {
		for k, v := range w.Stalls {
			s.Stalls[k] += v
		}
		if w.CTA >= 0 && !slices.Contains(s.CTAs, w.CTA) {
			s.CTAs = append(s.CTAs, w.CTA)
		}
	}
	slices.Sort(s.CTAs)
	return s
}

func addStats(a, b sm.Stats) sm.Stats {
	return sm.Stats{
		WarpInstructions: a.WarpInstructions + b.WarpInstructions, ThreadInstrs: a.ThreadInstrs + b.ThreadInstrs,
		CTAs: a.CTAs + b.CTAs, WarpsLaunched: a.WarpsLaunched + b.WarpsLaunched, SyncsUpdates: a.SyncsUpdates + b.SyncsUpdates,
		SyncsWaits: a.SyncsWaits + b.SyncsWaits, SmemWavefronts: a.SmemWavefronts + b.SmemWavefronts,
		GlobalAccesses: a.GlobalAccesses + b.GlobalAccesses, Ticks: a.Ticks + b.Ticks,
	}
}

func addCopies(a, b tma.Stats) tma.Stats {
	return tma.Stats{Loads: a.Loads + b.Loads, TensorLoads: a.TensorLoads + b.TensorLoads, Stores: a.Stores + b.Stores,
		TensorStores: a.TensorStores + b.TensorStores, Reductions: a.Reductions + b.Reductions, Prefetches: a.Prefetches + b.Prefetches,
		BytesLoaded: a.BytesLoaded + b.BytesLoaded, BytesStored: a.BytesStored + b.BytesStored, OOBBytes: a.OOBBytes + b.OOBBytes,
		DRAMBytes: a.DRAMBytes + b.DRAMBytes, BusyCycles: a.BusyCycles + b.BusyCycles, QueueFullIssues: a.QueueFullIssues + b.QueueFullIssues,
		DescriptorMisses: a.DescriptorMisses + b.DescriptorMisses}
}

// sortReports orders the merged warps and barriers by CTA, as one SM's are.
func sortReports(m *sm.Result) {
	sort.SliceStable(m.Warps, func(i, j int) bool {
		a, b := m.Warps[i], m.Warps[j]
		if a.CTA != b.CTA {
			return a.CTA < b.CTA
		}
		return a.InCTA < b.InCTA
	})
	sort.SliceStable(m.Barriers, func(i, j int) bool { return m.Barriers[i].CTA < m.Barriers[j].CTA })
}
