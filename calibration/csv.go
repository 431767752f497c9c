package calibration

import (
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
)

// measuredRow is one row of a calibration CSV.
type measuredRow struct {
	file                  string
	bench, config, metric string
	value, lo, hi         float64
}

func (m measuredRow) key() string { return m.bench + "," + m.config + "," + m.metric }

// csvFiles are the measured files validate compares against, in the
// calibration folder.
func csvFiles() []string {
	return []string{"microbench.csv", "probe.csv", "pipeline.csv", "latency2.csv", "membw.csv", "issue.csv", "divcode.csv",
		"prodonly.csv", "steps.csv", "gmem.csv", "elect.csv", "elect_sweep.csv", "exitwait.csv", "align.csv", "tmadesc.csv",
		"branch.csv", "waitdelay.csv", "dsweep.csv", "throughput.csv", "convert.csv", "smem.csv", "ldg.csv", "syncwarp.csv",
		"trywait.csv", "stamps.csv", "window.csv", "pingpong.csv", "store.csv", "waterfall.csv", "smemshare.csv", "reqcost.csv",
		"bulkbw.csv", "sel.csv", "latency3.csv", "latency4.csv", "latency5.csv", "fence.csv", "libpipe.csv", "libcopy.csv",
		"wspipe.csv", "ptxpipe.csv", "cpipe.csv", "epilogue.csv", "stgport.csv", "wgmma_timing.csv", "wgmma_rate.csv",
		"wgmma_share.csv", "stg_wgmma.csv", "tma_swizzle.csv"}
}

// readCSV reads rows of either shape: bench,config,metric,median,min,max,runs
// or bench,config,metric,value. Rows whose value is not a number are skipped.
// A file of rawFormats is read in its probe's own columns.
func readCSV(path string) ([]measuredRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if raw, ok := rawFormats[filepath.Base(path)]; ok {
		return raw.rows(filepath.Base(path), recs)
	}
	var out []measuredRow
	for i, rec := range recs {
		if i == 0 || len(rec) < 4 {
			continue
		}
		v, err := strconv.ParseFloat(rec[3], 64)
		if err != nil {
			continue
		}
		m := measuredRow{file: filepath.Base(path), bench: rec[0], config: rec[1], metric: rec[2], value: v, lo: v, hi: v}
		if len(rec) >= 6 {
			m.lo, _ = strconv.ParseFloat(rec[4], 64)
			m.hi, _ = strconv.ParseFloat(rec[5], 64)
		}
		out = append(out, m)
	}
	return out, nil
}

// measured reads every calibration CSV dir holds and returns the rows the
// only expression selects, by FILE:bench,config,metric.
func measured(dir string, only func(string) bool) (map[string]measuredRow, error) {
	want := map[string]measuredRow{}
	for _, name := range csvFiles() {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			continue
		}
		rows, err := readCSV(p)
		if err != nil {
			return nil, err
		}
		for _, m := range rows {
			if key := m.file + ":" + m.key(); only(key) {
				want[key] = m
			}
		}
	}
	return want, nil
}
