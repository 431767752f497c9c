package run

import (
	"fmt"
	"testing"
)

// TestClusterFuncFromSASS runs k_cluster_func<2> and <4> from the SASS ptxas
// made of cluster_probe.cu (testdata/cluster: cluster barriers UCGABAR_*,
// the multicast UBLKCP, mapa as ULEA/UPRMT on SR_CgaCtaId, generic LD/ST/ATOM
// into the cluster's shared window, a remote SYNCS.ARRIVE...RED.A1T0) and
// compares every output with the PTX run's, which matches the H200's bit
// for bit (TestClusterFuncMatchesH200), and its sums and counts with the
// H200's themselves.
func TestClusterFuncFromSASS(t *testing.T) {
	h := h200Probe(t)
	for _, c := range []int{2, 4} {
		t.Run(fmt.Sprintf("C%d", c), func(t *testing.T) {
			var outs [2]*Outcome
			for i, path := range []string{"../testdata/cuda/cluster_probe.ptx", "../testdata/cluster/cluster_probe.sass"} {
				j := clusterFuncJobFrom(t, c, path)
				if j.Cluster != [3]int{c, 1, 1} {
					t.Fatalf("%s: cluster %v, want (%d,1,1) from the kernel", path, j.Cluster, c)
				}
				out, err := Execute(j)
				if err != nil || out.Err != nil {
					t.Fatalf("%s: execute: %v %v", path, err, out.Err)
				}
				outs[i] = out
			}
			ptx, sass := outs[0], outs[1]
			// Dumps 0-3 are the kernel's outputs; 4 is its CTAs' cycles.
			for d := 0; d < 4; d++ {
				if a, b := joinVals(ptx.Dumps[d].Values), joinVals(sass.Dumps[d].Values); a != b {
					t.Errorf("output %d differs from the PTX run's:\n sass %.200s\n  ptx %.200s", d+1, b, a)
				}
			}
			key := fmt.Sprintf("func,c%d_rep2_", c)
			if got := joinVals(sass.Dumps[2].Values); got != h[key+"sums"] {
				t.Errorf("sums %s, H200 %s", got, h[key+"sums"])
			}
			if got := joinVals(sass.Dumps[3].Values); got != h[key+"counts"] {
				t.Errorf("counts %s, H200 %s", got, h[key+"counts"])
			}
			for _, v := range sass.Dumps[4].Values {
				if n := v.(int64); n <= 0 {
					t.Errorf("a CTA's cycles %d: it did not run to its end", n)
				}
			}
			// Rank 0's reduction barrier (red in the PTX; ptxas puts it at
			// 0x1020 past the reserved 1 KiB for C2, 0x1028 for C4): one
			// arrival from each other rank, through SYNCS...RED.A1T0.
			red := map[int]string{2: "smem+0x1420", 4: "smem+0x1428"}[c]
			found := 0
			for _, b := range sass.Result.Barriers {
				if b.Name != red || b.CTA%c != 0 || len(b.Phases) == 0 {
					continue
				}
				found++
				if p := b.Phases[0]; p.RemoteArrivals != uint64(c-1) || p.RemoteRanks != uint32(1<<c-2) {
					t.Errorf("CTA %d's red: %d remote arrivals from ranks %b, want %d from %b", b.CTA, p.RemoteArrivals, p.RemoteRanks, c-1, 1<<c-2)
				}
			}
			if found != 2 {
				t.Errorf("%d reduction barriers of rank 0 reported, want 2", found)
			}
		})
	}
}
