package report

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/stat"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// Report is the JSON document of one run (design brief: kernel, cycles,
// barriers with phases, warps, dumps, sim).
type Report struct {
	Kernel   string           `json:"kernel"`         // as the source names it (a demangled C++ declaration)
	Mangled  string           `json:"kernel_mangled"` // the linker name, as the input spells it
	File     string           `json:"file"`
	Config   string           `json:"config"`
	Launch   Launch           `json:"launch"`
	Cycles   uint64           `json:"cycles"`
	Barriers []Barrier        `json:"barriers"`
	Warps    []Warp           `json:"warps"`
	Dumps    map[string][]any `json:"dumps"`
	Warnings []string         `json:"warnings"`
	TMA      *TMA             `json:"tma,omitempty"`
	// SMs is the share of each SM that ran a CTA, for a launch on several
	// SMs (--sms, clusters).
	SMs []SM `json:"sms,omitempty"`
	// Clusters is each cluster's share of a cluster launch.
	Clusters []Cluster `json:"clusters,omitempty"`
	// Instructions is the per-instruction profile (--profile, --report instructions).
	Instructions []Instr            `json:"instructions,omitempty"`
	Sim          Sim                `json:"sim"`
	Error        *Error             `json:"error,omitempty"`
	stalls       map[string]float64 // totals for the table
	dumps        []run.Dump         // Dumps in --dump order, for the table and CSV
}

// Launch is the launch a report describes.
type Launch struct {
	Block    [3]int   `json:"block"`
	Grid     [3]int   `json:"grid"`
	Smem     int      `json:"smem"`
	Launches int      `json:"launches"`
	Args     []string `json:"args"`
}

// Sim is the simulator's own figures: host time and speed.
type Sim struct {
	HostSeconds      float64 `json:"host_seconds"`
	WarpInstructions uint64  `json:"warp_instructions"`
	InstrPerSecond   float64 `json:"warp_instructions_per_second"`
	CyclesPerSecond  float64 `json:"cycles_per_second"`
	SimulatedCycles  uint64  `json:"simulated_cycles"`
	Ticks            uint64  `json:"scheduler_ticks"`
}

// TMA counts the launch's bulk and tensor copies (the TMA unit's
// counters); absent when the kernel made none.
type TMA struct {
	Loads             uint64 `json:"loads"`
	TensorLoads       uint64 `json:"tensor_loads"`
	Stores            uint64 `json:"stores"`
	TensorStores      uint64 `json:"tensor_stores"`
	Reductions        uint64 `json:"reductions"`
	Prefetches        uint64 `json:"prefetches"`
	BytesLoaded       uint64 `json:"bytes_loaded"`
	BytesStored       uint64 `json:"bytes_stored"`
	OOBBytes          uint64 `json:"oob_bytes"`
	DRAMBytes         uint64 `json:"dram_bytes"`
	DescriptorFetches uint64 `json:"descriptor_fetches"`
	BusyCycles        uint64 `json:"front_end_busy_cycles"`
	QueueFullIssues   uint64 `json:"queue_full_issues"`
}

// SM is one SM's share of a launch on several SMs: the CTAs it ran, its
// last busy cycle, its warp instructions, the bytes its copy engine
// loaded, and its warps' stall cycles by reason.
type SM struct {
	SM               int               `json:"sm"`
	CTAs             uint64            `json:"ctas"`
	Cycles           uint64            `json:"cycles"`
	WarpInstructions uint64            `json:"warp_instructions"`
	BytesLoaded      uint64            `json:"copy_bytes_loaded"`
	Stalls           map[string]uint64 `json:"stalls"`
	CTAIDs           []int             `json:"cta_ids"` // the CTAs it ran (of those the report lists)
}

// Cluster is one thread-block cluster's share of a launch: its CTAs, the
// SMs they ran on, its latest warp's end, its warp instructions, the thread
// arrivals on its barriers that came from its other CTAs (in the listed
// phases) and its warps' stall cycles by reason.
type Cluster struct {
	Cluster          int               `json:"cluster"`
	CTAs             []int             `json:"ctas"`
	SMs              []int             `json:"sms"`
	Cycles           uint64            `json:"cycles"`
	WarpInstructions uint64            `json:"warp_instructions"`
	RemoteArrivals   uint64            `json:"remote_arrivals"`
	Stalls           map[string]uint64 `json:"stalls"`
}

// Error is the diagnostic that stopped a run (ErrorOf).
type Error struct {
	Kind    string   `json:"kind"`
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Detail  []string `json:"detail,omitempty"`
}

// Barrier is one barrier of one CTA (or, folded, of the CTAs past
// sm.ReportCTAs) with its phases and their totals.
type Barrier struct {
	Name            string    `json:"name"`           // the source's name: pipe_bench::full[1]
	Symbol          string    `json:"symbol"`         // as the input spells it: _ZZ10pipe_benchE4full+8 (smem+0xN outside every variable)
	CTA             int       `json:"cta"`            // -1: the CTAs past sm.ReportCTAs, folded
	CTAs            int       `json:"ctas,omitempty"` // a folded record: how many CTAs
	Addr            uint32    `json:"addr"`
	Expected        uint32    `json:"expected"`
	PhaseCount      int       `json:"phase_count"`
	StallCycles     uint64    `json:"stall_cycles"`
	UpdatesPerPhase float64   `json:"updates_per_phase"`
	PhaseCycles     Summary   `json:"phase_cycles"`
	WaitCycles      Summary   `json:"wait_cycles"`
	Phases          []Phase   `json:"phases"`
	Unlisted        *Unlisted `json:"unlisted,omitempty"`
}

// Unlisted counts the phases a barrier record does not list (past
// sm.ReportPhases or the launch's sm.ReportPhaseBudget, or all of a folded
// record's); the record's totals include them.
type Unlisted struct {
	Phases      uint64 `json:"phases"`
	Completed   uint64 `json:"completed"`
	Arrivals    uint64 `json:"arrivals"`
	Updates     uint64 `json:"updates"`
	TxBytes     uint64 `json:"tx_bytes"`
	Waits       uint64 `json:"waits"`
	StallCycles uint64 `json:"stall_cycles"`
	// UpdatesPerWarp is the mean over the completed phases of updates per
	// arriving warp (as the listed phases' updates_per_warp).
	UpdatesPerWarp float64 `json:"updates_per_warp"`
}

// Summary is the mean, median, 95th percentile and maximum of a sample.
type Summary struct {
	Mean float64 `json:"mean"`
	P50  float64 `json:"p50"`
	P95  float64 `json:"p95"`
	Max  float64 `json:"max"`
}

// Phase is one phase of a barrier: when it opened and completed, what
// arrived, what completed it and who waited how long.
type Phase struct {
	Phase          uint64  `json:"phase"`
	Opened         uint64  `json:"opened"`
	Completed      int64   `json:"completed"`
	Duration       int64   `json:"duration"`
	Arrivals       uint64  `json:"arrivals"`
	Updates        uint64  `json:"updates"`
	ArrivingWarps  int     `json:"arriving_warps"`
	UpdatesPerWarp float64 `json:"updates_per_warp"`
	TxBytes        uint64  `json:"tx_bytes"`
	CompletedBy    string  `json:"completed_by"`
	LastArriver    *Arrive `json:"last_arriver"`
	StallCycles    uint64  `json:"stall_cycles"`
	Waits          []Wait  `json:"waits"`
	// Arrivals from other CTAs of a cluster: thread arrivals and the
	// cluster ranks they came from (absent without any).
	RemoteArrivals uint64 `json:"remote_arrivals,omitempty"`
	RemoteRanks    []int  `json:"remote_ranks,omitempty"`
}

// Arrive is an arrival: the warp, its lanes, the source position and cycle.
type Arrive struct {
	Warp  int    `json:"warp"`
	Lanes string `json:"lanes"`
	Pos   string `json:"pos"`
	Cycle uint64 `json:"cycle"`
	CTA   *int   `json:"cta,omitempty"` // the arriving CTA, when another of the cluster (Warp is then a slot of its SM)
}

// Wait is one warp's stall cycles in a phase.
type Wait struct {
	Warp   int    `json:"warp"`
	Cycles uint64 `json:"cycles"`
}

// Warp is one warp (or, folded, warp warp_in_cta of the CTAs past
// sm.ReportCTAs): its instructions, lifetime and cycles by stall reason.
type Warp struct {
	Warp         int               `json:"warp"` // -1: a folded record
	CTA          int               `json:"cta"`  // -1: warp warp_in_cta of every CTA past sm.ReportCTAs
	Warps        int               `json:"warps,omitempty"`
	WarpInCTA    int               `json:"warp_in_cta"`
	Instructions uint64            `json:"instructions"`
	Start        uint64            `json:"start"`
	End          uint64            `json:"end"`
	Stalls       map[string]uint64 `json:"stalls"`
}

// Build makes the report of a job's outcome: the last launch's barriers,
// phases and warps, the dumps, the TMA counters and the simulator's speed.
func Build(j *run.Job, out *run.Outcome) *Report {
	r := &Report{Kernel: j.Prog.Title(), Mangled: j.Prog.Name, File: j.Source.File, Config: j.Config.Name,
		Launch:   Launch{Block: j.Block, Grid: j.Grid, Smem: j.Smem, Launches: j.Launches, Args: j.Args},
		Dumps:    map[string][]any{},
		Warnings: []string{}, Barriers: []Barrier{}, Warps: []Warp{}, stalls: map[string]float64{}}
	if r.Launch.Args == nil {
		r.Launch.Args = []string{}
	}
	for _, d := range out.Dumps {
		r.Dumps[d.Name] = d.Values
	}
	r.dumps = out.Dumps
	res := out.Result
	if res == nil {
		return r
	}
	r.Cycles = res.Cycles
	r.Warnings = append(r.Warnings, res.Warnings...)
	for _, b := range res.Barriers {
		jb := barrierJSON(b)
		jb.Symbol = linkName(j.Prog, b.Addr)
		r.Barriers = append(r.Barriers, jb)
	}
	for _, w := range res.Warps {
		jw := Warp{Warp: w.Warp, CTA: w.CTA, WarpInCTA: w.InCTA, Instructions: w.Instructions,
			Start: w.Start, End: w.End, Stalls: map[string]uint64{}}
		if w.CTA < 0 {
			jw.Warps = w.Warps
		}
		for k := 0; k < sm.NumReasons; k++ {
			jw.Stalls[sm.Reason(k).String()] = w.Stalls[k]
			r.stalls[sm.Reason(k).String()] += float64(w.Stalls[k])
		}
		r.Warps = append(r.Warps, jw)
	}
	if c := res.Copies; c.Loads+c.TensorLoads+c.Stores+c.TensorStores+c.Prefetches > 0 {
		r.TMA = &TMA{Loads: c.Loads, TensorLoads: c.TensorLoads, Stores: c.Stores, TensorStores: c.TensorStores,
			Reductions: c.Reductions, Prefetches: c.Prefetches, BytesLoaded: c.BytesLoaded, BytesStored: c.BytesStored, OOBBytes: c.OOBBytes,
			DRAMBytes: c.DRAMBytes, DescriptorFetches: c.DescriptorMisses, BusyCycles: c.BusyCycles,
			QueueFullIssues: c.QueueFullIssues}
	}
	for _, s := range res.SMs {
		if s.Stats.CTAs == 0 {
			continue // an SM the launch left idle
		}
		js := SM{SM: s.SM, CTAs: s.Stats.CTAs, Cycles: s.Cycles, WarpInstructions: s.Stats.WarpInstructions,
			BytesLoaded: s.Copies.BytesLoaded, Stalls: map[string]uint64{}}
		for k := 0; k < sm.NumReasons; k++ {
			js.Stalls[sm.Reason(k).String()] = s.Stalls[k]
		}
		js.CTAIDs = s.CTAs
		r.SMs = append(r.SMs, js)
	}
	r.Clusters = clusters(j.Grid, j.Cluster, r)
	secs := out.Host.Seconds()
	r.Sim = Sim{HostSeconds: secs, WarpInstructions: res.Stats.WarpInstructions,
		SimulatedCycles: res.Cycles, Ticks: res.Stats.Ticks}
	if secs > 0 {
		r.Sim.InstrPerSecond = float64(res.Stats.WarpInstructions) / secs
		r.Sim.CyclesPerSecond = float64(res.Cycles) / secs
	}
	return r
}

// linkName names shared offset addr as the input file spells its
// variables: the linker name and a byte offset.
func linkName(p *isa.Program, addr uint32) string {
	if y, ok := p.SymbolAt(isa.Shared, uint64(addr)); ok {
		return y.LinkAt(uint64(addr) - y.Offset)
	}
	return fmt.Sprintf("smem+0x%x", addr)
}

func barrierJSON(b sm.BarrierReport) Barrier {
	jb := Barrier{Name: b.Name, CTA: b.CTA, Addr: b.Addr, Expected: b.Expected, Phases: []Phase{}}
	var durs, waits []float64
	var updates float64
	completed := 0
	for _, p := range b.Phases {
		jp := Phase{Phase: p.Phase, Opened: p.Opened, Completed: p.Completed, Duration: -1,
			Arrivals: p.Arrivals, Updates: p.Updates, ArrivingWarps: p.ArrivingWarps, TxBytes: p.TxBytes,
			CompletedBy: p.CompletedBy, Waits: []Wait{}}
		if p.Completed >= 0 {
			jp.Duration = p.Completed - int64(p.Opened)
			durs = append(durs, float64(jp.Duration))
			updates += float64(p.Updates)
			completed++
		}
		if p.ArrivingWarps > 0 {
			jp.UpdatesPerWarp = float64(p.Updates) / float64(p.ArrivingWarps)
		}
		if p.LastArriver.Lanes != 0 {
			a := p.LastArriver
			jp.LastArriver = &Arrive{Warp: a.Warp, Lanes: sm.LaneList(a.Lanes), Pos: a.Pos.String(), Cycle: a.Cycle}
			if a.Remote {
				cta := a.CTA
				jp.LastArriver.CTA = &cta
			}
		}
		jp.RemoteArrivals = p.RemoteArrivals
		for r := 0; r < 32; r++ {
			if p.RemoteRanks>>r&1 != 0 {
				jp.RemoteRanks = append(jp.RemoteRanks, r)
			}
		}
		for _, w := range p.Waits {
			jp.Waits = append(jp.Waits, Wait{Warp: w.Warp, Cycles: w.Cycles})
			jp.StallCycles += w.Cycles
			waits = append(waits, float64(w.Cycles))
		}
		jb.StallCycles += jp.StallCycles
		jb.Phases = append(jb.Phases, jp)
	}
	jb.PhaseCount = completed
	jb.PhaseCycles = Summarize(durs)
	jb.WaitCycles = Summarize(waits)
	if u := b.Unlisted; u.Phases > 0 || u.Waits > 0 {
		jb.Unlisted = &Unlisted{Phases: u.Phases, Completed: u.Completed, Arrivals: u.Arrivals, Updates: u.Updates,
			TxBytes: u.TxBytes, Waits: u.Waits, StallCycles: u.StallCycles}
		if u.Completed > 0 {
			jb.Unlisted.UpdatesPerWarp = u.UpdatesPerWarp / float64(u.Completed)
		}
		jb.StallCycles += u.StallCycles
		updates += float64(u.Updates)
		jb.PhaseCount += int(u.Completed)
		jb.PhaseCycles = withUnlisted(jb.PhaseCycles, len(durs), u.Completed, u.Cycles, u.MaxCycles)
		jb.WaitCycles = withUnlisted(jb.WaitCycles, len(waits), u.Waits, u.StallCycles, u.MaxWait)
	}
	if b.CTA < 0 {
		jb.CTAs = b.CTAs
	}
	if jb.PhaseCount > 0 {
		jb.UpdatesPerPhase = updates / float64(jb.PhaseCount)
	}
	return jb
}

// withUnlisted extends a summary of n listed values by m unlisted ones of
// the given sum and maximum: the mean and maximum cover all of them; the
// percentiles stay those of the listed values (the unlisted are not kept).
func withUnlisted(s Summary, n int, m, sum, most uint64) Summary {
	if m == 0 {
		return s
	}
	s.Mean = (s.Mean*float64(n) + float64(sum)) / (float64(n) + float64(m))
	s.Max = max(s.Max, float64(most))
	return s
}

// Summarize computes mean, median, 95th percentile and maximum with gonum.
func Summarize(x []float64) Summary {
	if len(x) == 0 {
		return Summary{}
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return Summary{
		Mean: stat.Mean(s, nil),
		P50:  stat.Quantile(0.5, stat.Empirical, s, nil),
		P95:  stat.Quantile(0.95, stat.Empirical, s, nil),
		Max:  s[len(s)-1],
	}
}

// ErrorOf is the report's error object for a run stopped by a diagnostic
// (deadlock, misuse, limit); nil for any other error.
func ErrorOf(err error) *Error {
	d, ok := err.(*sm.Diag)
	if !ok {
		return nil
	}
	return &Error{Kind: d.Kind.String(), Code: d.Code, Message: d.Error(), Detail: d.Detail}
}
