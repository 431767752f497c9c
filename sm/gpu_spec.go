package sm

import "math"

// maxGPCs is the most GPCs gpu.gpc_sms lists.
const maxGPCs = 16

// GPUSpec is the spec of the SMs around the one this package models: how
// many a launch may use, their GPCs (where a cluster's CTAs may run
// together), and the SM-to-SM network that distributed shared memory,
// remote barrier operations and cluster barriers go through.
type GPUSpec struct {
	SMs                int          // gpu.sms
	GPCs               [maxGPCs]int // gpu.gpc_sms: SMs of each GPC, in SM order (0: none)
	MaxClusterCTAs     int          // cluster.max_ctas
	DSMEMLatency       int          // dsmem.latency: a peer CTA's shared memory, over a local load
	DSMEMSelf          int          // dsmem.self_latency: the own CTA's through .shared::cluster
	DSMEMBytesPerCycle int          // dsmem.bytes_per_cycle: an SM's loads from other CTAs' shared memory
	ArriveLatency      int          // cluster.arrive_latency: a remote mbarrier operation's trip
	BarrierLatency     int          // cluster.barrier_latency: last arrival to release
	Release            int          // cluster.release: a .release arrival's wait for visibility
	ArriveInterval     int          // cluster.arrive_interval: between two warps\' arrivals of one CTA
	ReleaseInterval    int          // cluster.release_interval: between two warps\' .release arrivals of one CTA
	CTALaunchNs        float64      // gpu.cta_launch_ns: a CTA's retirement to the start of the one sent in its place
}

// CTALaunchCycles is gpu.cta_launch_ns in cycles of an SM clocked at
// clockMHz.
func (g GPUSpec) CTALaunchCycles(clockMHz float64) int {
	return int(math.Round(g.CTALaunchNs * clockMHz / 1000))
}

// GPCOf returns the GPC of SM i under the spec's layout (SMs past the
// listed ones form one more GPC).
func (g GPUSpec) GPCOf(i int) int {
	for k, n := range g.GPCs {
		if n == 0 {
			return k
		}
		if i < n {
			return k
		}
		i -= n
	}
	return maxGPCs
}
