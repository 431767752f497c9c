package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/smsim/smsim/run"
)

// runSMs runs calibration/h200's converged arrive/wait loop, five CTAs of
// two warps, on sms SMs, and builds its report.
func runSMs(t *testing.T, sms int) *Report {
	t.Helper()
	f := run.Spec{Kernel: "_Z13k_arrive_waitILi0EEviPx", Block: "64", Grid: "5", Launches: 1, Config: "h200", SMs: sms,
		Args: []string{"20", "buf:8"}}
	j, err := f.Job("../calibration/h200/microbench.sass")
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatalf("execute: %v %v", err, out.Err)
	}
	return Build(j, out)
}

// A launch on several SMs reports each SM's share: the five CTAs spread
// over four SMs (SM 0 takes the fifth), the SMs' warp instructions add up
// to the kernel's, the latest SM's cycles are the kernel's; the table
// prints them by default, CSV and JSON on request. A launch on one SM has
// no sms in its JSON, and its sms table is that SM alone.
func TestReportsEachSMsShare(t *testing.T) {
	r := runSMs(t, 4)
	if len(r.SMs) != 4 {
		t.Fatalf("%d SMs reported, want 4", len(r.SMs))
	}
	var ctas, instrs, last uint64
	for _, s := range r.SMs {
		ctas += s.CTAs
		instrs += s.WarpInstructions
		last = max(last, s.Cycles)
		if s.Stalls["mbarrier"] == 0 {
			t.Errorf("SM %d: no mbarrier stalls in %v", s.SM, s.Stalls)
		}
	}
	if ctas != 5 || r.SMs[0].CTAs != 2 {
		t.Errorf("CTAs %d in all, %d on SM 0: want 5 and 2", ctas, r.SMs[0].CTAs)
	}
	if instrs != r.Sim.WarpInstructions || last != r.Cycles {
		t.Errorf("SMs' instructions %d and latest cycles %d, want the kernel's %d and %d", instrs, last, r.Sim.WarpInstructions, r.Cycles)
	}
	var tb bytes.Buffer
	if err := WriteTable(&tb, nil, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tb.String(), "| sm | ctas | cycles | instrs |") {
		t.Errorf("the default table has no sms section:\n%s", tb.String())
	}
	var cb bytes.Buffer
	if err := WriteCSV(&cb, []string{"sms"}, r); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&cb).ReadAll()
	if err != nil || len(rows) != 5 || rows[0][1] != "sm" || rows[1][2] != "2" {
		t.Errorf("sms CSV: %v (%v), want a header and four rows, SM 0 with 2 CTAs", rows, err)
	}

	one := runSMs(t, 1)
	js, _ := json.Marshal(one)
	if bytes.Contains(js, []byte(`"sms"`)) {
		t.Error("a launch on one SM has sms in its JSON")
	}
	var ob bytes.Buffer
	if err := WriteTable(&ob, []string{"sms"}, one); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(ob.String(), "\n|"); got != 2 {
		t.Errorf("one SM's sms table has %d rows besides its header, want 1:\n%s", got-1, ob.String())
	}
}

// A cluster launch reports each cluster: cluster_probe.ptx's
// k_cluster_func<2> on a grid of 4 is two clusters of two CTAs, each on two
// SMs of one GPC, whose CTAs arrive on each other's barriers; the clusters'
// instructions add up to the kernel's. Only the SMs that ran a CTA are
// listed.
func TestReportsEachCluster(t *testing.T) {
	f := run.Spec{Kernel: "k_cluster_func<2>", Block: "128", Grid: "4", Launches: 1, Config: "h200",
		Args: []string{"buf:8192:random:7", "buf:8192", "buf:2048", "buf:8", "buf:8", "buf:32"}}
	j, err := f.Job("../testdata/cuda/cluster_probe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatalf("execute: %v %v", err, out.Err)
	}
	r := Build(j, out)
	if len(r.SMs) != 4 {
		t.Errorf("%d SMs listed, want the 4 that ran a CTA", len(r.SMs))
	}
	if len(r.Clusters) != 2 {
		t.Fatalf("%d clusters, want 2", len(r.Clusters))
	}
	var instrs uint64
	for i, c := range r.Clusters {
		instrs += c.WarpInstructions
		if want := []int{2 * i, 2*i + 1}; !slices.Equal(c.CTAs, want) {
			t.Errorf("cluster %d: CTAs %v, want %v", i, c.CTAs, want)
		}
		if len(c.SMs) != 2 || c.SMs[0] == c.SMs[1] {
			t.Errorf("cluster %d: SMs %v, want two distinct", i, c.SMs)
		}
		if c.RemoteArrivals == 0 {
			t.Errorf("cluster %d: no remote arrivals", i)
		}
	}
	if instrs != r.Sim.WarpInstructions {
		t.Errorf("clusters' instructions %d, want the kernel's %d", instrs, r.Sim.WarpInstructions)
	}
	var tb bytes.Buffer
	if err := WriteTable(&tb, nil, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(tb.String(), "| cluster | ctas |") {
		t.Errorf("the default table has no clusters section:\n%s", tb.String())
	}
	var cb bytes.Buffer
	if err := WriteCSV(&cb, []string{"clusters"}, r); err != nil {
		t.Fatal(err)
	}
	if rows, err := csv.NewReader(&cb).ReadAll(); err != nil || len(rows) != 3 || rows[1][2] != "0 1" {
		t.Errorf("clusters CSV: %v (%v), want a header and two rows, cluster 0 of CTAs \"0 1\"", rows, err)
	}
}
