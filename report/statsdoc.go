package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/smsim/smsim/run"
)

// BarrierDists is a barrier's distributions (smsim stats -o json).
type BarrierDists struct {
	Name           string `json:"name"`
	CTAs           int    `json:"ctas"`
	PhaseCycles    Dist   `json:"phase_cycles"`
	WaitCycles     Dist   `json:"wait_cycles"`
	PhaseHistogram []Bin  `json:"phase_histogram"`
	WaitHistogram  []Bin  `json:"wait_histogram"`
}

// StatsDoc describes, per barrier, the distributions of its phase
// durations and wait times (smsim stats).
type StatsDoc struct {
	Kernel   string         `json:"kernel"`
	Cycles   uint64         `json:"cycles"`
	Barriers []BarrierDists `json:"barriers"`
}

// Stats describes r's barriers (pooling each array's elements with
// arrays; only the one named barrier when it is not ""), with histograms
// of at most bins bins.
func Stats(r *Report, arrays bool, barrier string, bins int) StatsDoc {
	doc := StatsDoc{Kernel: r.Kernel, Cycles: r.Cycles, Barriers: []BarrierDists{}}
	for _, s := range BarrierStats(r, arrays) {
		if barrier != "" && s.Name != barrier {
			continue
		}
		doc.Barriers = append(doc.Barriers, BarrierDists{Name: s.Name, CTAs: s.CTAs,
			PhaseCycles: Distribution(s.Durations), WaitCycles: Distribution(s.Waits),
			PhaseHistogram: nonNilBins(Histogram(s.Durations, bins)), WaitHistogram: nonNilBins(Histogram(s.Waits, bins))})
	}
	return doc
}

// ReadJSON reads a report written by `smsim run -o json` (a regular file
// of at most run.MaxReportBytes).
func ReadJSON(file string) (*Report, error) {
	data, err := run.ReadInput(file, "JSON report", run.MaxReportBytes)
	if err != nil {
		return nil, &run.InputError{Err: err}
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil || r.Kernel == "" {
		return nil, &run.InputError{Err: fmt.Errorf("%s: not a JSON report of smsim run -o json", file)}
	}
	return &r, nil
}

// WriteStatsTable draws the distributions: per barrier a table of its
// samples' figures and the histograms of its phase durations and waits.
func WriteStatsTable(w io.Writer, doc StatsDoc) error {
	fmt.Fprintf(w, "kernel %s: %d cycles, %d barrier%s\n\n", doc.Kernel, doc.Cycles, len(doc.Barriers), plural(len(doc.Barriers)))
	for _, b := range doc.Barriers {
		fmt.Fprintf(w, "barrier %s (%d CTA%s): phase durations and wait times, in cycles\n", b.Name, b.CTAs, plural(b.CTAs))
		t := LeftTable(w, "sample", "n", "mean", "std", "min", "p25", "p50", "p75", "p95", "p99", "max")
		for _, row := range []struct {
			name string
			d    Dist
		}{{"phase", b.PhaseCycles}, {"wait", b.WaitCycles}} {
			d := row.d
			_ = t.Append(row.name, d.N, f1(d.Mean), f1(d.Std), f0(d.Min), f0(d.P25), f0(d.P50), f0(d.P75), f0(d.P95), f0(d.P99), f0(d.Max))
		}
		if err := t.Render(); err != nil {
			return err
		}
		drawHistogram(w, "phase durations", b.PhaseHistogram)
		drawHistogram(w, "wait times", b.WaitHistogram)
		fmt.Fprintln(w)
	}
	return nil
}

// WriteStatsCSV writes two tidy tables, a blank line between them: one row
// per barrier and sample (phase durations, wait times) with its
// distribution, then one row per histogram bin.
func WriteStatsCSV(w io.Writer, doc StatsDoc) error {
	cw := csv.NewWriter(w)
	_ = cw.Write([]string{"kernel", "barrier", "ctas", "sample", "n", "mean", "std", "min", "p25", "p50", "p75", "p95", "p99", "max"})
	for _, b := range doc.Barriers {
		for _, row := range []struct {
			name string
			d    Dist
		}{{"phase", b.PhaseCycles}, {"wait", b.WaitCycles}} {
			d := row.d
			_ = cw.Write([]string{doc.Kernel, b.Name, itoa(b.CTAs), row.name, itoa(d.N), g(d.Mean), g(d.Std), g(d.Min),
				g(d.P25), g(d.P50), g(d.P75), g(d.P95), g(d.P99), g(d.Max)})
		}
	}
	cw.Flush()
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	_ = cw.Write([]string{"kernel", "barrier", "sample", "lo", "hi", "count"})
	for _, b := range doc.Barriers {
		for _, h := range []struct {
			name string
			bins []Bin
		}{{"phase", b.PhaseHistogram}, {"wait", b.WaitHistogram}} {
			for _, x := range h.bins {
				_ = cw.Write([]string{doc.Kernel, b.Name, h.name, g(x.Lo), g(x.Hi), itoa(x.Count)})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

func nonNilBins(b []Bin) []Bin {
	if b == nil {
		return []Bin{}
	}
	return b
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// drawHistogram prints bins as rows of '#' at most 50 wide.
func drawHistogram(w io.Writer, title string, bins []Bin) {
	if len(bins) == 0 {
		fmt.Fprintf(w, "%s: none\n", title)
		return
	}
	most := 0
	for _, b := range bins {
		most = max(most, b.Count)
	}
	fmt.Fprintf(w, "%s (cycles, from <= x < to):\n", title)
	for _, b := range bins {
		bar := strings.Repeat("#", (50*b.Count+most-1)/max(most, 1))
		fmt.Fprintf(w, "  %8s - %-8s %-50s %d\n", f0(b.Lo), f0(b.Hi), bar, b.Count)
	}
}
