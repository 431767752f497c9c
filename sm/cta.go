package sm

import (
	"github.com/smsim/smsim/sharedmem"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/warp"
)

// cta is one resident thread block.
type cta struct {
	id      int // linear block index in the grid
	idx     [3]uint32
	smem    *sharedmem.Memory
	local   []byte // local memory of every thread: threads × LocalBytes
	warps   []*wctx
	live    int // warps not yet done
	threads int
	bars    map[uint32]*barrier
	bsync   [16]barSync
	// unfenced marks 16-byte granules of shared memory written by ordinary
	// stores since the last fence.proxy.async (the hazard checker).
	unfenced    []uint64
	anyUnfenced bool
	started     sim.Cycle
	// pending counts the CTA's barrier-unit operations and cp.async
	// landings in flight: a retired CTA's barriers are reported (and the
	// CTA let go) once none is left to change them.
	pending int
	// committed: a thread of the CTA committed a bulk group, whose
	// bookkeeping (here and in the copy engine) the CTA's exit drops.
	committed bool
	sm        *SM      // the SM it runs on
	cl        *Cluster // its cluster (of one CTA in a launch without clusters)
	rank      int      // %cluster_ctarank
	// The CTA's next free cycles for a cluster-barrier arrival and a
	// .release arrival's visibility wait (cluster.arrive_interval,
	// cluster.release_interval).
	arriveFree, releaseFree sim.Cycle
	// copyAck is when the L2 has acknowledged the bulk copies whose bytes
	// landed in the CTA's shared memory so far: one L2 round trip after
	// each landing. A GPU-scope membar of any of its warps waits for it
	// (membar.go).
	copyAck sim.Cycle
}

// wctx is the SM's view of one resident warp: the architectural warp plus
// scoreboard, scheduling and accounting state.
type wctx struct {
	w     *warp.Warp
	c     *cta
	slot  int
	sp    int    // sub-partition (scheduler) index
	pos   int    // position in its scheduler's warps (age order; warpQueues' bit)
	age   uint64 // launch order, for GTO's "oldest"
	instr uint64 // warp instructions issued

	regBoard              // the register scoreboard (scoreboard.go)
	issuePath   uint8     // the datapath of the instruction being issued
	lastIssue   sim.Cycle // when the warp last issued
	staticClk   sim.Cycle // the warp's issue time, less its waits on variable-latency results (static.go)
	predDue     []predDue // predicates written by setp whose latency.pred has not run out in staticClk
	depReady    sim.Cycle // operands of the current instruction are ready
	depReason   Reason
	depPC       int32 // pc and split the dep values were computed for (-1: stale)
	depSplit    int
	syncsFree   sim.Cycle // next cycle this warp may issue a barrier op
	lastUpdate  sim.Cycle // when the warp's latest barrier update is applied
	busyUntil   sim.Cycle // OpCompute repetition / OpDelay
	yieldUntil  sim.Cycle // a YIELD's switch to another path ends (SASS)
	hold        int32     // scoreboard entry of a suspending try_wait's predicate: the warp issues nothing until it is ready (-1: none)
	checkAt     sim.Cycle // the scheduler need not look at the warp before this cycle
	readyDeps   bool      // operands ready when last looked at; only the pipe (of curPC's instruction) can hold it
	awaitDeps   bool      // operands of curPC's instruction ready at checkAt, unless depPC was reset since
	curPC       int32
	curPipes    pipePair // curPC's pipes and throttle reason, for readyDeps and awaitDeps (values,
	curThrottle Reason   // not a pointer to its uop: no write barrier while the collector runs)
	curGroup    uint8    // curPipes' pipe group (pipeGroups)
	computeLeft int

	// Issue by control bits (Scheduled programs, ctrl_issue.go).
	sb          scoreboards
	stallUntil  sim.Cycle // the last issue plus its stall count
	branchUntil sim.Cycle // a taken branch's target issues no sooner (branch.taken)
	acceptAt    sim.Cycle // when the copy engine accepted the warp's last bulk copy
	resultAt    sim.Cycle // latest result time the current issue's execution reported (dstReady)
	resultWhy   Reason

	acctAt    sim.Cycle // cycles before this are accounted
	waitFrom  sim.Cycle // start of the current wait reason
	reason    Reason    // reason for cycles from acctAt until readiness
	stall     [numReasons]uint64
	openWaits []openWait // barrier phases this warp is waiting on
	seenB     *barrier   // the barrier and phase of the warp's latest wait answered complete (noteWait)
	seenPhase uint64
	tries     []tryRec     // try_waits in flight, one per blocked split
	cp        cpThreads    // cp.async groups per lane
	cbarArmed uint32       // lanes arrived at the cluster barrier, not yet waited
	writeAck  sim.Cycle    // when the L2 has acknowledged the warp's global writes so far
	smemWrote sim.Cycle    // when the warp's shared-memory writes so far are in the data array
	fencedAt  sim.Cycle    // when the warp's latest GPU-scope membar completed (membar.go)
	fenced    bool         // that membar covers the warp's writes and no release has used it yet
	heldUntil sim.Cycle    // a GPU-scope membar holds the warp's issue until then (membar.go)
	remoteAt  sim.Cycle    // when the warp's latest operation on another CTA's barrier is applied
	cbarGen   uint64       // the cluster barrier generation its wait waits for
	mma       mmaGroups    // wgmma groups (wgmma.go)
	barRed    barRedResult // its last BAR.RED's reduction (barsync.go)
	done      bool
	doneAt    sim.Cycle
}

// fillCTAs starts CTAs of the grid while they fit the SM's limits.
func (s *SM) fillCTAs(now sim.Cycle) error {
	if s.source != nil {
		s.eng.Serial() // the dispatcher is the GPU's
		return s.source.Refill(now)
	}
	l := s.launch
	threads := l.Block[0] * l.Block[1] * l.Block[2]
	nw := (threads + warp.Lanes - 1) / warp.Lanes
	smem := s.prog.DynSmemBase() + l.DynSmem
	for s.nextCTA < s.totalCTA {
		if !s.fits(nw, threads, smem) {
			break
		}
		if err := s.startCTA(now, s.nextCTA, nw, threads, smem); err != nil {
			return err
		}
		s.nextCTA++
	}
	return nil
}

// fits reports whether a CTA of nw warps, threads threads and smem bytes of
// shared memory fits beside the resident ones.
func (s *SM) fits(nw, threads, smem int) bool {
	var used residency
	for _, c := range s.ctas {
		used.add(residency{ctas: 1, warps: len(c.warps), threads: c.threads, smem: int(c.smem.Size()),
			regs: s.place.ctaRegs(len(c.warps))})
	}
	return s.place.admits(used, residency{ctas: 1, warps: nw, threads: threads, smem: smem, regs: s.place.ctaRegs(nw)})
}

// residency is what CTAs hold of the SM's resources, or what one needs.
type residency struct{ ctas, warps, threads, smem, regs int }

func (r *residency) add(o residency) {
	r.ctas += o.ctas
	r.warps += o.warps
	r.threads += o.threads
	r.smem += o.smem
	r.regs += o.regs
}

// placement decides whether a CTA can start: the SM's residency limits
// (limit.ctas, limit.warps, limit.threads) and its shared memory
// (smem.capacity) bound what its resident CTAs hold together.
type placement struct {
	limits        Limits
	smem          int
	regsPerThread int // the launch's kernel's (isa.Program.RegsPerThread; 0: not bound)
}

// ctaRegs is the registers a CTA of nw warps takes from the register file.
func (p placement) ctaRegs(nw int) int { return CTARegisters(p.limits, p.regsPerThread, nw) }

// CTARegisters is the registers a CTA of nw warps of a kernel of
// regsPerThread registers a thread takes from an SM's register file: each
// warp's registers rounded up to limit.register_unit.
func CTARegisters(l Limits, regsPerThread, nw int) int {
	u := max(l.RegisterUnit, 1)
	return nw * ((regsPerThread*warp.Lanes + u - 1) / u * u)
}

// reservedSmem is the shared memory the CUDA runtime reserves per CTA on
// sm_80 and later (1 KiB), beside what the kernel declares.
const reservedSmem = 1 << 10

// carveout returns the shared memory the driver sets aside for a launch
// whose CTAs have threads threads in nw warps and smem bytes of shared
// memory (without the reserved part): that of as many CTAs as the SM's
// other limits let reside, at most smem.capacity. Measured
// (calibration/h200/sassprobe.csv l1cap rows): a one-thread CTA with no
// dynamic shared memory leaves an L1 of 208-224 KiB (32 CTAs of 1 KiB: a
// 32 KiB carve-out), with 16, 100 or 200 KiB it leaves 24-28 KiB (the
// largest carve-out).
func (p placement) carveout(nw, threads, smem int) int {
	ctas := p.limits.CTAs
	if nw > 0 {
		ctas = min(ctas, p.limits.Warps/nw)
	}
	if threads > 0 {
		ctas = min(ctas, p.limits.Threads/threads)
	}
	if r := p.ctaRegs(nw); r > 0 {
		ctas = min(ctas, p.limits.Registers/r)
	}
	return min(max(ctas, 1)*(smem+reservedSmem), p.smem)
}

// admits reports whether an SM whose resident CTAs hold used can start a
// CTA that needs need.
func (p placement) admits(used, need residency) bool {
	return used.ctas+need.ctas <= p.limits.CTAs && used.warps+need.warps <= p.limits.Warps &&
		used.threads+need.threads <= p.limits.Threads && used.smem+need.smem <= p.smem &&
		used.regs+need.regs <= p.limits.Registers
}

func (s *SM) startCTA(now sim.Cycle, id, nw, threads, smem int) error {
	l := s.launch
	c := &cta{id: id, threads: threads, smem: sharedmem.New(uint32(smem)), bars: map[uint32]*barrier{}, started: now,
		unfenced: make([]uint64, (smem/16+63)/64), sm: s, cl: s.pendingCluster, rank: s.pendingRank}
	c.idx = [3]uint32{uint32(id % l.Grid[0]), uint32(id / l.Grid[0] % l.Grid[1]), uint32(id / (l.Grid[0] * l.Grid[1]))}
	if c.cl == nil { // a launch without clusters: each CTA a cluster of one
		c.cl = &Cluster{ID: c.idx, implicit: true, ctas: []*cta{c}, live: threads}
	}
	if s.prog.LocalBytes > 0 {
		c.local = make([]byte, s.prog.LocalBytes*nw*warp.Lanes)
	}
	for k := 0; k < nw; k++ {
		slot := s.freeSlot()
		env, live := s.newWarpEnv(c, k)
		env.WarpID = uint32(slot)
		wc := &wctx{c: c, slot: slot, sp: slot % s.cfg.Sched.Count, age: s.stats.WarpsLaunched,
			depPC: -1, hold: -1, acctAt: now, waitFrom: now, reason: ReasonNotSelected}
		wc.w = s.files.New(slot, k, s.prog, live, env)
		wc.regBoard = s.boards.get(s.prog.NumRegs, s.prog.NumPreds)
		s.stats.WarpsLaunched++
		s.warps[slot] = wc
		s.sched[wc.sp].add(wc)
		c.warps = append(c.warps, wc)
	}
	c.live = nw
	for i := range c.bsync {
		c.bsync[i].expect = threads
	}
	s.ctas = append(s.ctas, c)
	s.stats.CTAs++
	return nil
}

// forgetThreads drops what the SM and the copy engine keep per thread of
// c, a CTA whose threads have all exited: their bulk groups and the bulk
// stores' sources not yet waited for.
func (s *SM) forgetThreads(c *cta) {
	if !c.committed {
		return
	}
	for t := 0; t < c.threads; t++ {
		id := uint64(c.id)<<32 | uint64(t)
		delete(s.commits, id)
		if s.copy != nil {
			s.copy.Forget(id)
		}
	}
	k := 0
	for _, src := range s.storeSrc {
		if src.cta != c.id {
			s.storeSrc[k] = src
			k++
		}
	}
	s.storeSrc = s.storeSrc[:k]
}

func (s *SM) freeSlot() int {
	for i, w := range s.warps {
		if w == nil {
			return i
		}
	}
	return -1 // fits() guarantees a free slot
}

// warpDone retires a warp whose lanes have all exited; the last warp of a
// CTA retires the CTA and lets the next one start.
func (s *SM) warpDone(now sim.Cycle, wc *wctx) {
	if wc.mma.pending != nil {
		wc.mma.pending.join() // its registers go with it
	}
	wc.done, wc.doneAt = true, now
	s.account(wc, now)
	s.result0(wc)
	s.warps[wc.slot] = nil
	s.sched[wc.sp].remove(wc)
	s.files.Free(wc.w) // the next CTA's warps take its register files
	s.boards.put(&wc.regBoard)
	c := wc.c
	c.live--
	// A warp that exits counts as arrived at every CTA barrier (bar.sync) from now on.
	for id := range c.bsync {
		s.barSyncCheck(now, c, id)
	}
	if c.live > 0 {
		return
	}
	for i, x := range s.ctas {
		if x == c {
			s.ctas = append(s.ctas[:i], s.ctas[i+1:]...)
			break
		}
	}
	s.lastRetire = now
	if c.pending == 0 {
		s.retireBarriers(c)
	}
	s.forgetThreads(c)
	if err := s.fillCTAs(now); err != nil {
		s.fail(err)
		return
	}
	if len(s.ctas) == 0 && s.gridDone() {
		s.done = true
		s.stats.Cycles = uint64(now - s.start)
	}
}

// gridDone reports whether no CTA of the grid is left to start on the SM.
func (s *SM) gridDone() bool {
	if s.source != nil {
		return s.source.Exhausted()
	}
	return s.nextCTA >= s.totalCTA
}
