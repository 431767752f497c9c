package report

import (
	"math"
	"regexp"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// Dist describes a sample: its size, mean, standard deviation and order
// statistics, all computed with gonum/stat.
type Dist struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	Std  float64 `json:"std"`
	Min  float64 `json:"min"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P95  float64 `json:"p95"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// Distribution describes x (which it does not modify). An empty sample
// gives the zero dist.
func Distribution(x []float64) Dist {
	if len(x) == 0 {
		return Dist{}
	}
	s := sorted(x)
	q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, s, nil) }
	d := Dist{N: len(s), Mean: stat.Mean(s, nil), Min: s[0], Max: s[len(s)-1],
		P25: q(0.25), P50: q(0.5), P75: q(0.75), P95: q(0.95), P99: q(0.99)}
	if len(s) > 1 {
		d.Std = stat.StdDev(s, nil)
	}
	return d
}

// Bin is one histogram bin: values v with Lo <= v < Hi.
type Bin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Count int     `json:"count"`
}

// Histogram puts x into at most n bins of equal width spanning its range,
// with stat.Histogram. Integer data (cycle counts) get integer-wide bins.
func Histogram(x []float64, n int) []Bin {
	if len(x) == 0 || n < 1 {
		return nil
	}
	s := sorted(x)
	lo, hi := s[0], s[len(s)-1]
	// The last divider must lie above the maximum.
	width := (hi - lo) / float64(n) * (1 + 1e-9)
	if allIntegers(s) {
		width = math.Ceil((hi - lo + 1) / float64(n))
	}
	if width <= 0 {
		width = 1
	}
	n = min(n, max(1, int(math.Floor((hi-lo)/width))+1))
	dividers := make([]float64, n+1)
	floats.Span(dividers, lo, lo+width*float64(n))
	counts := stat.Histogram(nil, dividers, s, nil)
	out := make([]Bin, n)
	for i := range out {
		out[i] = Bin{Lo: dividers[i], Hi: dividers[i+1], Count: int(counts[i])}
	}
	return out
}

func sorted(x []float64) []float64 {
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	return s
}

func allIntegers(x []float64) bool {
	for _, v := range x {
		if v != math.Trunc(v) {
			return false
		}
	}
	return true
}

// BarrierStat gathers one barrier name's phases over every CTA of a run:
// the figures compare, sweep, stats and the plots report.
type BarrierStat struct {
	Name            string
	CTAs            int     // distinct CTAs with this barrier
	Phases          int     // completed phases
	StallCycles     uint64  // every waiting warp's cycles, all phases
	UpdatesPerPhase float64 // barrier updates per completed phase
	UpdatesPerWarp  float64 // updates per arriving warp, mean over phases (1 converged, 32 lane by lane)
	Durations       []float64
	Waits           []float64 // one per waiting warp per phase
	PhaseStalls     []float64 // stall cycles of each phase, in phase order (CTA 0 first)
	Opened          []float64 // the cycle each completed phase opened, parallel to Durations
}

// arrayIndex matches the element indices of a barrier array's names.
var arrayIndex = regexp.MustCompile(`\[[0-9]+\]`)

// BarrierStats groups the report's barriers by name, in order of first
// appearance, pooling their CTAs; with arrays, it also pools the elements
// of each barrier array (full[0], full[1], ... as full[*]).
func BarrierStats(r *Report, arrays bool) []*BarrierStat {
	var out []*BarrierStat
	byName := map[string]*BarrierStat{}
	ctas := map[string]map[int]bool{}
	for _, b := range r.Barriers {
		name := b.Name
		if arrays {
			name = arrayIndex.ReplaceAllString(name, "[*]")
		}
		s := byName[name]
		if s == nil {
			s = &BarrierStat{Name: name}
			byName[name] = s
			out = append(out, s)
		}
		switch {
		case b.CTA < 0: // a record of the CTAs past sm.ReportCTAs, folded
			s.CTAs += b.CTAs
		case !ctas[name][b.CTA]:
			if ctas[name] == nil {
				ctas[name] = map[int]bool{}
			}
			ctas[name][b.CTA] = true
			s.CTAs++
		}
		s.StallCycles += b.StallCycles
		if u := b.Unlisted; u != nil {
			// Counted in the totals; the distributions cover the listed phases.
			s.Phases += int(u.Completed)
			s.UpdatesPerPhase += float64(u.Updates)
			s.UpdatesPerWarp += u.UpdatesPerWarp * float64(u.Completed)
		}
		for _, p := range b.Phases {
			s.PhaseStalls = append(s.PhaseStalls, float64(p.StallCycles))
			for _, w := range p.Waits {
				s.Waits = append(s.Waits, float64(w.Cycles))
			}
			if p.Completed < 0 {
				continue
			}
			s.Phases++
			s.Durations = append(s.Durations, float64(p.Duration))
			s.Opened = append(s.Opened, float64(p.Opened))
			s.UpdatesPerPhase += float64(p.Updates)
			s.UpdatesPerWarp += p.UpdatesPerWarp
		}
	}
	for _, s := range out {
		if s.Phases > 0 {
			s.UpdatesPerPhase /= float64(s.Phases)
			s.UpdatesPerWarp /= float64(s.Phases)
		}
	}
	return out
}

// ByOpening returns the completed phases' durations ordered by the cycle
// each phase opened (stable, so one barrier's phases keep their order).
func (s *BarrierStat) ByOpening() []float64 {
	idx := make([]int, len(s.Durations))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.Opened[idx[a]] < s.Opened[idx[b]] })
	out := make([]float64, len(idx))
	for k, i := range idx {
		out[k] = s.Durations[i]
	}
	return out
}

// BarrierSummary is a barrier's line in compare and sweep results.
type BarrierSummary struct {
	Name            string  `json:"name"`
	CTAs            int     `json:"ctas"`
	Phases          int     `json:"phases"`
	StallCycles     uint64  `json:"stall_cycles"`
	UpdatesPerPhase float64 `json:"updates_per_phase"`
	UpdatesPerWarp  float64 `json:"updates_per_warp"`
	PhaseCycles     Summary `json:"phase_cycles"`
	WaitCycles      Summary `json:"wait_cycles"`
}

// Summary is the barrier's line in compare and sweep results, rounded to
// three decimals.
func (s *BarrierStat) Summary() BarrierSummary {
	return BarrierSummary{Name: s.Name, CTAs: s.CTAs, Phases: s.Phases, StallCycles: s.StallCycles,
		UpdatesPerPhase: Round3(s.UpdatesPerPhase), UpdatesPerWarp: Round3(s.UpdatesPerWarp),
		PhaseCycles: roundSummary(Summarize(s.Durations)), WaitCycles: roundSummary(Summarize(s.Waits))}
}

func roundSummary(s Summary) Summary {
	return Summary{Mean: Round3(s.Mean), P50: Round3(s.P50), P95: Round3(s.P95), Max: Round3(s.Max)}
}

// Summaries returns the barrier summaries of r and their total stall cycles.
func Summaries(r *Report, arrays bool) ([]BarrierSummary, uint64) {
	out := []BarrierSummary{}
	var total uint64
	for _, s := range BarrierStats(r, arrays) {
		out = append(out, s.Summary())
		total += s.StallCycles
	}
	return out, total
}

// Round3 keeps three decimals, so that JSON and CSV stay short.
func Round3(x float64) float64 { return math.Round(x*1000) / 1000 }
