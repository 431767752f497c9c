package tma

import (
	"fmt"

	"github.com/smsim/smsim/sim"
)

// GlobalMem is the global memory the unit reads and writes (memory.Global).
type GlobalMem interface {
	Read(addr uint64, b []byte) error
	Write(addr uint64, b []byte) error
}

// MemPath is the timing of the path to memory (memory.Hierarchy): when the
// last byte of a bulk read issued at now arrives, and how many bytes came
// from DRAM; when a bulk write issued at now is performed.
type MemPath interface {
	Stream(now sim.Cycle, addr uint64, size int) (ready sim.Cycle, dramBytes int)
	StreamWrite(now sim.Cycle, addr uint64, size int) (done sim.Cycle)
	// StreamReduce is a bulk reduction's write, combined in L2: when it is
	// performed, and how many bytes L2 read from DRAM for it.
	StreamReduce(now sim.Cycle, addr uint64, size int) (done sim.Cycle, dramBytes int)
	// HitLatency is the round trip of a request that L2 answers.
	HitLatency() sim.Cycle
}

// SharedMem gives the unit the shared windows of the SM's CTAs.
type SharedMem interface {
	ReadShared(cta int, off uint32, b []byte) error
	WriteShared(cta int, off uint32, b []byte) error
}

// ArrayUser is what a SharedMem may also be: the owner of the shared-memory
// data array that the unit's store reads share with the warps' accesses.
// ShareArray says the unit will take cycles of the array's cycles in
// [from, to).
type ArrayUser interface {
	ShareArray(from, to sim.Cycle, cycles int)
}

// TxSink receives the complete-tx of a load when its bytes have landed.
type TxSink interface {
	CompleteTx(now sim.Cycle, cta int, mbarOff uint32, bytes uint32, copyID uint64) error
}

// Unit is the TMA (bulk-copy) engine of one SM. Requests are validated and
// timed when they are issued; each copy then costs one engine event, at
// which its bytes move and (for loads) the barrier is credited.
type Unit struct {
	cfg  Config
	eng  *sim.Engine
	mem  GlobalMem
	path MemPath
	smem SharedMem
	sink TxSink

	reqs     []request // pool; an event's arg is an index into it
	free     []int32   // unused pool entries
	inFlight int

	feFree   fixed       // when the front end can start the next request
	busy     fixed       // total front-end occupancy
	smemFree fixed       // when the shared-memory port is free
	sendFree fixed       // when the store path out of the SM is free
	starts   []sim.Cycle // start cycles of the last QueueDepth requests (a ring)
	next     int         // ring position of the oldest entry
	groups   map[uint64]*groups
	buf      []byte // scratch for moving bytes
	gbuf     []byte // scratch for a reduction's destination bytes
	stats    Stats

	// descs holds the tensor maps (by address) fetched this launch;
	// fetchedAny whether any was.
	descs      map[uint64]struct{}
	fetchedAny bool
	// paramsRead: the program reads the parameter line holding its maps
	// with instructions of its own (NewLaunch).
	paramsRead bool
	// completionPad: cycles every copy's completion comes later this
	// launch (NewLaunch).
	completionPad sim.Cycle
}

// Launch says what the unit needs to know of a launch's program.
type Launch struct {
	// ParamsRead: the program reads its parameters with instructions of
	// its own, timed by the SM's constant caches (SASS: the ULDCs of a
	// map's address), so the launch's first fetch costs only
	// DescriptorMissCycles.
	ParamsRead bool
	// CompletionPad delays every copy's completion by this many cycles
	// beyond CompletionLatency (a caller's effective model: the SM's
	// ptxas.copy_completion_pad for PTX programs).
	CompletionPad int
}

// NewLaunch empties the descriptor cache: a launch's tensor maps are its
// own parameters (or global memory it may have rewritten).
func (u *Unit) NewLaunch(l Launch) {
	clear(u.descs)
	u.fetchedAny = false
	u.paramsRead = l.ParamsRead
	u.completionPad = sim.Cycle(l.CompletionPad)
}

// descriptor returns the extra setup of a tensor copy through the map at
// addr: nothing when an earlier copy of the launch fetched it.
func (u *Unit) descriptor(addr uint64) sim.Cycle {
	if _, ok := u.descs[addr]; ok {
		return 0
	}
	if u.descs == nil {
		u.descs = map[uint64]struct{}{}
	}
	u.descs[addr] = struct{}{}
	u.stats.DescriptorMisses++
	d := sim.Cycle(u.cfg.DescriptorMissCycles)
	if !u.fetchedAny {
		u.fetchedAny = true
		if !u.paramsRead {
			d += sim.Cycle(u.cfg.DescriptorFirstCycles)
		}
	}
	return d
}

// New returns an idle unit.
func New(cfg Config, eng *sim.Engine, mem GlobalMem, path MemPath, smem SharedMem, sink TxSink) (*Unit, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if eng == nil || mem == nil || path == nil || smem == nil || sink == nil {
		return nil, fmt.Errorf("tma: New needs an engine, global memory, a memory path, shared memory and a tx sink")
	}
	return &Unit{
		cfg: cfg, eng: eng, mem: mem, path: path, smem: smem, sink: sink,
		starts: make([]sim.Cycle, cfg.QueueDepth),
		groups: make(map[uint64]*groups),
		buf:    make([]byte, cfg.SmemBytes),
	}, nil
}

// Config returns the unit's configuration.
func (u *Unit) Config() Config { return u.cfg }

// InFlight reports how many copies have been issued and not yet landed.
func (u *Unit) InFlight() int { return u.inFlight }

// Stats returns a copy of the counters.
func (u *Unit) Stats() Stats {
	s := u.stats
	s.BusyCycles = uint64(u.busy.ceil())
	return s
}

// AcceptAt returns the first cycle at or after now at which the queue has
// room for another request. The SM should hold the issuing warp until then;
// a request issued earlier is still accepted (and counted in
// Stats.QueueFullIssues) with the same timing, as if it had waited.
func (u *Unit) AcceptAt(now sim.Cycle) sim.Cycle {
	// starts is monotone; entries after now are requests still queued.
	oldest := u.starts[u.next]
	if oldest <= now {
		return now
	}
	return oldest
}

// kind is what a pooled request does.
type kind uint8

const (
	kLoad kind = iota
	kTensorLoad
	kStore
	kTensorStore
	kReduce
	kTensorReduce
)

// request is a copy in flight, kept in Unit.reqs until its event runs.
type request struct {
	kind   kind
	cta    int
	smem   uint32 // destination of loads, source of stores
	global uint64 // 1-D copies
	size   uint32 // 1-D size, or box bytes
	mbar   uint32
	id     uint64
	m      Map
	coords [MaxRank]int32
	op     RedOp // reductions
	dtype  DType // reductions: the element type
	stream rowStream
}

// alloc takes a pool entry for r and returns its index.
func (u *Unit) alloc(r request) int32 {
	if n := len(u.free); n > 0 {
		i := u.free[n-1]
		u.free = u.free[:n-1]
		u.reqs[i] = r
		return i
	}
	u.reqs = append(u.reqs, r)
	return int32(len(u.reqs) - 1)
}

// Handle moves a copy's bytes when it lands: the unit's event handler, not
// for direct use. arg is the request's pool index.
func (u *Unit) Handle(now sim.Cycle, arg uint64) error {
	r := &u.reqs[arg]
	if r.stream.active {
		u.sendRows(now, arg)
		return nil
	}
	var err error
	switch r.kind {
	case kLoad:
		err = u.landLoad(now, r)
	case kTensorLoad:
		err = u.landTensorLoad(now, r)
	case kStore:
		err = u.landStore(r)
	case kTensorStore:
		err = u.landTensorStore(r)
	case kReduce:
		err = u.landReduce(r)
	case kTensorReduce:
		err = u.landTensorReduce(r)
	}
	u.reqs[arg] = request{}
	u.free = append(u.free, int32(arg))
	u.inFlight--
	return err
}
