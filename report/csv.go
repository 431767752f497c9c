package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// WriteCSV writes one CSV table per section (phases, barriers, warps,
// instructions, dumps; none: phases), in tidy form for pandas, a blank line
// between them; the --dump values last unless sections place them.
func WriteCSV(w io.Writer, sections []string, r *Report) error {
	sections = sectionsFor("csv", sections, len(r.dumps) > 0)
	cw := csv.NewWriter(w)
	for i, s := range sections {
		if i > 0 {
			cw.Flush()
			fmt.Fprintln(w)
		}
		switch s {
		case "phases":
			_ = cw.Write([]string{"kernel", "barrier", "cta", "phase", "opened", "completed", "duration", "arrivals",
				"updates", "arriving_warps", "updates_per_warp", "tx_bytes", "completed_by", "last_warp", "stall_cycles", "waiting_warps"})
			for _, b := range r.Barriers {
				for _, p := range b.Phases {
					last := ""
					if p.LastArriver != nil {
						last = strconv.Itoa(p.LastArriver.Warp)
					}
					_ = cw.Write([]string{r.Kernel, b.Name, itoa(b.CTA), u(p.Phase), u(p.Opened), i64(p.Completed), i64(p.Duration),
						u(p.Arrivals), u(p.Updates), itoa(p.ArrivingWarps), f1(p.UpdatesPerWarp), u(p.TxBytes), p.CompletedBy,
						last, u(p.StallCycles), itoa(len(p.Waits))})
				}
			}
		case "barriers":
			_ = cw.Write([]string{"kernel", "barrier", "cta", "phases", "updates_per_phase", "phase_p50", "phase_p95", "phase_max", "stall_cycles"})
			for _, b := range r.Barriers {
				_ = cw.Write([]string{r.Kernel, b.Name, itoa(b.CTA), itoa(b.PhaseCount), f1(b.UpdatesPerPhase),
					f0(b.PhaseCycles.P50), f0(b.PhaseCycles.P95), f0(b.PhaseCycles.Max), u(b.StallCycles)})
			}
		case "warps", "summary":
			_ = cw.Write(withReasons([]string{"kernel", "warp", "cta", "instructions", "start", "end"}))
			for _, x := range r.Warps {
				row := []string{r.Kernel, itoa(x.Warp), itoa(x.CTA), u(x.Instructions), u(x.Start), u(x.End)}
				_ = cw.Write(withStalls(row, x.Stalls))
			}
		case "sms":
			_ = cw.Write(withReasons([]string{"kernel", "sm", "ctas", "cycles", "warp_instructions", "copy_bytes_loaded"}))
			for _, x := range r.smRows() {
				row := []string{r.Kernel, itoa(x.SM), u(x.CTAs), u(x.Cycles), u(x.WarpInstructions), u(x.BytesLoaded)}
				_ = cw.Write(withStalls(row, x.Stalls))
			}
		case "clusters":
			_ = cw.Write(withReasons([]string{"kernel", "cluster", "ctas", "sms", "cycles", "warp_instructions", "remote_arrivals"}))
			for _, c := range r.Clusters {
				row := []string{r.Kernel, itoa(c.Cluster), ints(c.CTAs), ints(c.SMs), u(c.Cycles), u(c.WarpInstructions), u(c.RemoteArrivals)}
				_ = cw.Write(withStalls(row, c.Stalls))
			}
		case "instructions":
			WriteProfileCSV(cw, r.Kernel, r.Instructions)
		case "dumps":
			csvDumps(cw, r)
		default:
			return &run.UsageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(SectionNames(), ", "))}
		}
	}
	cw.Flush()
	return cw.Error()
}

func u(x uint64) string  { return strconv.FormatUint(x, 10) }
func i64(x int64) string { return strconv.FormatInt(x, 10) }
func itoa(x int) string  { return strconv.Itoa(x) }

// ints joins xs with spaces (a CSV cell of CTA or SM indices).
func ints(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}

// withReasons appends the stall reasons' names to a header.
func withReasons(hdr []string) []string {
	for k := 0; k < sm.NumReasons; k++ {
		hdr = append(hdr, sm.Reason(k).String())
	}
	return hdr
}

// withStalls appends a record's stall cycles, reason by reason, to a row.
func withStalls(row []string, stalls map[string]uint64) []string {
	for k := 0; k < sm.NumReasons; k++ {
		row = append(row, u(stalls[sm.Reason(k).String()]))
	}
	return row
}
