package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
	"github.com/smsim/smsim/warp"
)

// CopyKind says what a bulk-copy request does.
type CopyKind uint8

// Copy kinds.
const (
	CopyBulkLoad     CopyKind = iota // cp.async.bulk global -> shared, completes tx on an mbarrier
	CopyTensorLoad                   // cp.async.bulk.tensor global -> shared
	CopyBulkStore                    // cp.async.bulk shared -> global, joins the thread's bulk group
	CopyTensorStore                  // cp.async.bulk.tensor shared -> global
	CopyPrefetch                     // cp.async.bulk.prefetch: L2 only
	CopyBulkReduce                   // cp.reduce.async.bulk shared -> global, joins the thread's bulk group
	CopyTensorReduce                 // cp.reduce.async.bulk.tensor shared -> global
)

// CopyRequest is one thread's bulk copy.
type CopyRequest struct {
	Kind   CopyKind
	CTA    int
	Shared uint32 // shared offset: destination of loads, source of stores
	Global uint64 // global address of 1-D copies
	Size   uint32 // bytes of 1-D copies
	Map    []byte // 128-byte tensor map of tensor copies
	MapAt  uint64 // the map's address as the instruction names it (param offset or generic address)
	Dim    int
	Coords [5]int32
	Mbar   uint32 // barrier (shared offset) of loads
	Thread uint64 // issuing thread (bulk-group owner)
	ID     uint64
	Red    isa.AtomOp // operation of reductions
	Type   isa.Type   // element type of 1-D reductions (tensor reductions: the map's)
	// Multicast is the CTA mask of a .multicast::cluster load: the ranks
	// of the cluster whose shared memory and barrier (at the same offsets)
	// it lands in (0: the issuing CTA's alone).
	Multicast uint16
}

// CopyEngine is the TMA unit as the SM sees it. It calls the SM back
// (CompleteTx, ReadShared, WriteShared) when copies land.
type CopyEngine interface {
	Issue(now sim.Cycle, r CopyRequest) error
	// Commit closes the thread's open bulk group.
	Commit(thread uint64)
	// WaitGroup returns the cycle at which at most n of the thread's groups
	// are pending (read: only their sources need to have been read).
	WaitGroup(now sim.Cycle, thread uint64, n int, read bool) sim.Cycle
	// InFlight reports how many copies are in flight.
	InFlight() int
	// AcceptAt returns the first cycle at or after now at which the engine's
	// request queue has room: the issuing warp is held until then.
	AcceptAt(now sim.Cycle) sim.Cycle
	// NewLaunch starts a launch: its tensor maps are fetched again (the
	// descriptor cache holds only the launch's own). paramsRead says the
	// program reads its parameters with instructions of its own (SASS).
	NewLaunch(l tma.Launch)
	// Forget drops the bulk groups of a thread whose CTA has exited.
	Forget(thread uint64)
	// Stats returns the engine's counters so far (the SM reports a
	// launch's share of them).
	Stats() tma.Stats
}

func (s *SM) inFlight() bool {
	return s.syncs.busy() || s.cpInFlight > 0 || (s.copy != nil && s.copy.InFlight() > 0)
}

// execCopy issues bulk-copy instructions; each active lane issues its own copy.
func (s *SM) execCopy(now sim.Cycle, wc *wctx, in *isa.Instr, mask uint32) error {
	if s.copy == nil {
		return s.diag(wc, in, DiagInput, "no-copy-engine", mask, "bulk copies need a copy engine and none is attached")
	}
	t := uint64(now - s.start)
	switch in.Op {
	case isa.OpBulkCommit:
		for l := 0; l < warp.Lanes; l++ {
			if mask>>l&1 != 0 {
				s.copy.Commit(s.threadID(wc, l))
				s.commits[s.threadID(wc, l)]++
				wc.c.committed = true
			}
		}
		wc.w.Advance()
		return nil
	case isa.OpBulkWait:
		n := int(wc.w.Scalar(in.Src(0), mask, t))
		ready := now
		for l := 0; l < warp.Lanes; l++ {
			if mask>>l&1 != 0 {
				if r := s.copy.WaitGroup(now, s.threadID(wc, l), n, in.Flags.Has(isa.FRead)); r > ready {
					ready = r
				}
				s.bulkWaited(s.threadID(wc, l), n)
			}
		}
		if ready > now {
			s.blockUntil(now, wc, waitCode(waitBulk, ReasonLongScoreboard), ready, true)
			return nil
		}
		wc.w.Advance()
		return nil
	}
	if in.Op == isa.OpBulkCopy && in.Space == isa.Cluster && in.Space2 == isa.Shared {
		return s.execDSMEMCopy(now, wc, in, mask)
	}
	if (in.Op == isa.OpUBlkCp || in.Op == isa.OpUTma) && mask != 0 {
		mask = 1 // the uniform datapath issues one copy for the warp, from its lane 0's uniform registers
	}
	accept := now // the warp is held until the engine's queue has taken its last request
	stores := true
	for l := 0; l < warp.Lanes; l++ {
		if mask>>l&1 == 0 {
			continue
		}
		accept = max(accept, s.copy.AcceptAt(accept))
		r, err := s.copyRequest(wc, in, l, t)
		if err != nil {
			return err
		}
		stores = stores && readsShared(r.Kind)
		n, spanOK := copySharedBytes(r)
		if spanOK && readsShared(r.Kind) {
			if err := s.storeReadsUnfenced(wc, in, r, n, l); err != nil {
				return err
			}
			s.noteStoreSource(r, n)
		}
		if r.Multicast != 0 {
			if err := s.issueMulticast(now, wc, in, l, r); err != nil {
				return err
			}
			continue
		}
		if err := s.copy.Issue(now, r); err != nil {
			d := s.diag(wc, in, DiagMisuse, "bulk-copy", 1<<l, err.Error())
			return d
		}
		if r.Kind == CopyBulkLoad || r.Kind == CopyTensorLoad {
			if spanOK {
				s.noteLanding(r, n)
			}
			s.copyIssued[r.ID] = copyInfo{at: uint64(now - s.start), bytes: int(r.Size), mbar: r.Mbar, in: in, warp: wc.slot, cta: wc.c.id}
		}
	}
	hold := now + sim.Cycle(s.cfg.Pipes.Latency[isa.ClassTMA])
	if stores && mask != 0 {
		// A store or reduction holds its thread only until the unit's queue
		// takes it: one thread issues 256-byte bulk stores every 26.6
		// cycles where a load holds it 44 (calibration/h200 store.csv,
		// steps.csv).
		hold = now + 1
	}
	wc.busyUntil = max(hold, accept)
	wc.acceptAt = accept // a Scheduled program's stall counts stand for the hold (ctrl_issue.go)
	wc.w.Advance()
	return nil
}

// readsShared reports whether a copy of kind k reads shared memory: stores
// and reductions, whose source the proxy-fence and overwrite checks guard.
func readsShared(k CopyKind) bool {
	switch k {
	case CopyBulkStore, CopyTensorStore, CopyBulkReduce, CopyTensorReduce:
		return true
	}
	return false
}

// copySharedBytes is the shared range's length of a copy, as sharedBytes
// gives it, with a tensor reduction's box (its Size is not set).
func copySharedBytes(r CopyRequest) (uint64, bool) {
	if r.Kind != CopyTensorReduce {
		return sharedBytes(r)
	}
	m, err := tma.Decode(r.Map)
	if err != nil {
		return 0, false // the engine reports the bad map
	}
	return uint64(m.BoxBytes()), true
}

// copyInfo remembers a load in flight: for the timeline and for diagnostics
// about it (the issuing instruction and warp).
type copyInfo struct {
	at    uint64
	bytes int
	mbar  uint32
	in    *isa.Instr
	warp  int
	cta   int
}

func (s *SM) threadID(wc *wctx, lane int) uint64 {
	return uint64(wc.c.id)<<32 | uint64(wc.w.InCTA*warp.Lanes+lane)
}

// copyRequest decodes lane l's operands of a bulk-copy instruction.
func (s *SM) copyRequest(wc *wctx, in *isa.Instr, l int, t uint64) (CopyRequest, error) {
	w := wc.w
	val := func(i int) uint64 { return w.Operand(in.Src(i), 0, 1<<l, t)[l] }
	s.copyID++
	r := CopyRequest{CTA: wc.c.id, Thread: s.threadID(wc, l), ID: s.copyID}
	smem := func(v uint64, sp isa.Space) (uint32, error) {
		xs, off := space(sp, v)
		if xs != isa.Shared {
			return 0, s.diag(wc, in, DiagMisuse, "not-shared", 1<<l, fmt.Sprintf("%s: address 0x%x is not in shared memory", in.Op, v))
		}
		return s.copyShared(wc, in, l, off)
	}
	var err error
	switch in.Op {
	case isa.OpBulkCopy:
		if r.Multicast, err = s.multicastMask(wc, in, l, val(in.NSrc()-1)); err != nil {
			return r, err
		}
		if in.Space == isa.Global { // shared -> global store
			r.Kind, r.Global, r.Size = CopyBulkStore, val(0), uint32(val(2))
			r.Shared, err = smem(val(1), in.Space2)
			return r, err
		}
		r.Kind, r.Global, r.Size = CopyBulkLoad, val(1), uint32(val(2))
		if r.Shared, err = smem(val(0), in.Space); err != nil {
			return r, err
		}
		r.Mbar, err = smem(val(3), isa.Shared)
		return r, err
	case isa.OpBulkTensor:
		if r.Multicast, err = s.multicastMask(wc, in, l, val(in.NSrc()-1)); err != nil {
			return r, err
		}
		if in.Flags.Has(isa.FIm2col) {
			return r, s.diag(wc, in, DiagInput, "unsupported", 1<<l, "cp.async.bulk.tensor .im2col is not supported by the simulator")
		}
		r.Dim = int(in.Dim)
		mapIdx, coord0 := 1, 2
		if in.Flags.Has(isa.FStore) {
			mapIdx, coord0 = 0, 1
		}
		r.MapAt = val(mapIdx)
		if r.Map, err = s.readMap(wc, in, r.MapAt, l); err != nil {
			return r, err
		}
		for d := 0; d < r.Dim && d < 5; d++ {
			r.Coords[d] = int32(val(coord0 + d))
		}
		if in.Flags.Has(isa.FStore) {
			r.Kind = CopyTensorStore
			r.Shared, err = smem(val(coord0+r.Dim), isa.Shared)
			return r, err
		}
		r.Kind = CopyTensorLoad
		if r.Shared, err = smem(val(0), in.Space); err != nil {
			return r, err
		}
		r.Mbar, err = smem(val(coord0+r.Dim), isa.Shared)
		return r, err
	case isa.OpBulkReduce:
		return r, s.reduceRequest(wc, in, l, &r, val, smem)
	case isa.OpUBlkCp, isa.OpUTma:
		return r, s.sassCopyRequest(wc, in, l, t, &r, smem)
	case isa.OpBulkPrefetch:
		r.Kind, r.Global = CopyPrefetch, val(0)
		if in.NSrc() > 1 {
			r.Size = uint32(val(1))
		}
		return r, nil
	}
	return r, s.diag(wc, in, DiagInput, "unsupported", 1<<l, fmt.Sprintf("instruction %s is not supported", in.Op))
}

// reduceRequest decodes lane l's operands of a bulk reduction: [dst],
// [src], size for the 1-D form, [tensorMap], coordinates, [src] for the
// tensor form (Dim > 0); a cache policy may follow either.
func (s *SM) reduceRequest(wc *wctx, in *isa.Instr, l int, r *CopyRequest, val func(int) uint64,
	smem func(uint64, isa.Space) (uint32, error)) error {
	r.Red = in.Atom
	var err error
	if in.Dim == 0 {
		r.Kind, r.Type, r.Global, r.Size = CopyBulkReduce, in.Type, val(0), uint32(val(2))
		r.Shared, err = smem(val(1), in.Space2)
		return err
	}
	r.Kind, r.Dim, r.MapAt = CopyTensorReduce, int(in.Dim), val(0)
	if r.Map, err = s.readMap(wc, in, r.MapAt, l); err != nil {
		return err
	}
	for d := 0; d < r.Dim && d < 5; d++ {
		r.Coords[d] = int32(val(1 + d))
	}
	r.Shared, err = smem(val(1+r.Dim), in.Space2)
	return err
}

// readMap fetches a 128-byte tensor map from param, const or global memory.
func (s *SM) readMap(wc *wctx, in *isa.Instr, addr uint64, l int) ([]byte, error) {
	sp, off := space(isa.Generic, addr)
	if addr < 1<<32 && s.prog.ParamBytes > 0 && addr+128 <= uint64(len(s.launch.Params)) {
		sp, off = isa.ParamSpace, addr // a param-space address (mov.b64 %rd, param)
	}
	b := make([]byte, 128)
	if err := s.memRead(wc, in, sp, off, l, b); err != nil {
		return nil, err
	}
	if sp == isa.Global {
		if err := s.staleMap(wc, in, off, l); err != nil {
			return nil, err
		}
		s.noteMapUse(off)
	}
	return b, nil
}

// CompleteTx is called by the copy engine when a load's last byte landed.
func (s *SM) CompleteTx(now sim.Cycle, ctaID int, mbar uint32, bytes uint32, id uint64) error {
	ci, known := s.copyIssued[id]
	delete(s.copyIssued, id)
	s.landed(id)
	if s.obs != nil && known {
		s.obs.Copy(id, int(bytes), ci.at, uint64(now-s.start), s.barrierName(ci.mbar))
	}
	c := s.ctaByID(ctaID)
	if c == nil {
		d := s.exitedCTA(ctaID, fmt.Sprintf("bulk copy completes %d bytes on a barrier of CTA %d, which has exited [UB #14]", bytes, ctaID))
		if known {
			d.Pos, d.Warp = ci.in.Pos, ci.warp
		}
		return d
	}
	c.copyAck = max(c.copyAck, now+sim.Cycle(s.cfg.Mem.L2Cycles))
	if err := s.completeTx(now, c, mbar, bytes, nil, nil); err != nil {
		s.fail(err)
		return err
	}
	return nil
}

// ReadShared reads a CTA's shared memory for the copy engine.
func (s *SM) ReadShared(ctaID int, off uint32, b []byte) error {
	c := s.ctaByID(ctaID)
	if c == nil {
		return s.exitedCTA(ctaID, fmt.Sprintf("bulk copy reads the shared memory of CTA %d, which has exited [UB #14]", ctaID))
	}
	return c.smem.Read(off, b)
}

// WriteShared writes a CTA's shared memory for the copy engine.
func (s *SM) WriteShared(ctaID int, off uint32, b []byte) error {
	c := s.ctaByID(ctaID)
	if c == nil {
		return s.exitedCTA(ctaID, fmt.Sprintf("bulk copy writes the shared memory of CTA %d, which has exited [UB #14]", ctaID))
	}
	if a, ok := c.barrierIn(off, uint32(len(b))); ok {
		d := s.diag(nil, nil, DiagMisuse, "access-to-live-barrier", 0,
			fmt.Sprintf("bulk copy writes over the live mbarrier %s [UB #3]", s.barrierName(a)))
		d.Barrier = s.barrierName(a)
		return d
	}
	return c.smem.Write(off, b)
}

// exitedCTA reports a copy landing in a CTA that has exited, naming the
// oldest copy in flight for that CTA (the one landing now).
func (s *SM) exitedCTA(ctaID int, msg string) *Diag {
	d := s.diag(nil, nil, DiagMisuse, "cta-exited", 0, msg)
	best := uint64(0)
	for id, ci := range s.copyIssued {
		if ci.cta == ctaID && (best == 0 || id < best) {
			best = id
		}
	}
	if ci, ok := s.copyIssued[best]; ok {
		d.Pos, d.Warp = ci.in.Pos, ci.warp
	}
	return d
}

func (s *SM) ctaByID(id int) *cta {
	for _, c := range s.ctas {
		if c.id == id {
			return c
		}
	}
	return nil
}
