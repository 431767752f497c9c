package warp

import (
	"math"

	"github.com/smsim/smsim/isa"
)

// Float comparisons of a whole warp: each lane's operands are ordered below,
// equal, above or unordered, and a comparison is the union of some of these
// four lane masks, so the lane loop has no switch.

// cmpMasks are the lanes whose operands compare less, equal, greater.
type cmpMasks struct{ lt, eq, gt uint32 }

// pick returns the lanes for which comparison op holds; unordered lanes
// (a NaN operand) are those in none of the three masks.
func (m cmpMasks) pick(op isa.CmpOp) uint32 {
	un := ^(m.lt | m.eq | m.gt)
	switch op {
	case isa.CmpEq:
		return m.eq
	case isa.CmpNe:
		return m.lt | m.gt
	case isa.CmpLt:
		return m.lt
	case isa.CmpLe:
		return m.lt | m.eq
	case isa.CmpGt:
		return m.gt
	case isa.CmpGe:
		return m.gt | m.eq
	case isa.CmpEqu:
		return m.eq | un
	case isa.CmpNeu:
		return m.lt | m.gt | un
	case isa.CmpLtu:
		return m.lt | un
	case isa.CmpLeu:
		return m.lt | m.eq | un
	case isa.CmpGtu:
		return m.gt | un
	case isa.CmpGeu:
		return m.gt | m.eq | un
	case isa.CmpNum:
		return m.lt | m.eq | m.gt
	case isa.CmpNan:
		return un
	}
	return 0
}

// cmpF32Lanes compares f32 lanes a and b by op (.ftz: subnormals as zeros).
func cmpF32Lanes(op isa.CmpOp, a, b *Vec, ftz bool) uint32 {
	var m cmpMasks
	for l := 0; l < Lanes; l++ {
		x, y := uint32(a[l]), uint32(b[l])
		if ftz {
			x, y = f32Flush(x), f32Flush(y)
		}
		fx, fy := math.Float32frombits(x), math.Float32frombits(y)
		m.lt |= bit(fx < fy) << l
		m.eq |= bit(fx == fy) << l
		m.gt |= bit(fx > fy) << l
	}
	return m.pick(op)
}

// cmpF64Lanes compares f64 lanes a and b by op.
func cmpF64Lanes(op isa.CmpOp, a, b *Vec) uint32 {
	var m cmpMasks
	for l := 0; l < Lanes; l++ {
		fx, fy := math.Float64frombits(a[l]), math.Float64frombits(b[l])
		m.lt |= bit(fx < fy) << l
		m.eq |= bit(fx == fy) << l
		m.gt |= bit(fx > fy) << l
	}
	return m.pick(op)
}
