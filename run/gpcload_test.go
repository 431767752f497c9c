package run

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// h200GPCLoad reads calibration/h200/gpcload.csv: per "SET,CTAS_AN_SM" the
// median over the three repetitions of the slowest CTA's cycles.
func h200GPCLoad(t *testing.T) map[string]float64 {
	t.Helper()
	slowest := map[string]map[string]float64{}
	for _, rec := range h200CSV(t, "../calibration/h200/gpcload.csv") {
		if len(rec) != 7 || rec[0] != "bw" || rec[4] == "-1" {
			continue
		}
		c, err := strconv.ParseFloat(rec[6], 64)
		if err != nil {
			t.Fatalf("gpcload.csv: bad row %v", rec)
		}
		k := rec[1] + "," + rec[2]
		if slowest[k] == nil {
			slowest[k] = map[string]float64{}
		}
		slowest[k][rec[4]] = max(slowest[k][rec[4]], c)
	}
	m := map[string]float64{}
	for k, reps := range slowest {
		var v []float64
		for _, c := range reps {
			v = append(v, c)
		}
		m[k] = median(v)
	}
	return m
}

// TestGPCLoadsMatchH200 runs gpcload.cu's stream (ld.global.cg of 32 KiB of
// its own, eight times; calibration/h200/gpcload.sass, the SASS the H200
// ran) on 16 SMs of one GPC, and on 16 spread a TPC a GPC, with 1, 2 and 4
// CTAs an SM over 132 SMs. One GPC's 16 SMs are held by its delivery
// (gpu.gpc_l2_bytes_per_cycle), which the stream's L1-bypassing loads, two
// of each 16 bytes, cross twice for each sector: their slowest CTA
// must come within 10 % of the H200's, as must the spread SMs' with one CTA
// an SM, which stream as one alone does. Spread with two and four CTAs an
// SM, smsim's SMs stream about a quarter faster than the H200's
// (docs/clusters.md): those rows are only logged.
func TestGPCLoadsMatchH200(t *testing.T) {
	if testing.Short() {
		t.Skip("simulates up to 64 CTAs streaming 16 MiB")
	}
	h := h200GPCLoad(t)
	dir := t.TempDir()
	sets := map[string][]int{
		"gpc1":    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, // of gpu.gpc_sms' first GPC (SMs 0-17)
		"spread1": {0, 1, 18, 19, 36, 37, 54, 55, 72, 73, 90, 91, 106, 107, 122, 123},
	}
	for _, set := range []string{"gpc1", "spread1"} {
		active := make([]byte, 132)
		for _, s := range sets[set] {
			active[s] = 1
		}
		mask := filepath.Join(dir, set+".bin")
		if err := os.WriteFile(mask, active, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cps := range []int{1, 2, 4} {
			key := fmt.Sprintf("%s,%d", set, cps)
			want, ok := h[key]
			if !ok {
				t.Fatalf("gpcload.csv has no %s", key)
			}
			grid := 132 * cps
			sp := Spec{Kernel: "k_stream", Block: "256", Grid: strconv.Itoa(grid), Smem: strconv.Itoa(200 << 10 / cps),
				SMs: 132, Launches: 2, Config: "h200", Args: []string{fmt.Sprintf("buf:%d", 528*32<<10),
					"buf:132:file:" + mask, fmt.Sprintf("buf:%d", 528*256*4), fmt.Sprintf("buf:%d", 2*528*8)}}
			j, err := sp.Job("../calibration/h200/gpcload.sass")
			if err != nil {
				t.Fatal(err)
			}
			ds, err := ParseDump(fmt.Sprintf("3:i64:%d", 2*grid))
			if err != nil {
				t.Fatal(err)
			}
			j.Dumps = []DumpSpec{ds}
			out, err := Execute(j)
			if err != nil || out.Err != nil {
				t.Fatalf("%s: %v %v", key, err, out.Err)
			}
			v := out.Dumps[0].Values
			var slowest int64
			for c := 0; c < grid; c++ {
				slowest = max(slowest, v[2*c+1].(int64))
			}
			e := float64(slowest)/want - 1
			t.Logf("%s CTAs an SM: slowest CTA %d cycles, H200 %.0f (%+.1f %%)", key, slowest, want, 100*e)
			if (set == "gpc1" || cps == 1) && (e > 0.10 || e < -0.10) {
				t.Errorf("%s CTAs an SM: slowest CTA %d cycles, H200 %.0f (%+.1f %%)", key, slowest, want, 100*e)
			}
		}
	}
}
