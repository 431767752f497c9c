package report

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/smsim/smsim/run"
)

// TestTimelineOneProcessPerSM runs a cluster kernel on several SMs with a
// timeline: each SM that ran warps gets its own process of warp tracks.
func TestTimelineOneProcessPerSM(t *testing.T) {
	f := run.Spec{Kernel: "k_cluster_func<2>", Block: "128", Grid: "4", Launches: 1, Config: "h200", SMs: 4,
		Args: []string{"buf:8192:random:7", "buf:8192", "buf:2048", "buf:8", "buf:8", "buf:32"}}
	j, err := f.Job("../testdata/cuda/cluster_probe.ptx")
	if err != nil {
		t.Fatal(err)
	}
	tl := NewTimeline(j.Prog)
	j.Observer = tl
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatalf("execute: %v %v", err, out.Err)
	}
	var buf bytes.Buffer
	if err := tl.Write(&buf, out.Result); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []TraceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	names := map[int]string{}
	spans := map[int]int{}
	for _, e := range doc.TraceEvents {
		if e.Name == "process_name" {
			names[e.Pid], _ = e.Args["name"].(string)
		} else if e.Ph == "X" && e.Pid >= pidSM0 {
			spans[e.Pid]++
		}
	}
	for sm := 0; sm < 4; sm++ {
		pid := pidSM0 + sm
		if spans[pid] == 0 || names[pid] == "" {
			t.Errorf("SM %d: %d warp spans, process name %q; want spans under a named process", sm, spans[pid], names[pid])
		}
	}
}
