package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// NewTable is a table in smsim's style: ASCII rules, headers centred and
// left as given, cells aligned right.
func NewTable(w io.Writer, header ...any) *tablewriter.Table {
	t := tablewriter.NewTable(w,
		tablewriter.WithSymbols(tw.NewSymbols(tw.StyleASCII)),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignment(tw.AlignRight),
		tablewriter.WithHeaderAlignment(tw.AlignCenter),
	)
	t.Header(header...)
	return t
}

func tableSummary(w io.Writer, r *Report) error {
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
func tmaLine(t *TMA, cycles uint64) string {
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

func tableBarriers(w io.Writer, r *Report) error {
	if len(r.Barriers) == 0 {
		_, err := fmt.Fprintln(w, "no mbarriers were used")
		return err
	}
	t := NewTable(w, "barrier", "cta", "phases", "updates/ph", "phase p50", "phase p95", "phase max", "stall cyc")
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
func tablePhases(w io.Writer, r *Report, limit int) error {
	for _, b := range r.Barriers {
		t := NewTable(w, "phase", "opened", "done", "cycles", "arrivals", "updates", "upd/warp", "tx bytes", "by", "last arriver", "stall")
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

func tableWarps(w io.Writer, r *Report) error {
	t := NewTable(w, "warp", "cta", "instrs", "cycles", "top stall reasons (share of the warp's cycles)")
	for _, x := range r.Warps {
		if x.CTA < 0 {
			_ = t.Append(fmt.Sprintf("%d × warp %d", x.Warps, x.WarpInCTA), ctaLabel(x.CTA, x.Warps), x.Instructions, x.End-x.Start,
				topOf(x.Stalls))
			continue
		}
		_ = t.Append(x.Warp, x.CTA, x.Instructions, x.End-x.Start, topOf(x.Stalls))
	}
	return t.Render()
}

// tableSMs prints each SM's share of the launch: its CTAs, last busy cycle,
// warp instructions and its warps' top stall reasons.
func tableSMs(w io.Writer, r *Report) error {
	t := NewTable(w, "sm", "ctas", "cycles", "instrs", "top stall reasons (share of its warps' cycles)")
	for _, x := range r.smRows() {
		_ = t.Append(x.SM, x.CTAs, x.Cycles, x.WarpInstructions, topOf(x.Stalls))
	}
	return t.Render()
}

// tableClusters prints each cluster's share of a cluster launch: its CTAs,
// their SMs, its latest warp's end, warp instructions, the arrivals on its
// barriers from its other CTAs and its warps' top stall reasons.
func tableClusters(w io.Writer, r *Report) error {
	if len(r.Clusters) == 0 {
		_, err := fmt.Fprintln(w, "clusters: none, the launch has no cluster size (--cluster X[,Y[,Z]] or the kernel's)")
		return err
	}
	t := NewTable(w, "cluster", "ctas", "sms", "cycles", "instrs", "remote arrivals", "top stall reasons (share of its warps' cycles)")
	for _, c := range r.Clusters {
		_ = t.Append(c.Cluster, ints(c.CTAs), ints(c.SMs), c.Cycles, c.WarpInstructions, c.RemoteArrivals, topOf(c.Stalls))
	}
	return t.Render()
}

// smRows are the report's SMs, or for a launch on one SM that SM alone,
// made of the whole report.
func (r *Report) smRows() []SM {
	if len(r.SMs) > 0 {
		return r.SMs
	}
	one := SM{SM: 0, Cycles: r.Cycles, WarpInstructions: r.Sim.WarpInstructions, Stalls: map[string]uint64{}}
	if r.TMA != nil {
		one.BytesLoaded = r.TMA.BytesLoaded
	}
	ctas := map[int]bool{}
	for _, x := range r.Warps {
		if x.CTA >= 0 {
			ctas[x.CTA] = true
		}
		for k, v := range x.Stalls {
			one.Stalls[k] += v
		}
	}
	one.CTAs = uint64(len(ctas))
	return []SM{one}
}

// ctaLabel is a record's CTA in a table: its index, or for a record folding
// the CTAs past sm.ReportCTAs, how many it stands for.
func ctaLabel(cta, n int) string {
	if cta < 0 {
		return fmt.Sprintf("%d more", n)
	}
	return strconv.Itoa(cta)
}

// topOf names a record's three largest stall reasons with their shares of
// its stall cycles.
func topOf(st map[string]uint64) string {
	total := uint64(0)
	for _, v := range st {
		total += v
	}
	return topReasons(st, total, 3)
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

// LeftTable is NewTable with its first column (names) aligned left.
func LeftTable(w io.Writer, header ...any) *tablewriter.Table {
	t := NewTable(w, header...)
	t.Configure(func(cfg *tablewriter.Config) {
		cfg.Row.Alignment.PerColumn = []tw.Align{tw.AlignLeft}
	})
	return t
}

// g formats a float as briefly as it round-trips.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
