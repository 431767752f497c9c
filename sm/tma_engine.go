package sm

import (
	"fmt"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/tma"
)

// copyEngine adapts the TMA unit to the SM's CopyEngine interface.
type copyEngine struct{ u *tma.Unit }

// AttachTMA builds a TMA unit with the SM's configuration, between the SM
// (its shared memory and barriers), global memory and the memory path, and
// attaches it as the SM's copy engine.
func (s *SM) AttachTMA(gm tma.GlobalMem, path tma.MemPath) error {
	u, err := tma.New(s.cfg.TMA, s.eng, gm, path, s, s)
	if err != nil {
		return err
	}
	s.SetCopyEngine(copyEngine{u})
	return nil
}

// Forget drops an exited thread's bulk groups.
func (c copyEngine) Forget(thread uint64) { c.u.Forget(thread) }

// AcceptAt reports when the unit's request queue has room.
func (c copyEngine) AcceptAt(now sim.Cycle) sim.Cycle { return c.u.AcceptAt(now) }

// Issue hands one thread's copy to the unit.
func (c copyEngine) Issue(now sim.Cycle, r CopyRequest) error {
	switch r.Kind {
	case CopyBulkLoad:
		return c.u.Load(now, tma.Load{CTA: r.CTA, Dst: r.Shared, Src: r.Global, Size: r.Size, Mbar: r.Mbar, CopyID: r.ID})
	case CopyBulkStore:
		return c.u.Store(now, tma.Store{CTA: r.CTA, Thread: r.Thread, Dst: r.Global, Src: r.Shared, Size: r.Size})
	case CopyPrefetch:
		return c.u.Prefetch(now, tma.Prefetch{Src: r.Global, Size: r.Size})
	case CopyBulkReduce:
		op, t, err := reduction(r)
		if err != nil {
			return err
		}
		return c.u.Reduce(now, tma.Reduce{CTA: r.CTA, Thread: r.Thread, Dst: r.Global, Src: r.Shared, Size: r.Size, Op: op, Type: t})
	}
	m, err := tma.Decode(r.Map)
	if err != nil {
		return fmt.Errorf("the tensor map operand is not a tensor map built with --arg tensormap:...: %w", err)
	}
	if r.Dim != m.Rank {
		return fmt.Errorf("a %d-D tensor copy with a rank-%d tensor map", r.Dim, m.Rank)
	}
	switch r.Kind {
	case CopyTensorLoad:
		return c.u.TensorLoad(now, tma.TensorLoad{CTA: r.CTA, Dst: r.Shared, Map: m, Desc: r.MapAt, Coords: r.Coords, Mbar: r.Mbar, CopyID: r.ID})
	case CopyTensorStore:
		return c.u.TensorStore(now, tma.TensorStore{CTA: r.CTA, Thread: r.Thread, Map: m, Desc: r.MapAt, Coords: r.Coords, Src: r.Shared})
	case CopyTensorReduce:
		op, _, err := reduction(r)
		if err != nil {
			return err
		}
		return c.u.TensorReduce(now, tma.TensorReduce{CTA: r.CTA, Thread: r.Thread, Map: m, Desc: r.MapAt, Coords: r.Coords, Src: r.Shared, Op: op})
	}
	return fmt.Errorf("unknown copy kind %d", r.Kind)
}

// reduction maps a reduction request's operation and (1-D) element type to
// the unit's: .b32 and .b64 elements are u32 and u64 ones.
func reduction(r CopyRequest) (tma.RedOp, tma.DType, error) {
	var op tma.RedOp
	switch r.Red {
	case isa.AtomAdd:
		op = tma.RedAdd
	case isa.AtomMin:
		op = tma.RedMin
	case isa.AtomMax:
		op = tma.RedMax
	case isa.AtomInc:
		op = tma.RedInc
	case isa.AtomDec:
		op = tma.RedDec
	case isa.AtomAnd:
		op = tma.RedAnd
	case isa.AtomOr:
		op = tma.RedOr
	case isa.AtomXor:
		op = tma.RedXor
	default:
		return 0, 0, fmt.Errorf("reduction operation %d is not one of add min max inc dec and or xor", r.Red)
	}
	if r.Kind == CopyTensorReduce {
		return op, 0, nil
	}
	var t tma.DType
	switch r.Type {
	case isa.B32, isa.U32:
		t = tma.U32
	case isa.S32:
		t = tma.S32
	case isa.B64, isa.U64:
		t = tma.U64
	case isa.S64:
		t = tma.S64
	case isa.F16:
		t = tma.F16
	case isa.BF16:
		t = tma.BF16
	case isa.F32:
		t = tma.F32
	case isa.F64:
		t = tma.F64
	default:
		return 0, 0, fmt.Errorf("reduction element type .%s is not one of b32 u32 s32 b64 u64 s64 f16 bf16 f32 f64", r.Type)
	}
	return op, t, nil
}

// Commit closes the thread's bulk group.
func (c copyEngine) Commit(thread uint64) { c.u.Commit(thread) }

// WaitGroup returns when at most n of the thread's groups are pending.
func (c copyEngine) WaitGroup(now sim.Cycle, thread uint64, n int, read bool) sim.Cycle {
	return c.u.WaitGroup(now, thread, n, read)
}

// copyStats returns the copy engine's counters so far (none without one).
func (s *SM) copyStats() tma.Stats {
	if s.copy == nil {
		return tma.Stats{}
	}
	return s.copy.Stats()
}

// Stats returns the unit's counters.
func (c copyEngine) Stats() tma.Stats { return c.u.Stats() }

// NewLaunch empties the unit's descriptor cache.
func (c copyEngine) NewLaunch(l tma.Launch) { c.u.NewLaunch(l) }

// InFlight reports the copies in flight.
func (c copyEngine) InFlight() int { return c.u.InFlight() }
