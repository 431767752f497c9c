package calibration

import (
	"path/filepath"
	"sort"

	"github.com/smsim/smsim/memory"
	"github.com/smsim/smsim/run"
)

// recipe is one launch of the calibration suite and the rows its out buffer
// yields, written as the suite's host code computes them
// (calibration/h200/README.md: "How each row is produced").
type recipe struct {
	file   string // PTX file in the calibration folder
	kernel string
	block  int
	smem   int
	args   []string // --arg values; the out buffer is the last argument, but for outArg
	outLen int      // 64-bit words of out to read
	// outArg is the out buffer's parameter index when it is not the last
	// argument (the tensor-core probes pass it first or third).
	outArg string
	rows   []rowFn
	prep   func(*memory.Global, *run.Params) error // fills input buffers the host code computes
	// launches is how many times the kernel runs (memory and caches kept);
	// the last launch's out buffer is read. 0 means 1.
	launches int
	// warm names buffer parameters the host code wrote right before the
	// launch (cudaMemcpy), so they start resident in L2.
	warm []string
	// csv is the file its rows are measured in, when not the PTX's own
	// (csvFor): elect_sweep.csv's rows run elect.ptx.
	csv string
}

// csvFile is the CSV file r's rows come from.
func (r recipe) csvFile() string {
	if r.csv != "" {
		return r.csv
	}
	return csvFor(r.file)
}

// rowFn computes one CSV row's value from the kernel's out buffer.
type rowFn struct {
	bench, config, metric string
	value                 func(out []int64) float64
}

func (r rowFn) key() string { return r.bench + "," + r.config + "," + r.metric }

// median follows the host code: the mean of the two middle values for an even count.
func median(v []int64) float64 {
	s := append([]int64(nil), v...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return 0.5 * float64(s[n/2-1]+s[n/2])
}

func minOf(v []int64) float64 {
	m := v[0]
	for _, x := range v {
		m = min(m, x)
	}
	return float64(m)
}

// Options select and shorten the suite.
type Options struct {
	// Quick shortens the long loops of the suite (arrive/wait iterations,
	// bandwidth batches) for fast checks; steady-state per-iteration values
	// are what the rows report, so the values barely move.
	Quick bool
	// Only is a regular expression: the rows whose FILE:bench,config,metric
	// it matches run ("" matches every row).
	Only string
	// Input is the form each kernel runs from: "ptx" (or "") the recipe's
	// PTX through the compiler model, "sass" the listing ptxas made of it
	// (the .sass beside the .ptx, with its .cubin), timed by its control bits.
	Input string
}

// inputForm is o.Input, "ptx" when unset.
func (o Options) inputForm() string {
	if o.Input == "" {
		return "ptx"
	}
	return o.Input
}

// iters is a loop's iteration count n, a tenth of it (at least 20) when quick.
func (o Options) iters(n int) int {
	if o.Quick {
		return max(n/10, 20)
	}
	return n
}

// csvFor is the CSV file a calibration PTX file's rows are measured in.
func csvFor(ptx string) string {
	switch ptx {
	case "microbench.ptx":
		return "microbench.csv"
	case "hwprobe.ptx":
		return "probe.csv"
	}
	return ptx[:len(ptx)-len(filepath.Ext(ptx))] + ".csv"
}
