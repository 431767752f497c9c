package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/sweep"
)

// compareTables prints the chosen sections (default: summary, barriers,
// phases), each table within 100 columns for short variant names.
func compareTables(w io.Writer, rs []sweep.Result, sections []string, phases int) error {
	if len(sections) == 0 {
		sections = []string{"summary", "barriers", "phases"}
	}
	for _, s := range sections {
		var err error
		switch s {
		case "summary":
			err = compareSummary(w, rs)
		case "barriers":
			err = compareBarriers(w, rs)
		case "phases":
			err = comparePhases(w, rs, phases)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// compareSummary is one row per variant: cycles, speed-up over the
// baseline, total stall cycles and the pooled phase figures.
func compareSummary(w io.Writer, rs []sweep.Result) error {
	fmt.Fprintf(w, "baseline: %s (speed-up = baseline cycles / variant cycles; ph: phase cycles)\n", rs[0].Name)
	t := report.LeftTable(w, "variant", "cycles", "speed-up", "stall cyc", "upd/phase", "upd/warp", "ph p50", "ph p95")
	for _, r := range rs {
		if r.Error != "" {
			_ = t.Append(r.Name, r.Cycles, "failed", r.StallCycles, "-", "-", "-", "-")
			continue
		}
		var durs []float64
		var upd, perWarp float64
		n := 0
		for _, s := range r.Stats {
			durs = append(durs, s.Durations...)
			upd += s.UpdatesPerPhase * float64(s.Phases)
			perWarp += s.UpdatesPerWarp * float64(s.Phases)
			n += s.Phases
		}
		p := report.Summarize(durs)
		updS, warpS := "-", "-"
		if n > 0 {
			updS, warpS = f1(upd/float64(n)), f1(perWarp/float64(n))
		}
		_ = t.Append(r.Name, r.Cycles, fmt.Sprintf("%.2fx", r.Speedup), r.StallCycles, updS, warpS, f0(p.P50), f0(p.P95))
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, r := range rs {
		if r.Error != "" {
			fmt.Fprintf(w, "%s failed: %s\n", r.Name, r.Error)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// barrierNames lists the barrier names of every variant, in order of first
// appearance.
func barrierNames(rs []sweep.Result) []string {
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, s := range r.Stats {
			if !seen[s.Name] {
				seen[s.Name] = true
				names = append(names, s.Name)
			}
		}
	}
	return names
}

func statNamed(r sweep.Result, name string) *report.BarrierStat {
	for _, s := range r.Stats {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// compareBarriers is one table per barrier, one row per variant.
func compareBarriers(w io.Writer, rs []sweep.Result) error {
	for _, name := range barrierNames(rs) {
		fmt.Fprintf(w, "barrier %s: phase cycles and stall cycles by variant\n", name)
		t := report.LeftTable(w, "variant", "phases", "upd/phase", "upd/warp", "mean", "p50", "p95", "max", "stall cyc")
		for _, r := range rs {
			s := statNamed(r, name)
			if s == nil {
				_ = t.Append(r.Name, "-", "-", "-", "-", "-", "-", "-", "-")
				continue
			}
			p := report.Summarize(s.Durations)
			_ = t.Append(r.Name, s.Phases, f1(s.UpdatesPerPhase), f1(s.UpdatesPerWarp), f1(p.Mean), f0(p.P50),
				f0(p.P95), f0(p.Max), s.StallCycles)
		}
		if err := t.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// comparePhases shows, per barrier, the first limit completed phases'
// durations of every variant side by side, in order of opening.
func comparePhases(w io.Writer, rs []sweep.Result, limit int) error {
	for _, name := range barrierNames(rs) {
		series := make([][]float64, len(rs))
		most := 0
		for i, r := range rs {
			if s := statNamed(r, name); s != nil {
				series[i] = s.ByOpening()
			}
			most = max(most, len(series[i]))
		}
		shown := most
		if limit > 0 && shown > limit {
			shown = limit
		}
		header := []any{"phase"}
		for _, r := range rs {
			header = append(header, r.Name)
		}
		fmt.Fprintf(w, "barrier %s: cycles of each completed phase, by opening", name)
		if shown < most {
			fmt.Fprintf(w, " (first %d of %d; --phases 0: all)", shown, most)
		}
		fmt.Fprintln(w)
		t := report.NewTable(w, header...)
		for k := 0; k < shown; k++ {
			row := []any{k}
			for i := range rs {
				cell := "-"
				if k < len(series[i]) {
					cell = f0(series[i][k])
				}
				row = append(row, cell)
			}
			_ = t.Append(row...)
		}
		if err := t.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

// compareCSV writes one row per variant and barrier (a variant without
// barriers gets one row with the barrier columns empty).
func compareCSV(w io.Writer, rs []sweep.Result) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"variant", "file", "kernel", "cycles", "speedup", "total_stall_cycles", "barrier", "ctas",
		"phases", "updates_per_phase", "updates_per_warp", "phase_mean", "phase_p50", "phase_p95", "phase_max",
		"wait_mean", "wait_p95", "stall_cycles", "error"})
	for _, r := range rs {
		head := []string{r.Name, r.File, r.Kernel, u(r.Cycles), g(r.Speedup), u(r.StallCycles)}
		if len(r.Barriers) == 0 {
			_ = cw.Write(append(head, "", "", "", "", "", "", "", "", "", "", "", "", r.Error))
		}
		for _, b := range r.Barriers {
			_ = cw.Write(append(append([]string(nil), head...), b.Name, itoa(b.CTAs), itoa(b.Phases),
				g(b.UpdatesPerPhase), g(b.UpdatesPerWarp), g(b.PhaseCycles.Mean), g(b.PhaseCycles.P50),
				g(b.PhaseCycles.P95), g(b.PhaseCycles.Max), g(b.WaitCycles.Mean), g(b.WaitCycles.P95),
				u(b.StallCycles), r.Error))
		}
	}
	cw.Flush()
	return cw.Error()
}

// g formats a float as briefly as it round-trips.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
