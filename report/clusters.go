package report

import "slices"

// clusters folds the report's warps, barriers and SMs into one record per
// thread-block cluster of a launch whose clusters have shape k (none for
// a launch without one). Clusters count x first within the grid, as their
// CTAs do within a cluster (docs/clusters.md).
func clusters(grid, k [3]int, r *Report) []Cluster {
	if k == [3]int{} {
		return nil
	}
	of := func(cta int) int {
		x, y, z := cta%grid[0], cta/grid[0]%grid[1], cta/(grid[0]*grid[1])
		nx, ny := grid[0]/k[0], grid[1]/k[1]
		return x/k[0] + y/k[1]*nx + z/k[2]*nx*ny
	}
	n := grid[0] / k[0] * (grid[1] / k[1]) * (grid[2] / k[2])
	cs := make([]Cluster, n)
	for i := range cs {
		cs[i] = Cluster{Cluster: i, CTAs: []int{}, SMs: []int{}, Stalls: map[string]uint64{}}
	}
	for _, w := range r.Warps {
		if w.CTA < 0 {
			continue // folded past sm.ReportCTAs
		}
		c := &cs[of(w.CTA)]
		if !slices.Contains(c.CTAs, w.CTA) {
			c.CTAs = append(c.CTAs, w.CTA)
		}
		c.Cycles = max(c.Cycles, w.End)
		c.WarpInstructions += w.Instructions
		for k, v := range w.Stalls {
			c.Stalls[k] += v
		}
	}
	for _, b := range r.Barriers {
		if b.CTA < 0 {
			continue
		}
		for _, p := range b.Phases {
			cs[of(b.CTA)].RemoteArrivals += p.RemoteArrivals
		}
	}
	for _, s := range r.SMs {
		for _, cta := range s.CTAIDs {
			if c := &cs[of(cta)]; !slices.Contains(c.SMs, s.SM) {
				c.SMs = append(c.SMs, s.SM)
			}
		}
	}
	for i := range cs {
		slices.Sort(cs[i].CTAs)
		slices.Sort(cs[i].SMs)
	}
	return cs
}
