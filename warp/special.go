package warp

import (
	"math/bits"

	"github.com/smsim/smsim/isa"
)

func fill(s *Vec, v uint64) {
	for l := range s {
		s[l] = v
	}
}

// special evaluates special register sr into s; now is the SM cycle.
func (w *Warp) special(sr isa.Special, s *Vec, now uint64) {
	e := &w.Env
	switch sr {
	case isa.STidX, isa.STidY, isa.STidZ:
		*s = e.Tid[sr-isa.STidX]
	case isa.SNtidX, isa.SNtidY, isa.SNtidZ:
		fill(s, uint64(e.Ntid[sr-isa.SNtidX]))
	case isa.SCtaidX, isa.SCtaidY, isa.SCtaidZ:
		fill(s, uint64(e.Ctaid[sr-isa.SCtaidX]))
	case isa.SNctaidX, isa.SNctaidY, isa.SNctaidZ:
		fill(s, uint64(e.Nctaid[sr-isa.SNctaidX]))
	case isa.SLaneID:
		for l := range s {
			s[l] = uint64(l)
		}
	case isa.SWarpID:
		fill(s, uint64(e.WarpID))
	case isa.SNWarpID:
		fill(s, uint64(e.NWarpID))
	case isa.SSMID:
		fill(s, uint64(e.SMID))
	case isa.SNSMID:
		fill(s, uint64(e.NSMID))
	case isa.SGridID:
		fill(s, e.GridID)
	case isa.SLaneMaskEq, isa.SLaneMaskLe, isa.SLaneMaskLt, isa.SLaneMaskGe, isa.SLaneMaskGt:
		for l := range s {
			s[l] = uint64(laneMask(sr, l))
		}
	case isa.SClock:
		fill(s, now&0xffffffff)
	case isa.SClockHi:
		fill(s, now>>32)
	case isa.SClock64:
		fill(s, now)
	case isa.SGlobalTimer, isa.SGlobalTimerLo, isa.SGlobalTimerHi:
		ns := now
		if e.ClockHz != 0 {
			hi, lo := bits.Mul64(now, 1_000_000_000)
			ns, _ = bits.Div64(hi%e.ClockHz, lo, e.ClockHz)
		}
		switch sr {
		case isa.SGlobalTimerLo:
			ns &= 0xffffffff
		case isa.SGlobalTimerHi:
			ns >>= 32
		}
		fill(s, ns)
	case isa.SDynamicSmemSize:
		fill(s, uint64(e.DynSmem))
	case isa.STotalSmemSize:
		fill(s, uint64(e.TotSmem))
	case isa.SClusterCtaRank:
		fill(s, uint64(e.Cluster.Rank))
	case isa.SClusterNCtaRank:
		fill(s, uint64(e.Cluster.NRank))
	case isa.SClusterNCtaidX, isa.SClusterNCtaidY, isa.SClusterNCtaidZ:
		fill(s, uint64(e.Cluster.NCTAID[sr-isa.SClusterNCtaidX]))
	case isa.SClusterCtaidX, isa.SClusterCtaidY, isa.SClusterCtaidZ:
		fill(s, uint64(e.Cluster.CTAID[sr-isa.SClusterCtaidX]))
	case isa.SNClusterIDX, isa.SNClusterIDY, isa.SNClusterIDZ:
		fill(s, uint64(e.Cluster.NID[sr-isa.SNClusterIDX]))
	case isa.SClusterIDX, isa.SClusterIDY, isa.SClusterIDZ:
		fill(s, uint64(e.Cluster.ID[sr-isa.SClusterIDX]))
	case isa.SIsExplicitCluster:
		fill(s, b2u(e.Cluster.Explicit))
	default: // %envreg, %pm
		fill(s, 0)
	}
}

func laneMask(sr isa.Special, l int) uint32 {
	bit := uint32(1) << l
	switch sr {
	case isa.SLaneMaskEq:
		return bit
	case isa.SLaneMaskLe:
		return bit | (bit - 1)
	case isa.SLaneMaskLt:
		return bit - 1
	case isa.SLaneMaskGe:
		return ^(bit - 1)
	}
	return ^(bit | (bit - 1)) // gt
}
