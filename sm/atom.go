package sm

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// atomic performs lane l's atom/red.
func (s *SM) atomic(wc *wctx, in *isa.Instr, sp isa.Space, off uint64, l int, b []byte, t uint64) error {
	if err := s.memRead(wc, in, sp, off, l, b); err != nil {
		return err
	}
	n := len(b)
	old := getN(b, n)
	src := 1 + int(in.NDst)
	if in.Op == isa.OpRed {
		src = 1
	}

	x := wc.w.Operand(&in.Ops[src], 1, 1<<l, t)[l]
	var y uint64
	if in.Atom == isa.AtomCas {
		y = wc.w.Operand(&in.Ops[src+1], 2, 1<<l, t)[l]
	}
	nv := atomOp(in.Atom, in.Type, old, x, y)
	if in.Atom == isa.AtomAdd && in.Type == isa.F32 {
		nv = atomAddF32(old, x, sp != isa.Shared)
	}
	putN(b, nv, n)
	if err := s.memWrite(wc, in, sp, off, l, b); err != nil {
		return err
	}
	switch {
	case in.Op == isa.OpCast: // SASS compare-and-store: 1 where it stored
		wc.w.SetLane(&in.Ops[0], l, b2u(old == x&atomMask(in.Type)))
	case in.Op == isa.OpAtom && in.NDst > 0:
		wc.w.SetLane(&in.Ops[0], l, old)
		if in.NDst > 1 && in.Ops[1].Kind == isa.KPred { // SASS ATOM's "done" predicate
			wc.w.SetPred(in.Ops[1].Reg, 1<<l, 1<<l)
		}
	}
	return nil
}

// atomAddF32 is an f32 atomic add as the H200 computes it (measured,
// frontend/ptx/testdata/gpu): the global-memory unit flushes subnormal inputs
// and results to zero, and both units return the canonical NaN 0x7fffffff.
func atomAddF32(old, x uint64, flush bool) uint64 {
	a, b := math.Float32frombits(uint32(old)), math.Float32frombits(uint32(x))
	if flush {
		a, b = ftz32(a), ftz32(b)
	}
	r := a + b
	if r != r {
		return 0x7fffffff
	}
	if flush {
		r = ftz32(r)
	}
	return uint64(math.Float32bits(r))
}

func ftz32(f float32) float32 {
	if f != 0 && math.Abs(float64(f)) < 0x1p-126 {
		return float32(math.Copysign(0, float64(f)))
	}
	return f
}

// atomMask is the bits of an atomic's element type.
func atomMask(t isa.Type) uint64 {
	if t.Bits() >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(t.Bits()) - 1
}

func atomOp(op isa.AtomOp, t isa.Type, old, x, y uint64) uint64 {
	bits := t.Bits()
	mask := uint64(1)<<uint(bits) - 1
	if bits == 64 {
		mask = ^uint64(0)
	}
	switch op {
	case isa.AtomAdd:
		switch t {
		case isa.F32:
			return uint64(math.Float32bits(math.Float32frombits(uint32(old)) + math.Float32frombits(uint32(x))))
		case isa.F64:
			return math.Float64bits(math.Float64frombits(old) + math.Float64frombits(x))
		}
		return (old + x) & mask
	case isa.AtomMin, isa.AtomMax:
		less := old < x
		if t.Signed() {
			less = signExt(old, bits) < signExt(x, bits)
		}
		if less == (op == isa.AtomMin) {
			return old
		}
		return x & mask
	case isa.AtomInc:
		if old >= x {
			return 0
		}
		return old + 1
	case isa.AtomDec:
		if old == 0 || old > x {
			return x
		}
		return old - 1
	case isa.AtomAnd:
		return old & x
	case isa.AtomOr:
		return old | x
	case isa.AtomXor:
		return old ^ x
	case isa.AtomExch:
		return x & mask
	case isa.AtomCas:
		if old == x&mask {
			return y & mask
		}
		return old
	}
	return old
}
