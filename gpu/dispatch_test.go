package gpu

import (
	"testing"

	"github.com/smsim/smsim/sm"
)

// TestLayout checks the GPCs built from gpu.gpc_sms for several SM counts.
func TestLayout(t *testing.T) {
	spec := sm.DefaultConfig().GPU
	for _, tc := range []struct {
		n    int
		want []int // SMs per GPC
	}{
		{1, []int{1}}, {18, []int{18}}, {20, []int{18, 2}}, {132, []int{18, 18, 18, 18, 18, 16, 16, 10}},
	} {
		got := layout(spec, tc.n)
		if len(got) != len(tc.want) {
			t.Fatalf("%d SMs: %d GPCs, want %d", tc.n, len(got), len(tc.want))
		}
		next := 0
		for k, g := range got {
			if len(g) != tc.want[k] || g[0] != next {
				t.Errorf("%d SMs: GPC %d holds %v, want %d SMs from %d", tc.n, k, g, tc.want[k], next)
			}
			next += len(g)
		}
	}
}

// TestClusterCTAIDs checks the grid index of each rank of a cluster: rank
// counts x first within the cluster, clusters x first within the grid.
func TestClusterCTAIDs(t *testing.T) {
	d := dispatcher{l: &sm.Launch{Grid: [3]int{4, 2, 1}}, cluster: [3]int{2, 2, 1}}
	want := [][]int{{0, 1, 4, 5}, {2, 3, 6, 7}}
	for k, ids := range want {
		for r, id := range ids {
			if got := d.ctaID(k, r); got != id {
				t.Errorf("cluster %d rank %d: CTA %d, want %d", k, r, got, id)
			}
		}
	}
	if got := d.clusterIndex(1); got != [3]uint32{1, 0, 0} {
		t.Errorf("cluster 1's index %v, want (1,0,0)", got)
	}
}

// TestDispatchOrderSpreadsOverGPCs: CTAs go to the first SM of a TPC of each
// GPC in turn, then to the second SMs, then to the next TPCs, and every SM
// comes once.
func TestDispatchOrderSpreadsOverGPCs(t *testing.T) {
	gpcs := [][]int{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}}
	want := []int{0, 4, 8, 1, 5, 9, 2, 6, 3, 7}
	got := dispatchOrder(gpcs)
	if len(got) != len(want) {
		t.Fatalf("order %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
}
