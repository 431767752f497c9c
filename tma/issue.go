package tma

import "github.com/smsim/smsim/sim"

// MaxTx is the most bytes one barrier phase can expect: tx-count is limited
// to 2^20−1 (PTX §9.7.13.15.2), so a larger copy can never be credited.
const MaxTx = 1<<20 - 1

// Load is a 1-D bulk copy global → shared (cp.async.bulk…mbarrier::complete_tx::bytes).
type Load struct {
	CTA    int
	Dst    uint32 // shared-memory offset in the CTA's window
	Src    uint64 // global address
	Size   uint32
	Mbar   uint32 // shared offset of the barrier credited with Size bytes
	CopyID uint64 // passed back to TxSink.CompleteTx
}

// TensorLoad is a tiled tensor copy global → shared (cp.async.bulk.tensor).
type TensorLoad struct {
	CTA    int
	Dst    uint32
	Map    Map
	Desc   uint64         // where the map was read from: the descriptor cache's key
	Coords [MaxRank]int32 // box origin, innermost first; may be negative or past the end
	Mbar   uint32         // credited with Map.BoxBytes()
	CopyID uint64
}

// Store is a 1-D bulk copy shared → global in the issuing thread's bulk group.
type Store struct {
	CTA    int
	Thread uint64 // the issuing thread: owner of the bulk group
	Dst    uint64
	Src    uint32
	Size   uint32
}

// TensorStore is a tiled tensor copy shared → global in the issuing thread's
// bulk group. Elements outside the tensor are not written.
type TensorStore struct {
	CTA    int
	Thread uint64
	Map    Map
	Desc   uint64         // where the map was read from: the descriptor cache's key
	Coords [MaxRank]int32 // must not be negative (§4 #45)
	Src    uint32
}

// Reduce is a 1-D bulk reduction shared -> global in the issuing thread's
// bulk group (cp.reduce.async.bulk.global.shared::cta.bulk_group): each
// element of [Dst, Dst+Size) is combined with the matching element of the
// source by Op, atomically per element.
type Reduce struct {
	CTA    int
	Thread uint64
	Dst    uint64
	Src    uint32
	Size   uint32
	Op     RedOp
	Type   DType // element type (.b32 and .b64 are U32 and U64)
}

// TensorReduce is a tiled tensor reduction shared -> global in the issuing
// thread's bulk group (cp.reduce.async.bulk.tensor): the box's elements are
// combined with the tensor's, whose type the map gives; elements outside
// the tensor are skipped, as a tensor store skips them.
type TensorReduce struct {
	CTA    int
	Thread uint64
	Map    Map
	Desc   uint64
	Coords [MaxRank]int32 // must not be negative, as for a store
	Src    uint32
	Op     RedOp
}

// Prefetch brings a global range into L2 (cp.async.bulk.prefetch.L2).
type Prefetch struct {
	Src  uint64
	Size uint32
}

// TensorPrefetch brings a box into L2 (cp.async.bulk.prefetch.tensor.L2).
type TensorPrefetch struct {
	Map    Map
	Coords [MaxRank]int32
}

const (
	opBulk      = "cp.async.bulk"
	opTensor    = "cp.async.bulk.tensor"
	opPref      = "cp.async.bulk.prefetch"
	opReduce    = "cp.reduce.async.bulk"
	opRedTensor = "cp.reduce.async.bulk.tensor"
)

// Load issues a 1-D load at now. Operands are checked first (§4 #43, #55);
// a rejected copy changes nothing.
func (u *Unit) Load(now sim.Cycle, r Load) error {
	if err := u.check1D(opBulk, r.Dst, r.Src, r.Size); err != nil {
		return err
	}
	if err := checkMbar(opBulk, r.Mbar); err != nil {
		return err
	}
	t := u.begin(now, 1, r.Size) + sim.Cycle(u.cfg.SetupCycles)
	u.stats.Loads++
	u.startLoad(t, request{kind: kLoad, cta: r.CTA, smem: r.Dst, global: r.Src, size: r.Size, mbar: r.Mbar, id: r.CopyID})
	return nil
}

// TensorLoad issues a tensor load at now.
func (u *Unit) TensorLoad(now sim.Cycle, r TensorLoad) error {
	if err := u.checkTensor(opTensor, r.Map, r.Dst); err != nil {
		return err
	}
	if err := checkMbar(opTensor, r.Mbar); err != nil {
		return err
	}
	t := u.begin(now, r.Map.Rows(), uint32(r.Map.InnerBytes())) + sim.Cycle(u.cfg.SetupCycles+u.cfg.DescriptorCycles) + u.descriptor(r.Desc)
	u.stats.TensorLoads++
	u.startTensorLoad(t, request{kind: kTensorLoad, cta: r.CTA, smem: r.Dst, size: r.Map.BoxBytes(), mbar: r.Mbar, id: r.CopyID, m: r.Map, coords: r.Coords})
	return nil
}

// Store issues a 1-D store at now into thread's open bulk group.
func (u *Unit) Store(now sim.Cycle, r Store) error {
	if err := u.check1D(opBulk, r.Src, r.Dst, r.Size); err != nil {
		return err
	}
	read, done := u.timeStore(now, r.Dst, r.Size, nil, [MaxRank]int32{}, 0, false)
	u.stats.Stores++
	u.group(r.Thread).add(read, done)
	u.launch(read, request{kind: kStore, cta: r.CTA, smem: r.Src, global: r.Dst, size: r.Size})
	return nil
}

// TensorStore issues a tensor store at now into thread's open bulk group.
func (u *Unit) TensorStore(now sim.Cycle, r TensorStore) error {
	if err := u.checkTensor(opTensor, r.Map, r.Src); err != nil {
		return err
	}
	for i := 0; i < r.Map.Rank; i++ {
		if r.Coords[i] < 0 {
			return newErr(NegativeOrigin, opTensor, "store origin coordinate %d is %d; stores may not start before the tensor", i, r.Coords[i])
		}
	}
	bytes := r.Map.BoxBytes()
	read, done := u.timeStore(now, 0, bytes, &r.Map, r.Coords, r.Desc, false)
	u.stats.TensorStores++
	u.group(r.Thread).add(read, done)
	u.launch(read, request{kind: kTensorStore, cta: r.CTA, smem: r.Src, size: bytes, m: r.Map, coords: r.Coords})
	return nil
}

// Reduce issues a 1-D bulk reduction at now into thread's open bulk group.
// Operands are checked as a store's are (§4 #43), and the operation must be
// one the PTX ISA defines for the element type.
func (u *Unit) Reduce(now sim.Cycle, r Reduce) error {
	if err := u.check1D(opReduce, r.Src, r.Dst, r.Size); err != nil {
		return err
	}
	if !ReduceValid(r.Op, r.Type, false) {
		return newErr(BadReduce, opReduce, ".%s is not defined on .%s elements", r.Op, r.Type)
	}
	read, done := u.timeStore(now, r.Dst, r.Size, nil, [MaxRank]int32{}, 0, true)
	u.stats.Stores++
	u.stats.Reductions++
	u.group(r.Thread).add(read, done)
	u.launch(read, request{kind: kReduce, cta: r.CTA, smem: r.Src, global: r.Dst, size: r.Size, op: r.Op, dtype: r.Type})
	return nil
}

// TensorReduce issues a tensor reduction at now into thread's open bulk
// group. The map and origin are checked as a tensor store's are (§4 #45,
// #53); the map's element type must be one the ISA defines the operation on.
func (u *Unit) TensorReduce(now sim.Cycle, r TensorReduce) error {
	if err := u.checkTensor(opRedTensor, r.Map, r.Src); err != nil {
		return err
	}
	for i := 0; i < r.Map.Rank; i++ {
		if r.Coords[i] < 0 {
			return newErr(NegativeOrigin, opRedTensor, "reduction origin coordinate %d is %d; like stores, reductions may not start before the tensor", i, r.Coords[i])
		}
	}
	if !ReduceValid(r.Op, r.Map.DType, true) {
		return newErr(BadReduce, opRedTensor, ".%s is not defined on the tensor map's %s elements", r.Op, r.Map.DType)
	}
	bytes := r.Map.BoxBytes()
	read, done := u.timeStore(now, 0, bytes, &r.Map, r.Coords, r.Desc, true)
	u.stats.TensorStores++
	u.stats.Reductions++
	u.group(r.Thread).add(read, done)
	u.launch(read, request{kind: kTensorReduce, cta: r.CTA, smem: r.Src, size: bytes, m: r.Map, coords: r.Coords, op: r.Op, dtype: r.Map.DType})
	return nil
}

// Prefetch issues an L2 prefetch at now. It occupies the front end and warms
// L2; nothing completes.
func (u *Unit) Prefetch(now sim.Cycle, r Prefetch) error {
	if err := u.check1D(opPref, 0, r.Src, r.Size); err != nil {
		return err
	}
	t := u.begin(now, 1, r.Size) + sim.Cycle(u.cfg.SetupCycles)
	_, dram := u.path.Stream(t, r.Src, int(r.Size))
	u.stats.Prefetches++
	u.stats.DRAMBytes += uint64(dram)
	return nil
}

// TensorPrefetch issues a box prefetch into L2 at now.
func (u *Unit) TensorPrefetch(now sim.Cycle, r TensorPrefetch) error {
	if err := u.checkTensor(opTensor, r.Map, 0); err != nil {
		return err
	}
	t := u.begin(now, r.Map.Rows(), uint32(r.Map.InnerBytes())) + sim.Cycle(u.cfg.SetupCycles+u.cfg.DescriptorCycles)
	_, dram := u.streamRows(t, &r.Map, r.Coords, streamRead)
	u.stats.Prefetches++
	u.stats.DRAMBytes += uint64(dram)
	return nil
}

// launch schedules the request's landing at cycle at.
func (u *Unit) launch(at sim.Cycle, r request) {
	i := u.alloc(r)
	u.inFlight++
	u.eng.Schedule(at, sim.PhaseDeliver, u, uint64(i))
}

// check1D validates a 1-D copy of size bytes between shared offset smem and
// global address global (§4 #43, #55).
func (u *Unit) check1D(op string, smem uint32, global uint64, size uint32) error {
	switch {
	case size == 0:
		return newErr(BadSize, op, "size is 0")
	case size%16 != 0:
		return newErr(BadSize, op, "size %d is not a multiple of 16", size)
	case smem%16 != 0:
		return newErr(Misaligned, op, "shared offset %#x is not 16-byte aligned", smem)
	case global%16 != 0:
		return newErr(Misaligned, op, "global address %#x is not 16-byte aligned", global)
	case global+uint64(size) < global:
		return newErr(RangeOverflow, op, "global range %#x + %d wraps around", global, size)
	case uint64(smem)+uint64(size) > uint64(u.cfg.SmemBytes):
		return newErr(RangeOverflow, op, "shared range %#x + %d passes the %d bytes of shared memory", smem, size, u.cfg.SmemBytes)
	case size > MaxTx:
		return newErr(TxRange, op, "%d bytes exceed what one barrier phase can expect (2^20−1)", size)
	}
	return nil
}

// checkTensor validates a tensor copy's map and shared offset (op names
// the instruction in errors).
func (u *Unit) checkTensor(op string, m Map, smem uint32) error {
	if err := m.Validate(); err != nil {
		return &Error{Code: BadMap, Op: op, Msg: "invalid tensor map", Err: err}
	}
	if m.Interleave != InterleaveNone {
		return newErr(Unsupported, op, "interleaved layouts (%s) are not modelled", m.Interleave)
	}
	if smem%128 != 0 {
		return newErr(Misaligned, op, "shared offset %#x is not 128-byte aligned", smem)
	}
	if n := m.BoxBytes(); uint64(smem)+uint64(n) > uint64(u.cfg.SmemBytes) {
		return newErr(RangeOverflow, op, "box of %d bytes at shared offset %#x passes the %d bytes of shared memory", n, smem, u.cfg.SmemBytes)
	}
	return nil
}

func checkMbar(op string, mbar uint32) error {
	if mbar%8 != 0 {
		return newErr(Misaligned, op, "barrier offset %#x is not 8-byte aligned", mbar)
	}
	return nil
}
