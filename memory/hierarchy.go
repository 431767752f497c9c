package memory

import (
	"fmt"
	"math/bits"

	"github.com/smsim/smsim/sim"
)

// Level is the level of the hierarchy that served an access.
type Level uint8

// Levels, nearest first.
const (
	L1 Level = iota + 1
	L2
	DRAM
)

// String names the level.
func (l Level) String() string {
	switch l {
	case L1:
		return "L1"
	case L2:
		return "L2"
	case DRAM:
		return "DRAM"
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// fixed is a time in 1/256 cycle, so that bandwidth occupancy of small
// transfers (a 64-byte row at 100 B/cycle) accumulates without rounding.
type fixed uint64

const fixedOne = 256

func toFixed(c sim.Cycle) fixed { return fixed(c) * fixedOne }

// ceil is the first whole cycle at or after f.
func (f fixed) ceil() sim.Cycle { return sim.Cycle((f + fixedOne - 1) / fixedOne) }

// Hierarchy is the timing model of one SM's path to memory: L1, TLB, L2,
// the SM↔L2 link and DRAM. It holds tags and occupancy only (data lives in
// Global) and keeps its state across launches, so a second launch sees a
// warm L2. The zero value is not usable; call NewHierarchy.
//
// Bandwidth resources (the link, DRAM) are modelled by the cycle at which
// each becomes free: a transfer of n bytes starting when both the request
// and the resource are ready occupies it for n / bytes-per-cycle cycles, and
// its data is ready a fixed latency after that. Calls may come in any time
// order; a request dated before a resource's free cycle waits for it.
type Hierarchy struct {
	cfg      Config
	l1       cache
	l2       *l2        // shared by the hierarchies of one GPU's SMs (Sibling)
	near     int        // the L2 partition the SM is attached to (SetPartition)
	gpc      *gpcFlight // the lines on their way to the SM's GPC (SetGPC; nil alone)
	tlb      tlb
	full     uint8            // sector mask of a whole line
	linkFree fixed            // SM←L2 read direction
	upFree   [upSources]fixed // SM→L2 request path: each source's backlog (uppath.go)
	upPer    [upSources]int   // packets a request of each source's last booking
	// the last read request (request): its cycle, line and wait
	lastReqAt   sim.Cycle
	lastReqLine uint64
	lastReqWait sim.Cycle
	lastReqSet  bool
	partBytes   []int     // scratch: a bulk transfer's bytes by the partition that serves them
	afterFar    int       // scratch: a bulk read's bytes after its last far line (allocate)
	mergedAt    sim.Cycle // scratch: the latest arrival of a bulk read's lines already in flight to the GPC
	newLines    []uint64  // scratch: a bulk read's lines not in flight to the GPC, delivered with it
	chanFree    []fixed   // each DRAM channel's backlog for this SM's copies (dram.go)
	dramFree    fixed     // the SM's share of DRAM bandwidth (mem.dram_bytes_per_cycle is what one SM sees)
	refresh     refreshClock
	lateSpans   []lateSpan // scratch: a bulk transfer's missed lines whose span was refreshing (noteRefresh)
	fab         *fabric    // the L2 partitions and DRAM the GPU's SMs share; nil for one SM alone
	serial      Serializer
	stats       Stats
}

// NewHierarchy returns a cold hierarchy (empty caches and TLB).
func NewHierarchy(cfg Config) (*Hierarchy, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Hierarchy{
		cfg:       cfg,
		l1:        newCache(cfg.L1Bytes, cfg.LineBytes, cfg.L1Ways),
		l2:        newL2(cfg),
		chanFree:  newChannels(cfg),
		partBytes: make([]int, max(cfg.L2Partitions, 1)),
		tlb:       newTLB(cfg.TLBEntries),
		refresh:   newRefreshClock(cfg),
		full:      uint8(1<<(cfg.LineBytes/cfg.SectorBytes) - 1),
	}, nil
}

// Sibling returns the hierarchy of another SM of the same GPU: its own L1,
// TLB, SM-L2 link and share of DRAM bandwidth (mem.dram_bytes_per_cycle is
// the bandwidth one SM sees), cold, and this one's L2 contents, which all
// the SMs share, with the L2 partitions' and DRAM's bandwidth (fabric).
func (h *Hierarchy) Sibling() *Hierarchy {
	if h.fab == nil {
		h.fab = newFabric(h.cfg)
	}
	return &Hierarchy{
		cfg:       h.cfg,
		l1:        newCache(h.cfg.L1Bytes, h.cfg.LineBytes, h.cfg.L1Ways),
		l2:        h.l2,
		fab:       h.fab,
		chanFree:  newChannels(h.cfg),
		partBytes: make([]int, len(h.partBytes)),
		tlb:       newTLB(h.cfg.TLBEntries),
		refresh:   h.refresh,
		full:      h.full,
	}
}

// Serializer is what the hierarchy of an SM of a GPU calls before it
// touches what the SMs share (the L2's contents, the partitions' and
// DRAM's bandwidth, its GPC's deliveries): the SM's sim.Engine, whose
// Serial lets the SMs run on several host threads with the results of one.
type Serializer interface {
	Serial()
}

// SetSerial makes the hierarchy call s.Serial before it touches what the
// SMs share.
func (h *Hierarchy) SetSerial(s Serializer) { h.serial = s }

// enter is called before the shared state is touched.
func (h *Hierarchy) enter() {
	if h.serial != nil {
		h.serial.Serial()
	}
}

// SetPartition attaches the SM to L2 partition p (0 to L2Partitions-1):
// the lines there are near for it (l2.go).
func (h *Hierarchy) SetPartition(p int) {
	h.near = min(max(p, 0), len(h.partBytes)-1)
}

// Config returns the configuration the hierarchy was built with.
func (h *Hierarchy) Config() Config { return h.cfg }

// Access models one load or store of size bytes at addr issued at now (one
// thread's access, or one line of a coalesced warp access) and returns its
// latency and the farthest level that served it. Loads look up L1, then L2,
// then DRAM, and fill the levels they missed; a line L1 misses sends one
// request up the SM→L2 path (uppath.go) and waits its turn there. Stores
// write through to L2 (Store: their sectors' turn on the request path).
// A load's bandwidth back to the SM is not charged (warp-level throughput
// is the SM's concern).
func (h *Hierarchy) Access(now sim.Cycle, addr uint64, size int, write bool) (sim.Cycle, Level) {
	size = max(size, 1)
	if write {
		var worst sim.Cycle
		h.forLines(addr, size, func(line uint64, _ uint8) {
			ls := line * uint64(h.cfg.LineBytes)
			lo := max(addr, ls)
			mask, partial := h.sectorsOf(ls, lo, int(min(addr+uint64(size), ls+uint64(h.cfg.LineBytes))-lo))
			worst = max(worst, h.Store(now, ls, mask, partial))
		})
		return worst, L2
	}
	h.stats.Loads++
	lat := h.translate(addr, size)
	worst, level := 0, L1
	h.forLines(addr, size, func(line uint64, mask uint8) {
		cost, lvl, part := h.loadLine(line, mask)
		if lvl > L1 {
			cost = h.fromL2(now, line, cost+int(h.request(now, line)), part, mask, lvl == DRAM, true)
		}
		worst, level = max(worst, cost), max(level, lvl)
	})
	return lat + sim.Cycle(worst), level
}

// AccessL2 models a load of size bytes at addr issued at now that bypasses
// L1 (ld.global.cg/.cv, cp.async.cg) and returns its latency and the level
// that served it: the load pipeline (L1HitCycles, the same stages an L1 hit
// goes through) plus the L2 round trip, plus DRAMCycles for sectors L2 does
// not hold. L2 allocates the line; L1 is neither looked up nor filled.
// Measured (calibration/h200/gmem.csv pagesP_l2): 283–308 cycles per L2-hit
// ld.global.cg, against 291 for L1HitCycles + L2Cycles.
func (h *Hierarchy) AccessL2(now sim.Cycle, addr uint64, size int) (sim.Cycle, Level) {
	size = max(size, 1)
	lat := h.translate(addr, size)
	h.stats.Loads++
	worst, level := 0, L2
	h.forLines(addr, size, func(line uint64, mask uint8) {
		extra, lvl, part := h.l2Line(line, mask)
		cost := h.fromL2(now, line, h.cfg.L1HitCycles+h.cfg.L2Cycles+extra+int(h.request(now, line)), part, mask, lvl == DRAM, false) // delivered on its own: no L1 to share it
		worst, level = max(worst, cost), max(level, lvl)
	})
	return lat + sim.Cycle(worst), level
}

// loadLine looks up the sectors mask of one line for a load and returns
// its latency, the level that served it and the L2 partition that did
// (l2Line).
func (h *Hierarchy) loadLine(line uint64, mask uint8) (int, Level, int) {
	if h.l1.access(line, mask) == mask {
		h.stats.L1Hits++
		return h.cfg.L1HitCycles, L1, h.near
	}
	h.stats.L1Misses++
	extra, lvl, part := h.l2Line(line, mask)
	return h.cfg.L1MissCycles + h.cfg.L2Cycles + extra, lvl, part
}

// l2Line looks up the sectors mask of one line in L2 for a load that reached
// it, allocates them, and returns what the far partition and DRAM add, the
// level that served it and the partition: the SM's near one, or the line's
// home when the read crossed to it (l2.go).
func (h *Hierarchy) l2Line(line uint64, mask uint8) (int, Level, int) {
	h.enter()
	miss, far := h.l2.read(line, mask, h.near)
	h.countL2(miss)
	extra, part := 0, h.near
	if far {
		h.stats.FarReads++
		extra, part = h.cfg.L2FarCycles, h.l2.home(line)
	}
	if miss != 0 {
		return extra + h.cfg.DRAMCycles, DRAM, part
	}
	return extra, L2, part
}

// shared is the wait at the GPU's shared resources (fabric) of the sectors
// mask of a line requested at now: its turn at the L2 partition part that
// serves it and,
// if fromDRAM, then at DRAM. Zero for one SM alone.
func (h *Hierarchy) shared(now sim.Cycle, part int, mask uint8, fromDRAM bool) sim.Cycle {
	h.enter()
	if h.fab == nil {
		return 0
	}
	n := bits.OnesCount8(mask) * h.cfg.SectorBytes
	w := h.fab.l2(now, part, n)
	if fromDRAM {
		w += h.fab.dram(now+w, n)
	}
	return w
}

// occupy reserves a bandwidth resource for n bytes from cycle t (or from
// when it becomes free) and returns the cycle at which the transfer ends.
func occupy(free *fixed, t sim.Cycle, n, perCycle int) sim.Cycle {
	start := max(toFixed(t), *free)
	*free = start + fixed((uint64(n)*fixedOne+uint64(perCycle)-1)/uint64(perCycle))
	return free.ceil()
}

// translate looks up the TLB pages of [addr, addr+size) and returns the
// miss penalty: TLBMissCycles if any page missed (walks of neighbouring pages
// overlap), else 0.
func (h *Hierarchy) translate(addr uint64, size int) sim.Cycle {
	ps := uint64(h.cfg.TLBPageBytes)
	miss := false
	for p := addr / ps; p <= (addr+uint64(size)-1)/ps; p++ {
		if !h.tlb.access(p) {
			miss = true
			h.stats.TLBMisses++
		}
	}
	if miss {
		return sim.Cycle(h.cfg.TLBMissCycles)
	}
	return 0
}

// lines is how many lines [addr, addr+size) touches.
func (h *Hierarchy) lines(addr uint64, size int) int {
	lb := uint64(h.cfg.LineBytes)
	return int((addr+uint64(size)-1)/lb - addr/lb + 1)
}

// forLines calls fn for each line [addr, addr+size) touches, with the mask
// of the sectors it touches in that line.
func (h *Hierarchy) forLines(addr uint64, size int, fn func(line uint64, mask uint8)) {
	lb, sb := uint64(h.cfg.LineBytes), uint64(h.cfg.SectorBytes)
	end := addr + uint64(size)
	for a := addr; a < end; {
		lineStart := a &^ (lb - 1)
		stop := min(end, lineStart+lb)
		first, last := (a-lineStart)/sb, (stop-1-lineStart)/sb
		fn(a/lb, uint8(uint(1)<<(last+1)-uint(1)<<first))
		a = stop
	}
}

func (h *Hierarchy) countL2(miss uint8) {
	if miss != 0 {
		h.stats.L2Misses++
	} else {
		h.stats.L2Hits++
	}
}

// Warm installs [addr, addr+size) in L2 as most recently used, in address
// order, as a host copy of the range leaves it: each line at its home
// partition alone (l2.go), so that a read from the other partition's side
// pays the hop (calibration/h200/l1tlb.csv warm rows: a chase of 2 MiB the
// host copied in takes 380 cycles a load, 294 once a launch read it; half
// the lines are far, at 180 more). Only the last half of L2Bytes of the
// range survives such a copy: one thread's random chase over 32, 64 and 128
// MiB the host copied in takes 416, 538 and 600 cycles a load (gmem.csv
// footprint rows), what 28-29 MiB of L2 hits among DRAM reads give.
func (h *Hierarchy) Warm(addr uint64, size uint64) {
	if keep := uint64(h.cfg.L2Bytes / 2); size > keep {
		addr, size = addr+size-keep, keep
	}
	lb := uint64(h.cfg.LineBytes)
	for line := addr / lb; size > 0 && line <= (addr+size-1)/lb; line++ {
		h.l2.host(line, h.full)
	}
}

// Flush empties L2 and L1, as the calibration host's 256 MiB memset does
// before the DRAM rows. The TLB keeps its entries.
func (h *Hierarchy) Flush() {
	h.l2.clear()
	h.l1.clear()
}

// NewLaunch starts a kernel launch whose shared-memory carve-out leaves
// l1Bytes of L1 (L1BytesFor). L1 starts it empty: it is not coherent with
// other SMs' writes, so a launch invalidates it (calibration/h200/
// sassprobe.csv relaunch_fp16: 16 KiB that hit L1 at 39.7 cycles a load in
// one launch take 281 in the next). L2 and the TLBs keep their state.
func (h *Hierarchy) NewLaunch(l1Bytes int) {
	if l1Bytes <= 0 || l1Bytes == h.cfg.L1Bytes {
		h.l1.clear()
		return
	}
	h.cfg.L1Bytes = max(l1Bytes, h.cfg.LineBytes*h.cfg.L1Ways)
	h.l1 = newCache(h.cfg.L1Bytes, h.cfg.LineBytes, h.cfg.L1Ways)
}

// Stats returns a copy of the counters.
func (h *Hierarchy) Stats() Stats { return h.stats }
