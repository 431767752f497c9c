package run

import (
	"fmt"
	"sort"
	"strconv"
	"testing"
)

// TestCTALaunchGapMatchesH200 runs calibration/h200/ctalaunch.cu's grids of
// four waves of one CTA an SM on 132 SMs from the SASS the H200 ran: the
// median time from a CTA's last %globaltimer read to the first read of the
// CTA its SM starts next is within one tick of the H200's 32 ns timer of
// the H200's (ctalaunch.csv, 384 threads, 120 KiB of shared memory), for
// k_launch, and for k_launch_regs, whose thread 0 sums 160 registers after
// its last read; at gpu.cta_launch_ns 0 k_launch's is not.
func TestCTALaunchGapMatchesH200(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates 528 CTAs on 132 SMs three times")
	}
	const grid = 4 * 132
	buf := fmt.Sprintf("buf:%d", grid*5*8)
	for _, c := range []struct {
		kernel, k string
		args      []string
		sets      []string
		match     bool
	}{
		{"k_launch", "0", []string{buf, "4000", "buf:16", "0"}, nil, true},
		{"k_launch", "0", []string{buf, "4000", "buf:16", "0"}, []string{"gpu.cta_launch_ns=0"}, false},
		{"k_launch_regs", "-1", []string{buf, "4000", "1.0001"}, nil, true},
	} {
		want := ctaLaunchH200(t, c.k)
		gap := ctaLaunchGap(t, c.kernel, c.args, c.sets)
		if near := gap > want-32 && gap < want+32; near != c.match {
			t.Errorf("%s --set %v: a refill's gap %.0f ns, the H200's %.0f", c.kernel, c.sets, gap, want)
		}
	}
}

// ctaLaunchH200 is the median over ctalaunch.csv's launches of 384
// threads and 120 KiB of column K k of each launch's median gap.
func ctaLaunchH200(t *testing.T, k string) float64 {
	t.Helper()
	var hw []float64
	for _, r := range h200CSV(t, "../calibration/h200/ctalaunch.csv") {
		if len(r) == 11 && r[0] == "launch" && r[1] == "384" && r[2] == "122880" && r[3] == k {
			v, err := strconv.ParseFloat(r[6], 64)
			if err != nil {
				t.Fatalf("ctalaunch.csv: bad row %v", r)
			}
			hw = append(hw, v)
		}
	}
	if len(hw) == 0 {
		t.Fatalf("ctalaunch.csv has no 384-thread rows of K %s", k)
	}
	return median(hw)
}

// ctaLaunchGap runs the probe's launch of kernel and returns the median gap
// between a CTA's end and its SM's next CTA's start, in %globaltimer ns.
func ctaLaunchGap(t *testing.T, kernel string, args, sets []string) float64 {
	t.Helper()
	const grid = 4 * 132
	f := Spec{Kernel: kernel, Block: "384", Grid: strconv.Itoa(grid), Smem: "122880", Launches: 1, Config: "h200",
		SMs: 132, Sets: sets, Args: args}
	j, err := f.Job("../calibration/h200/ctalaunch.sass")
	if err != nil {
		t.Fatal(err)
	}
	j = withDumps(t, j, fmt.Sprintf("0:i64:%d", grid*5))
	out, err := Execute(j)
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	v := out.Dumps[0].Values
	rec := func(i, k int) int64 { return v[5*i+k].(int64) }
	var gaps []float64
	for i := 0; i < grid; i++ {
		prev := int64(-1) // the latest end on the same SM before this start
		for j := 0; j < grid; j++ {
			if j != i && rec(j, 3) == rec(i, 3) && rec(j, 1) <= rec(i, 0) && rec(j, 1) > prev {
				prev = rec(j, 1)
			}
		}
		if prev >= 0 {
			gaps = append(gaps, float64(rec(i, 0)-prev))
		}
	}
	if len(gaps) != grid-132 {
		t.Fatalf("%d refills, want %d", len(gaps), grid-132)
	}
	sort.Float64s(gaps)
	return gaps[len(gaps)/2]
}
