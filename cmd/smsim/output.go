package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/smsim/smsim/sm"
)

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // C++ names keep their <>& readable (k_ws<2>); the output is no HTML
	return enc.Encode(v)
}

// writeReport prints the report in the chosen format and sections.
func writeReport(w io.Writer, format string, sections []string, r *report) error {
	if format == "json" {
		return writeJSON(w, r)
	}
	sections = reportSections(format, sections, len(r.dumps) > 0)
	if format == "csv" {
		return writeCSV(w, sections, r)
	}
	for i, s := range sections {
		// The warps and instructions tables end without the blank line the
		// other sections leave, so one goes in before whatever follows them.
		if i > 0 && (sections[i-1] == "warps" || sections[i-1] == "instructions") {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		var err error
		switch s {
		case "summary":
			err = tableSummary(w, r)
		case "barriers":
			err = tableBarriers(w, r)
		case "phases":
			err = tablePhases(w, r, 12)
		case "warps":
			err = tableWarps(w, r)
		case "instructions":
			err = tableInstructions(w, r)
		case "dumps":
			err = tableDumps(w, r)
		default:
			return &usageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(reportNames, ", "))}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// reportNames are the sections --report takes, for tables and CSV alike
// (a CSV's summary is its warps table).
var reportNames = []string{"summary", "barriers", "phases", "warps", "instructions", "dumps"}

// checkReports refuses a --report value that is not a section, and dumps
// without a --dump to print, before anything runs.
func checkReports(sections []string, dumps int) error {
	for _, s := range sections {
		if !slices.Contains(reportNames, s) {
			return &usageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(reportNames, ", "))}
		}
		if s == "dumps" && dumps == 0 {
			return &usageError{Msg: "--report dumps: no --dump NAME[:TYPE[:COUNT]] names a buffer to print"}
		}
	}
	return nil
}

// reportSections are the sections a table or CSV prints: those --report
// names, else the format's defaults; the --dump values come last unless
// --report places them.
func reportSections(format string, sections []string, dumps bool) []string {
	if len(sections) == 0 {
		sections = []string{"summary", "barriers", "phases", "warps"}
		if format == "csv" {
			sections = []string{"phases"}
		}
	}
	if dumps && !slices.Contains(sections, "dumps") {
		sections = append(slices.Clip(sections), "dumps")
	}
	return sections
}

func newTable(w io.Writer, header ...any) *tablewriter.Table {
	t := tablewriter.NewTable(w,
		tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignment(tw.AlignRight),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
	)
	t.Header(header...)
	return t
}

func tableSummary(w io.Writer, r *report) error {
	fmt.Fprintf(w, "kernel %s (%s), config %s, block %v, grid %v\n", r.Kernel, r.File, r.Config, r.Launch.Block, r.Launch.Grid)
	fmt.Fprintf(w, "cycles %d   warp instructions %d   simulated in %.3f s (%.2fM warp-instr/s)\n",
		r.Cycles, r.Sim.WarpInstructions, r.Sim.HostSeconds, r.Sim.InstrPerSecond/1e6)
	if t := r.TMA; t != nil {
		fmt.Fprintln(w, tmaLine(t, r.Cycles))
	}
	fmt.Fprintln(w)
	return nil
}

// tmaLine says what the kernel's copies did, naming only the kinds it made:
// "tma: 16 tensor loads, 128.0 KiB loaded (128.0 KiB from DRAM); 1
// tensor-map fetch; front end busy 1208 cycles (14 % of the kernel)".
func tmaLine(t *jsonTMA, cycles uint64) string {
	var kinds []string
	for _, k := range []struct {
		n    uint64
		name string
	}{{t.Loads, "load"}, {t.TensorLoads, "tensor load"}, {t.Stores, "store"}, {t.TensorStores, "tensor store"}, {t.Prefetches, "prefetch"}} {
		if k.n > 0 {
			kinds = append(kinds, countOf(k.n, k.name))
		}
	}
	if t.Reductions > 0 {
		kinds = append(kinds, fmt.Sprintf("%s among the stores", countOf(t.Reductions, "reduction")))
	}
	line := "tma: " + strings.Join(kinds, ", ")
	if t.BytesLoaded > 0 {
		line += fmt.Sprintf(", %s loaded (%s from DRAM", byteSize(t.BytesLoaded), byteSize(t.DRAMBytes))
		if t.OOBBytes > 0 {
			line += fmt.Sprintf(", %s out of bounds", byteSize(t.OOBBytes))
		}
		line += ")"
	}
	if t.BytesStored > 0 {
		line += fmt.Sprintf(", %s stored", byteSize(t.BytesStored))
	}
	if t.DescriptorFetches > 0 {
		line += "; " + countOf(t.DescriptorFetches, "tensor-map fetch")
	}
	line += fmt.Sprintf("; front end busy %d cycles", t.BusyCycles)
	if cycles > 0 {
		line += fmt.Sprintf(" (%.0f %% of the kernel)", 100*float64(t.BusyCycles)/float64(cycles))
	}
	if t.QueueFullIssues > 0 {
		line += fmt.Sprintf("; %s while its queue was full", countOf(t.QueueFullIssues, "copy issued"))
	}
	return line
}

func countOf(n uint64, what string) string {
	if n == 1 {
		return "1 " + what
	}
	switch {
	case strings.HasSuffix(what, "ch"):
		what += "es"
	case strings.HasPrefix(what, "copy "):
		what = "copies" + what[4:]
	default:
		what += "s"
	}
	return fmt.Sprintf("%d %s", n, what)
}

// byteSize writes n bytes the way a reader takes them in: B, KiB or MiB.
func byteSize(n uint64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func tableBarriers(w io.Writer, r *report) error {
	if len(r.Barriers) == 0 {
		_, err := fmt.Fprintln(w, "no mbarriers were used")
		return err
	}
	t := newTable(w, "barrier", "cta", "phases", "updates/ph", "phase p50", "phase p95", "phase max", "stall cyc")
	for _, b := range r.Barriers {
		_ = t.Append(b.Name, ctaLabel(b.CTA, b.CTAs), b.PhaseCount, f1(b.UpdatesPerPhase), f0(b.PhaseCycles.P50),
			f0(b.PhaseCycles.P95), f0(b.PhaseCycles.Max), b.StallCycles)
	}
	if err := t.Render(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w)
	return err
}

// tablePhases prints up to limit phases of each barrier (0: all).
func tablePhases(w io.Writer, r *report, limit int) error {
	for _, b := range r.Barriers {
		t := newTable(w, "phase", "opened", "done", "cycles", "arrivals", "updates", "upd/warp", "tx bytes", "by", "last arriver", "stall")
		shown := 0
		for _, p := range b.Phases {
			if limit > 0 && shown == limit {
				break
			}
			shown++
			last := "-"
			if a := p.LastArriver; a != nil {
				last = fmt.Sprintf("w%d:%s", a.Warp, a.Lanes)
			}
			done, dur := "open", "-"
			if p.Completed >= 0 {
				done, dur = strconv.FormatInt(p.Completed, 10), strconv.FormatInt(p.Duration, 10)
			}
			_ = t.Append(p.Phase, p.Opened, done, dur, p.Arrivals, p.Updates, f1(p.UpdatesPerWarp), p.TxBytes,
				p.CompletedBy, last, p.StallCycles)
		}
		if b.CTA < 0 {
			fmt.Fprintf(w, "barrier %s (%d more CTAs, folded):", b.Name, b.CTAs)
		} else {
			fmt.Fprintf(w, "barrier %s (CTA %d):", b.Name, b.CTA)
		}
		if n := len(b.Phases); limit > 0 && n > limit {
			fmt.Fprintf(w, " first %d of %d phases (-o json or --report phases -o csv for all)", limit, n)
		}
		if u := b.Unlisted; u != nil {
			fmt.Fprintf(w, " %d phases not listed, counted in the totals", u.Phases)
		}
		fmt.Fprintln(w)
		if b.CTA < 0 && len(b.Phases) == 0 {
			fmt.Fprintln(w)
			continue
		}
		if err := t.Render(); err != nil {
			return err
		}
		fmt.Fprintln(w)
	}
	return nil
}

func tableWarps(w io.Writer, r *report) error {
	t := newTable(w, "warp", "cta", "instrs", "cycles", "top stall reasons (share of the warp's cycles)")
	for _, x := range r.Warps {
		total := uint64(0)
		for _, v := range x.Stalls {
			total += v
		}
		if x.CTA < 0 {
			_ = t.Append(fmt.Sprintf("%d × warp %d", x.Warps, x.WarpInCTA), ctaLabel(x.CTA, x.Warps), x.Instructions, x.End-x.Start,
				topReasons(x.Stalls, total, 3))
			continue
		}
		_ = t.Append(x.Warp, x.CTA, x.Instructions, x.End-x.Start, topReasons(x.Stalls, total, 3))
	}
	return t.Render()
}

// ctaLabel is a record's CTA in a table: its index, or for a record folding
// the CTAs past sm.ReportCTAs, how many it stands for.
func ctaLabel(cta, n int) string {
	if cta < 0 {
		return fmt.Sprintf("%d more", n)
	}
	return strconv.Itoa(cta)
}

// topReasons names the n largest stall reasons with their shares.
func topReasons(st map[string]uint64, total uint64, n int) string {
	type kv struct {
		k string
		v uint64
	}
	var xs []kv
	for k, v := range st {
		if v > 0 {
			xs = append(xs, kv{k, v})
		}
	}
	sort.Slice(xs, func(i, j int) bool {
		if xs[i].v != xs[j].v {
			return xs[i].v > xs[j].v
		}
		return xs[i].k < xs[j].k
	})
	out := ""
	for i := 0; i < len(xs) && i < n; i++ {
		if out != "" {
			out += ", "
		}
		out += fmt.Sprintf("%s %.0f%%", xs[i].k, 100*float64(xs[i].v)/float64(max(total, 1)))
	}
	return out
}

func f0(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }
func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// writeCSV writes one CSV table per section (phases, barriers, warps, instructions), in
// tidy form for pandas.
func writeCSV(w io.Writer, sections []string, r *report) error {
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
			hdr := []string{"kernel", "warp", "cta", "instructions", "start", "end"}
			for k := 0; k < sm.NumReasons; k++ {
				hdr = append(hdr, sm.Reason(k).String())
			}
			_ = cw.Write(hdr)
			for _, x := range r.Warps {
				row := []string{r.Kernel, itoa(x.Warp), itoa(x.CTA), u(x.Instructions), u(x.Start), u(x.End)}
				for k := 0; k < sm.NumReasons; k++ {
					row = append(row, u(x.Stalls[sm.Reason(k).String()]))
				}
				_ = cw.Write(row)
			}
		case "instructions":
			writeProfileCSV(cw, r.Kernel, r.Instructions)
		case "dumps":
			csvDumps(cw, r)
		default:
			return &usageError{Msg: fmt.Sprintf("--report %q: want %s", s, strings.Join(reportNames, ", "))}
		}
	}
	cw.Flush()
	return cw.Error()
}

func u(x uint64) string  { return strconv.FormatUint(x, 10) }
func i64(x int64) string { return strconv.FormatInt(x, 10) }
func itoa(x int) string  { return strconv.Itoa(x) }
