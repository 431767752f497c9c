package isa

import "fmt"

// Special is a special register (PTX %name[.component]).
type Special uint8

// Special registers. Clock, Clock64 and GlobalTimer read simulated time.
const (
	SNone Special = iota
	STidX
	STidY
	STidZ
	SNtidX
	SNtidY
	SNtidZ
	SCtaidX
	SCtaidY
	SCtaidZ
	SNctaidX
	SNctaidY
	SNctaidZ
	SLaneID
	SWarpID
	SNWarpID
	SSMID
	SNSMID
	SGridID
	SLaneMaskEq
	SLaneMaskLe
	SLaneMaskLt
	SLaneMaskGe
	SLaneMaskGt
	SClock
	SClockHi
	SClock64
	SGlobalTimer
	SGlobalTimerLo
	SGlobalTimerHi
	SDynamicSmemSize
	STotalSmemSize
	SClusterCtaRank
	SClusterNCtaRank
	SClusterIDX
	SClusterIDY
	SClusterIDZ
	SClusterCtaidX
	SClusterCtaidY
	SClusterCtaidZ
	SClusterNCtaidX
	SClusterNCtaidY
	SClusterNCtaidZ
	SNClusterIDX
	SNClusterIDY
	SNClusterIDZ
	SIsExplicitCluster
	SEnvReg // %envregN: zero
	SPM     // %pmN performance counters: zero
	numSpecials
)

var specialNames = [...]string{
	STidX: "%tid.x", STidY: "%tid.y", STidZ: "%tid.z", SNtidX: "%ntid.x", SNtidY: "%ntid.y", SNtidZ: "%ntid.z",
	SCtaidX: "%ctaid.x", SCtaidY: "%ctaid.y", SCtaidZ: "%ctaid.z",
	SNctaidX: "%nctaid.x", SNctaidY: "%nctaid.y", SNctaidZ: "%nctaid.z",
	SLaneID: "%laneid", SWarpID: "%warpid", SNWarpID: "%nwarpid", SSMID: "%smid", SNSMID: "%nsmid", SGridID: "%gridid",
	SLaneMaskEq: "%lanemask_eq", SLaneMaskLe: "%lanemask_le", SLaneMaskLt: "%lanemask_lt",
	SLaneMaskGe: "%lanemask_ge", SLaneMaskGt: "%lanemask_gt",
	SClock: "%clock", SClockHi: "%clock_hi", SClock64: "%clock64",
	SGlobalTimer: "%globaltimer", SGlobalTimerLo: "%globaltimer_lo", SGlobalTimerHi: "%globaltimer_hi",
	SDynamicSmemSize: "%dynamic_smem_size", STotalSmemSize: "%total_smem_size",
	SClusterCtaRank: "%cluster_ctarank", SClusterNCtaRank: "%cluster_nctarank",
	SClusterIDX: "%clusterid.x", SClusterIDY: "%clusterid.y", SClusterIDZ: "%clusterid.z",
	SClusterCtaidX: "%cluster_ctaid.x", SClusterCtaidY: "%cluster_ctaid.y", SClusterCtaidZ: "%cluster_ctaid.z",
	SClusterNCtaidX: "%cluster_nctaid.x", SClusterNCtaidY: "%cluster_nctaid.y", SClusterNCtaidZ: "%cluster_nctaid.z",
	SNClusterIDX: "%nclusterid.x", SNClusterIDY: "%nclusterid.y", SNClusterIDZ: "%nclusterid.z",
	SIsExplicitCluster: "%is_explicit_cluster", SEnvReg: "%envreg", SPM: "%pm",
}

// String is the PTX spelling.
func (s Special) String() string {
	if int(s) < len(specialNames) && specialNames[s] != "" {
		return specialNames[s]
	}
	return fmt.Sprintf("special(%d)", uint8(s))
}

// ParseSpecial maps a PTX special-register name (with %, and component) to a Special.
// %envregN and %pmN (any N) map to SEnvReg and SPM.
func ParseSpecial(s string) (Special, bool) {
	for i, n := range specialNames {
		if n != "" && n == s {
			return Special(i), true
		}
	}
	if len(s) > 7 && s[:7] == "%envreg" {
		return SEnvReg, true
	}
	if len(s) > 3 && s[:3] == "%pm" {
		return SPM, true
	}
	return SNone, false
}
