package sm

import (
	"maps"
	"slices"
	"sort"
)

// reports gathers a launch's report as its CTAs retire, so that a retired
// CTA (its shared memory, registers and barriers) is let go and the report
// grows with what it lists, not with the grid: the barriers of the first
// ReportCTAs CTAs one by one (up to ReportBarriers of them), the others
// folded into one record per barrier address; likewise the warps, one
// record per warp of the block. Each barrier lists its first ReportPhases
// phases, and a launch ReportPhaseBudget in all (completePhase).
type reports struct {
	phases  int             // phases listed so far
	bars    []listedBarrier // barriers of retired CTAs, listed
	folded  []BarrierReport // one per address, in the order first folded
	foldIdx map[uint32]int  // address -> index in folded
	warps   []WarpReport    // folded warps, by index in the block
}

// reportLimits are the limits in force: the Report constants, lowered by
// tests that would otherwise need millions of phases or thousands of CTAs.
type reportLimits struct {
	phases, budget, ctas, barriers int
}

func defaultReportLimits() reportLimits {
	return reportLimits{phases: ReportPhases, budget: ReportPhaseBudget, ctas: ReportCTAs, barriers: ReportBarriers}
}

type listedBarrier struct {
	seq int // creation order: the report lists barriers in it
	r   BarrierReport
}

// retireBarriers reports the barriers of c, a retired CTA with nothing in
// flight that could still change them, and drops them from the SM.
func (s *SM) retireBarriers(c *cta) {
	k := 0
	for _, b := range s.barList {
		if b.c != c {
			s.barList[k] = b
			k++
			continue
		}
		br := barrierReport(b, true)
		if c.id < s.limits.ctas && len(s.reports.bars) < s.limits.barriers {
			s.reports.bars = append(s.reports.bars, listedBarrier{b.seq, br})
		} else {
			s.reports.fold(br)
		}
	}
	clear(s.barList[k:])
	s.barList = s.barList[:k]
}

// barrierReport is b's report; the open phase is listed only if something
// happened in it. own copies the phases (b is being dropped: the copy is
// exactly as long as needed).
func barrierReport(b *barrier, own bool) BarrierReport {
	ps := b.phases
	if n := len(ps); n > 0 {
		last := &ps[n-1]
		if last.Completed < 0 && last.LastArriver.Lanes == 0 && last.TxBytes == 0 && len(last.Waits) == 0 {
			ps = ps[:n-1]
		}
	}
	if own {
		ps = slices.Clone(ps)
	}
	return BarrierReport{Name: b.name, CTA: b.c.id, Addr: b.addr, Expected: b.initCount, Phases: ps, CTAs: 1, Unlisted: b.unlisted}
}

// fold counts br in the folded record of its address.
func (r *reports) fold(br BarrierReport) {
	if r.foldIdx == nil {
		r.foldIdx = map[uint32]int{}
	}
	i, ok := r.foldIdx[br.Addr]
	if !ok {
		i = len(r.folded)
		r.foldIdx[br.Addr] = i
		r.folded = append(r.folded, BarrierReport{Name: br.Name, CTA: -1, Addr: br.Addr, Expected: br.Expected})
	}
	f := &r.folded[i]
	f.CTAs += br.CTAs
	f.Unlisted.add(br.Unlisted)
	for k := range br.Phases {
		f.Unlisted.addPhase(&br.Phases[k])
	}
}

// foldWarp counts wr in the folded record of its index in the block.
func (r *reports) foldWarp(wr WarpReport) {
	for len(r.warps) <= wr.InCTA {
		r.warps = append(r.warps, WarpReport{Warp: -1, CTA: -1, InCTA: len(r.warps)})
	}
	f := &r.warps[wr.InCTA]
	if f.Warps == 0 || wr.Start < f.Start {
		f.Start = wr.Start
	}
	f.End = max(f.End, wr.End)
	f.Warps += wr.Warps
	f.Instructions += wr.Instructions
	for k := range f.Stalls {
		f.Stalls[k] += wr.Stalls[k]
	}
}

// clone returns a copy that folding into does not change r.
func (r *reports) clone() reports {
	c := *r
	c.folded = slices.Clone(r.folded)
	c.foldIdx = maps.Clone(r.foldIdx)
	c.warps = slices.Clone(r.warps)
	return c
}

// barrierReports lists the launch's barriers: those listed in creation
// order, then the folded records. Barriers of CTAs still resident are
// added as they stand.
func (s *SM) barrierReports() []BarrierReport {
	rep := s.reports.clone()
	listed := slices.Clone(rep.bars)
	for _, b := range s.barList {
		br := barrierReport(b, false)
		if b.c.id < s.limits.ctas && len(listed) < s.limits.barriers {
			listed = append(listed, listedBarrier{b.seq, br})
		} else {
			rep.fold(br)
		}
	}
	sort.SliceStable(listed, func(i, j int) bool { return listed[i].seq < listed[j].seq })
	out := make([]BarrierReport, 0, len(listed)+len(rep.folded))
	for _, l := range listed {
		out = append(out, l.r)
	}
	return append(out, rep.folded...)
}
