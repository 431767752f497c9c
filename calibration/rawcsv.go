package calibration

import (
	"fmt"
	"strconv"
	"strings"
)

// rawFormat is a measured file the suite reads in the columns its probe
// printed rather than as bench,config,metric,value: the tensor-core probes
// (tensor.go), whose CSVs run/'s component tests read as well. Reading them
// here keeps one copy of each measurement, and this conversion is the only
// one (calibration/h200/README.md, "Tensor cores").
type rawFormat struct {
	header string                // the file's first line, as the probe printed it
	config func([]string) string // a row's config, from its key columns
	cols   []int                 // the columns that become rows, each named by its header
}

// rawFormats are the files read as rawFormat, by name. Every row's bench is
// the file's name without .csv.
var rawFormats = map[string]rawFormat{
	"wgmma_timing.csv": {"kernel,n,k,warpgroups,mode,iters,cycles,cycles_per_wgmma,warp_spread",
		func(r []string) string { return fmt.Sprintf("%s_wg%s_mode%s_iters%s", r[0], r[3], r[4], r[5]) }, []int{6}},
	"wgmma_rate.csv": {"type,warpgroups,lag,groups,cycles,cycles_per_wgmma",
		func(r []string) string { return fmt.Sprintf("%s_wg%s_lag%s_groups%s", r[0], r[1], r[2], r[3]) }, []int{4}},
	"wgmma_share.csv": {"mode,wgmma_cycles,copy_cycles,lds_cycles",
		func(r []string) string { return "mode" + r[0] }, []int{1, 2, 3}},
	"stg_wgmma.csv": {"mode,wgmma_cycles,mem_issue_cycles,mem_done_cycles",
		func(r []string) string { return "mode" + r[0] }, []int{1, 2, 3}},
	"tma_swizzle.csv": {"variant,mode,median_cycles,min_cycles",
		func(r []string) string { return fmt.Sprintf("variant%s_mode%s", r[0], r[1]) }, []int{2, 3}},
}

// rows converts the records of file name (its header first). A column's
// 0 is an agent the mode left out (wgmma_share.csv, stg_wgmma.csv), not a
// measurement, and makes no row.
func (f rawFormat) rows(name string, recs [][]string) ([]measuredRow, error) {
	if len(recs) == 0 || strings.Join(recs[0], ",") != f.header {
		return nil, fmt.Errorf("%s: want the header %q", name, f.header)
	}
	head := recs[0]
	var out []measuredRow
	for _, rec := range recs[1:] {
		if len(rec) != len(head) {
			return nil, fmt.Errorf("%s: %d columns in %q, want %d", name, len(rec), strings.Join(rec, ","), len(head))
		}
		for _, c := range f.cols {
			v, err := strconv.ParseFloat(rec[c], 64)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", name, head[c], err)
			}
			if v == 0 {
				continue
			}
			out = append(out, measuredRow{file: name, bench: strings.TrimSuffix(name, ".csv"), config: f.config(rec),
				metric: head[c], value: v, lo: v, hi: v})
		}
	}
	return out, nil
}
