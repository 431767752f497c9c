package warp

import (
	"math"
	"math/big"

	"github.com/smsim/smsim/isa"
)

// f64InvalidNaN is the NaN an invalid double operation (sqrt(-1), inf-inf)
// produces on the GPU.
const f64InvalidNaN = 0xfff8000000000000

// f64QuietBit makes a signalling NaN quiet.
const f64QuietBit = 1 << 51

// exactBits is enough precision for the exact sum of any product of two
// doubles and a third double.
const exactBits = 2300

// exactScratch holds the big floats the exact residual of a directed f64
// rounding is computed in, kept so that their mantissas are allocated once,
// not per lane (no result aliases an operand either: big.Float allocates a
// temporary for that).
type exactScratch struct{ x, y, z, q, p, e big.Float }

// double computes o on double operands. A NaN operand propagates (quieted,
// first operand first), as the GPU's double unit does; directed rounding is
// the nearest result adjusted by the sign of the exact residual.
func (o fop) double(a, b, c uint64) uint64 {
	var sc exactScratch
	return o.doubleIn(&sc, a, b, c)
}

// doubleIn is double computing any exact residual in sc.
func (o fop) doubleIn(sc *exactScratch, a, b, c uint64) uint64 {
	x, y, z := math.Float64frombits(a), math.Float64frombits(b), math.Float64frombits(c)
	switch o.op {
	case isa.OpCopysign:
		return b&^(1<<63) | a&(1<<63)
	case isa.OpMin, isa.OpMax:
		return o.minMax64(a, b)
	case isa.OpAbs, isa.OpNeg:
		if math.IsNaN(x) {
			return a | f64QuietBit
		}
		if o.op == isa.OpAbs {
			return a &^ (1 << 63)
		}
		return a ^ 1<<63
	}
	if nan, ok := firstNaN(o.op, a, b, c); ok {
		return nan
	}
	q := nearest64(o.op, x, y, z)
	if math.IsNaN(q) {
		return f64InvalidNaN
	}
	if o.rnd == isa.RZ || o.rnd == isa.RM || o.rnd == isa.RP {
		q = directed(q, residualSign(sc, o.op, x, y, z, q), o.rnd)
	}
	return math.Float64bits(q)
}

// firstNaN returns the quieted NaN operand that wins, in the order the
// H200 picks it: b before a for add, sub and mul; b, then c, then a for
// fma; a before b for division.
func firstNaN(op isa.Op, a, b, c uint64) (uint64, bool) {
	var order []uint64
	switch op {
	case isa.OpAdd, isa.OpSub, isa.OpMul:
		order = []uint64{b, a}
	case isa.OpFma, isa.OpMad:
		order = []uint64{b, c, a}
	case isa.OpDiv:
		order = []uint64{a, b}
	default:
		order = []uint64{a}
	}
	for _, v := range order {
		if math.IsNaN(math.Float64frombits(v)) {
			return v | f64QuietBit, true
		}
	}
	return 0, false
}

// nearest64 is the operation rounded to nearest even.
func nearest64(op isa.Op, x, y, z float64) float64 {
	switch op {
	case isa.OpAdd:
		return x + y
	case isa.OpSub:
		return x - y
	case isa.OpMul:
		return x * y
	case isa.OpFma, isa.OpMad:
		return math.FMA(x, y, z)
	case isa.OpDiv:
		return x / y
	case isa.OpRcp:
		return 1 / x
	case isa.OpSqrt:
		return math.Sqrt(x)
	}
	return approx(op, x)
}

// residualSign is the sign of (exact result - q): +1, -1 or 0.
func residualSign(sc *exactScratch, op isa.Op, x, y, z, q float64) int {
	if op == isa.OpRcp {
		op, x, y = isa.OpDiv, 1, x
	}
	if math.IsInf(q, 0) {
		if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) || op == isa.OpDiv && y == 0 {
			return 0 // an infinite result that is exact
		}
		if q > 0 {
			return -1
		}
		return 1
	}
	// Only the operands an operation reads are converted (an unused one may
	// be anything, a NaN included).
	bf := func(f *big.Float, v float64) *big.Float { return f.SetPrec(exactBits).SetFloat64(v) }
	e, p := sc.e.SetPrec(exactBits), sc.p.SetPrec(exactBits)
	switch op {
	case isa.OpAdd:
		return e.Add(bf(&sc.x, x), bf(&sc.y, y)).Cmp(bf(&sc.q, q))
	case isa.OpSub:
		return e.Sub(bf(&sc.x, x), bf(&sc.y, y)).Cmp(bf(&sc.q, q))
	case isa.OpMul:
		return e.Mul(bf(&sc.x, x), bf(&sc.y, y)).Cmp(bf(&sc.q, q))
	case isa.OpFma, isa.OpMad:
		return e.Add(p.Mul(bf(&sc.x, x), bf(&sc.y, y)), bf(&sc.z, z)).Cmp(bf(&sc.q, q))
	case isa.OpDiv:
		if y == 0 || math.IsInf(y, 0) {
			return 0
		}
		s := e.Sub(bf(&sc.x, x), p.Mul(bf(&sc.q, q), bf(&sc.y, y))).Sign() // x - q*y
		if y < 0 {
			s = -s
		}
		return s
	case isa.OpSqrt:
		bq := bf(&sc.q, q)
		return e.Sub(bf(&sc.x, x), p.Mul(bq, bq)).Sign()
	}
	return 0
}

// directed turns the nearest result q into the result of mode r, given the
// side s of the exact value (the directed result is q or its neighbour).
func directed(q float64, s int, r isa.Rounding) float64 {
	switch {
	case s > 0 && r == isa.RP, s > 0 && r == isa.RZ && q < 0:
		return math.Nextafter(q, math.Inf(1))
	case s < 0 && r == isa.RM, s < 0 && r == isa.RZ && q > 0:
		return math.Nextafter(q, math.Inf(-1))
	}
	return q
}

// minMax64 is min/max on doubles: a NaN operand yields the other one; of
// two NaNs, b (quieted).
func (o fop) minMax64(a, b uint64) uint64 {
	x, y := math.Float64frombits(a), math.Float64frombits(b)
	switch {
	case math.IsNaN(x) && math.IsNaN(y):
		return b | f64QuietBit
	case math.IsNaN(x):
		return b
	case math.IsNaN(y):
		return a
	}
	pickA := x < y || (x == y && math.Signbit(x))
	if o.op == isa.OpMax {
		pickA = x > y || (x == y && !math.Signbit(x))
	}
	if pickA {
		return a
	}
	return b
}
