package run_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// A chain of wgmma groups shows on the timeline as one span per group on the
// warp's track of the tensor pipes, and the wait_group stalls as
// math_pipe_throttle.
func TestWgmmaGroupsOnTheTimeline(t *testing.T) {
	j, err := launch(t, "../testdata/cuda/wgmma/wgmma_probe.ptx", "-k", "tm_f16_f32_n64_ss", "-b", "128", "--smem", "41984",
		"-a", "buf:192", "-a", "4", "-a", "1")
	if err != nil {
		t.Fatal(err)
	}
	tl := report.NewTimeline(j.Prog)
	j.Observer = tl
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	var buf bytes.Buffer
	if err := tl.Write(&buf, out.Result); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		TraceEvents []report.TraceEvent `json:"traceEvents"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	groups, named, throttled := 0, false, uint64(0)
	for _, e := range doc.TraceEvents {
		switch {
		case e.Cat == "wgmma":
			groups++
			if e.Dur == nil || *e.Dur < 40+32 {
				t.Errorf("wgmma group %s lasts %v cycles, less than the pipe's N/2 and tensor.latency", e.Name, e.Dur)
			}
		case e.Ph == "M" && strings.Contains(e.Args["name"].(string), "tensor pipes"):
			named = true
		case e.Cat == sm.ReasonMathPipeThrottle.String() && e.Dur != nil:
			throttled += *e.Dur
		}
	}
	if groups != 4*4 || !named || throttled == 0 {
		t.Errorf("%d wgmma groups (want 4 per warp, 16), tensor track named %v, %d cycles of math_pipe_throttle", groups, named, throttled)
	}
}
