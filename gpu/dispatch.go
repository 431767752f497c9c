package gpu

import (
	"fmt"
	"sort"

	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// dispatcher is the GPU's CTA scheduler for one launch. Without clusters it
// gives each SM in turn (dispatchOrder) one CTA while it has room, round after round, so
// the first wave spreads over the SMs (measured: 264 CTAs of 128 threads
// put two on each of the 132 SMs, calibration/h200/cluster.csv place,smid_c1_g264);
// as CTAs retire, the next CTAs start on the SMs that have room. A cluster
// starts whole, on distinct SMs of one GPC, the least loaded first, the
// GPCs taken in turn.
type dispatcher struct {
	g       *GPU
	l       *sm.Launch
	cluster [3]int    // CTAs per cluster in each dimension (1,1,1 without)
	size    int       // CTAs per cluster
	units   int       // clusters (or CTAs) in the grid
	next    int       // next cluster (or CTA) to start
	nextGPC int       // the GPC the next cluster tries first
	pick    []int     // scratch: candidate SMs
	launch  sim.Cycle // gpu.cta_launch_ns: a CTA's retirement to its successor's start
	queued  sim.Cycle // the cycle of the latest refill queued (Refill), to queue one a cycle
}

// LaunchError is a launch the GPU cannot run as given: a cluster shape that
// does not divide the grid, or a cluster larger than a GPC holds.
type LaunchError struct{ Msg string }

func (e *LaunchError) Error() string { return e.Msg }

func (d *dispatcher) begin(l *sm.Launch) error {
	d.l, d.next, d.nextGPC = l, 0, 0
	d.cluster = [3]int{1, 1, 1}
	if l.Cluster != [3]int{} {
		d.cluster = l.Cluster
	}
	d.size = d.cluster[0] * d.cluster[1] * d.cluster[2]
	for i := 0; i < 3; i++ {
		if d.cluster[i] < 1 || l.Grid[i]%d.cluster[i] != 0 {
			return &LaunchError{Msg: fmt.Sprintf("cluster %v does not divide grid %v: each grid dimension must be a multiple of the cluster's", d.cluster, l.Grid)}
		}
	}
	spec := d.g.cfg.GPU
	if d.size > spec.MaxClusterCTAs {
		return &LaunchError{Msg: fmt.Sprintf("cluster of %d CTAs: a cluster has at most %d (cluster.max_ctas)", d.size, spec.MaxClusterCTAs)}
	}
	if big := d.largestGPC(); d.size > 1 && d.size > big {
		return &LaunchError{Msg: fmt.Sprintf("cluster of %d CTAs cannot be co-scheduled: the largest GPC of the %d simulated SMs has %d (--sms, gpu.gpc_sms)", d.size, len(d.g.sms), big)}
	}
	d.units = l.Grid[0] * l.Grid[1] * l.Grid[2] / d.size
	d.launch, d.queued = sim.Cycle(spec.CTALaunchCycles(d.g.cfg.ClockMHz)), 0
	return nil
}

func (d *dispatcher) largestGPC() int {
	n := 0
	for _, g := range d.g.gpcs {
		n = max(n, len(g))
	}
	return n
}

// Exhausted reports whether every CTA of the grid has started.
func (d *dispatcher) Exhausted() bool { return d.next >= d.units }

// Refill is an SM's word that one of its CTAs retired: the grid's next
// CTAs start gpu.cta_launch_ns later, wherever they fit then, as the
// H200's do (calibration: apps/h200/gemm_grid_cta.csv).
func (d *dispatcher) Refill(now sim.Cycle) error {
	if d.next >= d.units {
		return nil
	}
	if d.launch == 0 {
		return d.fill(now)
	}
	if at := now + d.launch; at != d.queued {
		d.queued = at
		d.g.eng.Schedule(at, sim.PhaseDeliver, d, 0)
	}
	return nil
}

// Handle starts the CTAs of a refill Refill queued.
func (d *dispatcher) Handle(now sim.Cycle, _ uint64) error { return d.fill(now) }

// fill starts the grid's next CTAs (or clusters) wherever they fit.
func (d *dispatcher) fill(now sim.Cycle) error {
	if d.size == 1 && d.l.Cluster == [3]int{} {
		return d.refillCTAs(now)
	}
	for d.next < d.units {
		ok, err := d.startCluster(now)
		if err != nil || !ok {
			return err
		}
	}
	return nil
}

// refillCTAs gives each SM in turn one CTA while any has room.
func (d *dispatcher) refillCTAs(now sim.Cycle) error {
	for placed := true; placed && d.next < d.units; {
		placed = false
		for _, i := range d.g.order {
			s := d.g.sms[i]
			if d.next >= d.units {
				break
			}
			if !s.CanStart() {
				continue
			}
			if err := s.StartCTA(now, d.next, nil, 0); err != nil {
				return err
			}
			d.next++
			placed = true
		}
	}
	return nil
}

// startCluster starts the next cluster on distinct SMs of one GPC, if some
// GPC has room for all its CTAs.
func (d *dispatcher) startCluster(now sim.Cycle) (bool, error) {
	gpcs := d.g.gpcs
	for k := range gpcs {
		gi := (d.nextGPC + k) % len(gpcs)
		sms := d.candidates(gpcs[gi])
		if len(sms) < d.size {
			continue
		}
		cl := sm.NewCluster(d.clusterIndex(d.next), d.size)
		for rank := 0; rank < d.size; rank++ {
			if err := d.g.sms[sms[rank]].StartCTA(now, d.ctaID(d.next, rank), cl, rank); err != nil {
				return false, err
			}
		}
		d.next++
		d.nextGPC = (gi + 1) % len(gpcs)
		return true, nil
	}
	return false, nil
}

// candidates lists the SMs of a GPC that can start a CTA, least loaded
// first (then in SM order).
func (d *dispatcher) candidates(gpc []int) []int {
	d.pick = d.pick[:0]
	for _, i := range gpc {
		if d.g.sms[i].CanStart() {
			d.pick = append(d.pick, i)
		}
	}
	sort.SliceStable(d.pick, func(a, b int) bool {
		return d.g.sms[d.pick[a]].Resident() < d.g.sms[d.pick[b]].Resident()
	})
	return d.pick
}

// clusterIndex is cluster k's %clusterid: clusters are numbered x first.
func (d *dispatcher) clusterIndex(k int) [3]uint32 {
	nx, ny := d.l.Grid[0]/d.cluster[0], d.l.Grid[1]/d.cluster[1]
	return [3]uint32{uint32(k % nx), uint32(k / nx % ny), uint32(k / (nx * ny))}
}

// ctaID is the linear grid index of rank r of cluster k: rank counts x
// first within the cluster (measured: a 2x2 cluster's ranks 0..3 are CTAs
// (0,0), (1,0), (0,1), (1,1), calibration/h200/cluster.csv sreg,g4x2_c2x2).
func (d *dispatcher) ctaID(k, r int) int {
	ci := d.clusterIndex(k)
	c := d.cluster
	x := int(ci[0])*c[0] + r%c[0]
	y := int(ci[1])*c[1] + r/c[0]%c[1]
	z := int(ci[2])*c[2] + r/(c[0]*c[1])
	return x + y*d.l.Grid[0] + z*d.l.Grid[0]*d.l.Grid[1]
}
