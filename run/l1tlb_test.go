package run

import (
	"fmt"
	"strconv"
	"testing"
)

// h200L1TLB reads calibration/h200/l1tlb.csv: the median of each
// "tlb,NAME,...,cg" and "warm,HOW,cg" row's three launches.
func h200L1TLB(t *testing.T) map[string]float64 {
	t.Helper()
	recs := h200CSV(t, "../calibration/h200/l1tlb.csv")
	runs := map[string][]float64{}
	for _, rec := range recs {
		var key, val string
		switch {
		case rec[0] == "tlb" && len(rec) == 9:
			key, val = rec[1]+","+rec[6], rec[8]
		case rec[0] == "warm" && len(rec) == 5:
			key, val = "warm_"+rec[1]+","+rec[2], rec[4]
		default:
			continue
		}
		c, err := strconv.ParseFloat(val, 64)
		if err != nil {
			t.Fatalf("l1tlb.csv: bad row %v", rec)
		}
		runs[key] = append(runs[key], c)
	}
	m := map[string]float64{}
	for k, v := range runs {
		m[k] = median(v)
	}
	return m
}

// l1tlbCycles runs one of l1tlb.cu's chases from the SASS the H200 ran and
// returns its cycles a load: kernel k_tlb<cg> (256 steps) or k_many<cg>
// (4096), the lines in L2 from a launch before, or, with hostCopied, only
// from the host's copy of the buffer (Warm) before a single launch.
func l1tlbCycles(t *testing.T, kernel string, cg int, args []string, hostCopied bool) float64 {
	t.Helper()
	launches := 2
	if hostCopied {
		launches = 1
	}
	f := Spec{Kernel: fmt.Sprintf("%s<%d>", kernel, cg), Block: "1", Launches: launches, Config: "h200", Args: args}
	j, err := f.Job("../calibration/h200/l1tlb.sass")
	if err != nil {
		t.Fatal(err)
	}
	if hostCopied {
		j.Warm = []string{"0"}
	}
	out := len(args) - 1
	j = withDumps(t, j, fmt.Sprintf("%d:i64:1", out))
	o, err := Execute(j)
	if err != nil || o.Err != nil {
		t.Fatalf("%s<%d>: %v %v", kernel, cg, err, o.Err)
	}
	steps := 256.0
	if kernel == "k_many" {
		steps = 4096
	}
	return float64(o.Dumps[0].Values[0].(int64)) / steps
}

// TestL2HitsCostTheSameInAnyOrder holds l1tlb.csv from SASS within 6 %: a
// chain of loads that hit L2 costs the same through L1 as around it, in
// address order or at random over 256 KiB to 8 MiB, at strides of 64 KiB to
// 2 MiB (no translation cache of the L1 path to miss, and no set of the L2 a
// power-of-two stride fills), and a line the host copied in costs a far
// hop (mem.l2_far) on its first read when its home is the other L2
// partition, half the lines (memory/l2.go).
func TestL2HitsCostTheSameInAnyOrder(t *testing.T) {
	h := h200L1TLB(t)
	const buf = "buf:671088640"
	for _, c := range []struct {
		name    string
		a, b, m uint64
		stride  uint64
	}{
		{"asc_128", 1, 0, 0xffffffff, 128}, {"asc_64k", 1, 0, 0xffffffff, 65536}, {"desc_64k", 255, 255, 255, 65536},
		{"asc_1m", 1, 0, 0xffffffff, 1 << 20}, {"asc_2m128", 1, 0, 0xffffffff, 2<<20 + 128},
		{"rnd_256k", 0x9e3779b1, 0, 2047, 128}, {"rnd_2m", 0x9e3779b1, 0, 16383, 128}, {"rnd_8m", 0x9e3779b1, 0, 65535, 128},
	} {
		for cg := range 2 {
			got := l1tlbCycles(t, "k_tlb", cg, []string{buf, fmt.Sprint(c.a), fmt.Sprint(c.b), fmt.Sprint(c.m),
				fmt.Sprint(c.stride / 4), "buf:16"}, false)
			checkWithin(t, fmt.Sprintf("%s cg=%d, a load", c.name, cg), got, h[fmt.Sprintf("%s,%d", c.name, cg)], 0.06)
		}
	}
	for _, c := range []struct {
		how    string
		copied bool
	}{{"chase", false}, {"memcpy", true}} {
		for cg := range 2 {
			got := l1tlbCycles(t, "k_many", cg, []string{"buf:2097152", "2654435761", "16383", "4096", "buf:16"}, c.copied)
			checkWithin(t, fmt.Sprintf("k_many after a %s, cg=%d", c.how, cg), got, h[fmt.Sprintf("warm_%s,%d", c.how, cg)], 0.06)
		}
	}
}

func checkWithin(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	e := got/want - 1
	t.Logf("%s: %.1f cycles, H200 %.1f (%+.1f %%)", what, got, want, 100*e)
	if want == 0 || e > tol || e < -tol {
		t.Errorf("%s: %.1f cycles, H200 %.1f (%+.1f %%)", what, got, want, 100*e)
	}
}
