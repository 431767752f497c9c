package sm

import (
	"math"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// lsu is the load/store unit's timing: when a shared-memory or global access
// has its data. A sub-partition's shared accesses go through its shared pipe
// behind the MIO queue (the scheduler's lsuFree and shared pipe), global ones
// hold its LSU pipe, and both pass the SM's one data array, one 128-byte
// wavefront a cycle, whose cycles the copy engine's bulk-store reads share
// (ShareArray). The memory path (caches, TLB, DRAM) times each line of a
// global access. What an access reads and writes is the SM's (mem.go).
type lsu struct {
	spec  lsuSpec
	path  MemoryPath // nil: every access is an L1 hit
	store storePath  // path's store side, if it has one

	smemFree sim.Cycle     // when the data array can serve the next wavefront
	arrayUse []arrayWindow // bulk stores' reads of the data array, in the future
}

// lsuSpec is what the unit's timing reads of the configuration.
type lsuSpec struct {
	smem          sharedmem.Config
	sharedLatency sim.Cycle // latency.shared
	sharedIvl     int       // interval.shared: the shared pipe starts an access this often
	globalIvl     int       // interval.global: the LSU pipe's hold of a global access
	lineBytes     int       // mem.line_bytes
	l1Hit         sim.Cycle // mem.l1_hit: without a memory path
	perLine       int       // mem.per_line
	storeBacklog  sim.Cycle // mem.store_backlog
}

// storePath is a memory path that times a warp store's lines by the sectors
// they write and books them on the SM→L2 request path (memory.Hierarchy is
// one).
type storePath interface {
	// Store returns the latency of one line of a warp store issued at now
	// writing the sectors of mask, those of partial only in part.
	Store(now sim.Cycle, addr uint64, mask, partial uint8) sim.Cycle
	// UpBooked is how far past now the request path is booked.
	UpBooked(now sim.Cycle) sim.Cycle
}

// newLSU returns an idle unit with c's spec, timing global accesses by path.
func newLSU(c *Config, path MemoryPath) lsu {
	u := lsu{path: path, spec: lsuSpec{
		smem: c.Smem, sharedLatency: sim.Cycle(c.Pipes.Latency[isa.ClassShared]),
		sharedIvl: c.Pipes.Interval[isa.ClassShared], globalIvl: c.Pipes.Interval[isa.ClassGlobal],
		lineBytes: c.Mem.LineBytes, l1Hit: sim.Cycle(c.Mem.L1HitCycles), perLine: c.LSU.GlobalPerLine,
		storeBacklog: sim.Cycle(c.LSU.StoreBacklog),
	}}
	if sp, ok := path.(storePath); ok && c.Mem.LineBytes == 128 && c.Mem.SectorBytes == 32 {
		u.store = sp
	}
	return u
}

// launchPath is a memory path with an L1 that a launch configures
// (memory.Hierarchy is one).
type launchPath interface {
	// NewLaunch starts a launch with an empty L1 of l1Bytes.
	NewLaunch(l1Bytes int)
}

// reset empties the data array's schedule for a new launch.
func (u *lsu) reset() {
	u.smemFree = 0
	u.arrayUse = u.arrayUse[:0]
}

// newLaunch gives the memory path's L1 the l1Bytes the launch's carve-out
// leaves, empty: the SM's L1 is not coherent with other SMs' writes, so a
// kernel launch invalidates it and the launch's first loads of a line go to
// L2 (L2 keeps its state, so a second launch still finds its inputs there).
func (u *lsu) newLaunch(l1Bytes int) {
	if p, ok := u.path.(launchPath); ok {
		p.NewLaunch(l1Bytes)
	}
}

// shared times a shared-memory access of sub-partition sc issued at now:
// size bytes a lane at the offsets words of the lanes of mask, an atomic's
// read-modify-write if atomic. It returns the latency until the data is
// usable and the access's wavefronts.
//
// The sub-partition's shared pipe starts an access every interval.shared
// cycles and holds it smem.conflict_cycles per wavefront (smem.csv: a
// 128-bit load, four wavefronts, every 8.66 cycles from one sub-partition,
// a 32-bit one every 4.60). Accesses wait their turn in the MIO queue; the
// warps' issue of shared instructions stops while smem.queue of them wait.
// The SM's shared memory serves one wavefront at a time, for every
// sub-partition: an access waits its turn there too.
func (u *lsu) shared(now sim.Cycle, sc *scheduler, words *[sharedmem.WarpSize]uint32, mask uint32, size int, atomic bool) (sim.Cycle, int) {
	wf := u.spec.smem.Wavefronts(words, mask, size)
	extra := sim.Cycle(u.spec.smem.ExtraCycles(wf))
	ivl := u.spec.sharedIvl
	start := max(now, sc.lsuFree)
	sc.lsuFree = start + sim.Cycle(max(ivl, wf*u.spec.smem.ConflictCycles))
	backlog := sim.Cycle(u.spec.smem.Queue * ivl)
	sc.pipeFree[isa.ClassShared] = max(now+1, sc.lsuFree-min(backlog, sc.lsuFree))
	queued := start - now
	if per := sim.Cycle(u.spec.smem.WavefrontCycles); per > 0 && wf > 0 {
		at := max(start, u.smemFree)
		queued = at - now
		u.smemFree = at + u.arrayCycles(now, at, per*sim.Cycle(wf), true)
		u.waitInMIOQueue(sc, at)
	}
	if atomic {
		extra += sim.Cycle(u.spec.smem.AtomicCycles)
	}
	return u.spec.sharedLatency + extra + queued, wf
}

// maxMIOQueue is the deepest MIO queue (smem.queue) the model takes.
const maxMIOQueue = sharedmem.MaxQueue

// waitInMIOQueue records that a shared access of sub-partition sc waits in
// its MIO queue until the data array takes it at at: while smem.queue of
// them wait there (none: while this one does), the sub-partition's shared
// instructions do not issue. Beside a wgmma stream the array is the
// tensor cores' first (calibration/h200/stg_wgmma.cu), and the warps'
// STS issue at the pace of the cycles it leaves.
func (u *lsu) waitInMIOQueue(sc *scheduler, at sim.Cycle) {
	q := u.spec.smem.Queue
	if q <= 0 {
		sc.pipeFree[isa.ClassShared] = max(sc.pipeFree[isa.ClassShared], at)
		return
	}
	sc.arrayAt[sc.arrayNext] = at
	sc.arrayNext = (sc.arrayNext + 1) % q
	sc.pipeFree[isa.ClassShared] = max(sc.pipeFree[isa.ClassShared], sc.arrayAt[sc.arrayNext])
}

// global times a global access of sub-partition sc issued at now touching
// the nlines cache lines of lines: the slowest line as the memory path
// serves it (past L1 if bypassL1), mem.per_line for each line beyond the
// first, and the lines' turn in the data array.
//
// The sub-partition's LSU pipe holds a global access interval.global
// cycles, mem.per_line a line when it touches more (ldg.csv: a 128-bit
// load, four lines, every 11.4 cycles from one sub-partition), and its
// lines pass the data array that shared memory uses, one 128-byte
// wavefront a cycle for the SM (ldg.csv: 128-bit L1 hits from every
// sub-partition, 16.00 cycles a warp instruction, as smem.csv's).
func (u *lsu) global(now sim.Cycle, sc *scheduler, lines *[warp.Lanes]uint64, written *[warp.Lanes][2]uint64, nlines int, bypassL1 bool) sim.Cycle {
	var worst sim.Cycle
	if written != nil && u.store != nil {
		worst = u.storeLines(now, sc, lines, written, nlines)
	} else {
		for k := 0; k < nlines; k++ {
			worst = max(worst, u.access(now, lines[k]*uint64(u.spec.lineBytes), u.spec.lineBytes, bypassL1, written != nil))
		}
	}
	if nlines > 1 {
		worst += sim.Cycle((nlines - 1) * u.spec.perLine)
	}
	if hold := nlines*u.spec.perLine - u.spec.globalIvl; hold > 0 {
		sc.pipeFree[isa.ClassGlobal] += sim.Cycle(hold)
	}
	if written != nil && u.store != nil {
		u.holdForStoreQueue(now, sc)
	}
	if per := sim.Cycle(u.spec.smem.WavefrontCycles); per > 0 && nlines > 0 {
		at := max(now, u.smemFree)
		worst += at - now
		u.smemFree = at + u.arrayCycles(now, at, per*sim.Cycle(nlines), false)
		// A store's data passes the array when the LSU takes it, so, as a
		// shared access does, it holds the pipe until the array takes it
		// (stgport.csv: warp stores of a sector in each of eight lines, 8
		// array cycles, issue every 7.98-8.21 cycles from 8-16 warps). A
		// load's lines pass it when they arrive, and hold nothing.
		if written != nil {
			sc.pipeFree[isa.ClassGlobal] = max(sc.pipeFree[isa.ClassGlobal], at)
		}
	}
	return worst
}

// storeLines books a warp store's lines, each by the sectors its lanes
// write (written: a byte mask a line), on the memory path and returns the
// slowest line's latency. The next access waits to leave the LSU while the
// SM→L2 request path is booked more than mem.store_backlog ahead (the store
// queue full; holdForStoreQueue): calibration/h200/stgport.csv, where 8-16
// warps storing issue at the path's rate, one sector a cycle.
func (u *lsu) storeLines(now sim.Cycle, sc *scheduler, lines *[warp.Lanes]uint64, written *[warp.Lanes][2]uint64, nlines int) sim.Cycle {
	var worst sim.Cycle
	for k := 0; k < nlines; k++ {
		mask, partial := sectorMasks(&written[k])
		worst = max(worst, u.store.Store(now, lines[k]*uint64(u.spec.lineBytes), mask, partial))
	}
	return worst
}

// holdForStoreQueue keeps the sub-partition's LSU pipe from taking another
// access while the request path is booked more than mem.store_backlog past
// now.
func (u *lsu) holdForStoreQueue(now sim.Cycle, sc *scheduler) {
	if b := u.store.UpBooked(now); b > u.spec.storeBacklog {
		sc.pipeFree[isa.ClassGlobal] = max(sc.pipeFree[isa.ClassGlobal], now+b-u.spec.storeBacklog)
	}
}

// markBytes sets the bits of bytes [off, off+size) of a 128-byte line's
// mask (a lane's access never crosses a line: it is aligned to its size),
// a mask word at a time.
func markBytes(m *[2]uint64, off, size int) {
	hi := min(off+size, 128)
	switch {
	case off >= hi:
	case hi <= 64: // within the first word
		m[0] |= ^uint64(0) >> (64 - (hi - off)) << off
	case off >= 64: // within the second
		m[1] |= ^uint64(0) >> (64 - (hi - off)) << (off - 64)
	default: // across both
		m[0] |= ^uint64(0) << off
		m[1] |= ^uint64(0) >> (128 - hi)
	}
}

// sectorMasks returns the 32-byte sectors of a line a byte mask touches and
// those of them it covers only in part.
func sectorMasks(m *[2]uint64) (mask, partial uint8) {
	for s := 0; s < 4; s++ {
		v := uint32(m[s>>1] >> (32 * (s & 1)))
		if v != 0 {
			mask |= 1 << s
			if v != ^uint32(0) {
				partial |= 1 << s
			}
		}
	}
	return mask, partial
}

// access is the memory path's load-to-use latency of size bytes at addr
// (an L1 hit without a path).
func (u *lsu) access(now sim.Cycle, addr uint64, size int, bypassL1, write bool) sim.Cycle {
	if u.path == nil {
		return u.spec.l1Hit
	}
	if bypassL1 {
		l, _ := u.path.AccessL2(now, addr, size)
		return l
	}
	l, _ := u.path.Access(now, addr, size, write)
	return l
}

// arrayWindow is a stretch [from, to) of which a bulk store's source reads,
// or a wgmma's operand reads, take busy cycles of the shared-memory data
// array.
type arrayWindow struct {
	from, to sim.Cycle
	busy     int
	tensor   bool // the tensor cores' operand reads, which the shared pipes' accesses alone make way for
}

// shareArray records, at now, that the copy engine will take cycles of the
// data array's cycles in [from, to): the warps' wavefronts get the rest.
func (u *lsu) shareArray(now, from, to sim.Cycle, cycles int, tensor bool) {
	if to <= from || cycles <= 0 {
		return
	}
	u.pruneArrayUse(now) // a kernel of stores and no shared accesses keeps it short too
	u.arrayUse = append(u.arrayUse, arrayWindow{from, to, cycles, tensor})
	// Wavefronts already given array time in the window wait for the
	// store's share of what they were given.
	if u.smemFree > from {
		l := to - from
		u.smemFree += sim.Cycle(cycles) * (min(u.smemFree, to) - from) / l
	}
}

// pruneArrayUse forgets the stretches that ended by now.
func (u *lsu) pruneArrayUse(now sim.Cycle) {
	k := 0
	for _, w := range u.arrayUse {
		if w.to > now {
			u.arrayUse[k] = w
			k++
		}
	}
	u.arrayUse = u.arrayUse[:k]
}

// arrayCycles is what n cycles of the warps' use of the data array cost
// when they start at at: stretched by the share of the array's cycles that
// its other users take then, together at most nine tenths of it. The copy
// engine's bulk-store reads take their share from every access; the tensor
// cores' operand reads only from shared-memory accesses (shared): warp
// stores of whole lines beside a wgmma stream keep their pace
// (calibration/h200/stg_wgmma.cu, 8.0 and 16.5 cycles a store against
// 7.9 and 15.9 alone).
func (u *lsu) arrayCycles(now, at sim.Cycle, n sim.Cycle, shared bool) sim.Cycle {
	u.pruneArrayUse(now)
	taken := 0.0
	for _, w := range u.arrayUse {
		if at >= w.from && at < w.to && (shared || !w.tensor) {
			taken += float64(w.busy) / float64(w.to-w.from)
		}
	}
	if taken == 0 {
		return n
	}
	free := max(1-taken, 0.1)
	// The epsilon keeps an exact quotient (n·l/(l−busy) with one user) from
	// rounding up past it.
	return sim.Cycle(math.Ceil(float64(n)/free - 1e-9))
}
