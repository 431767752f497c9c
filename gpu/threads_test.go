package gpu

import (
	"runtime"
	"testing"

	"github.com/smsim/smsim/sim"
	"github.com/smsim/smsim/sm"
)

// TestSMThreads checks how many host threads a launch's SMs run on: one
// unless SetSMThreads asks for more, at most SetThreads' bound (0: every
// core) and the SMs, and one when CTAs start from within an SM's cycle
// (gpu.cta_launch_ns 0).
func TestSMThreads(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	for _, c := range []struct {
		name                string
		threads, asked, sms int
		launch              int
		want                int
	}{
		{"default", 0, 0, 132, 319, 1},
		{"threads alone", 8, 0, 132, 319, 1},
		{"asked", 0, 4, 132, 319, min(4, cores)},
		{"bounded by threads", 2, 8, 132, 319, 2},
		{"bounded by SMs", 16, 16, 3, 319, 3},
		{"one asked", 16, 1, 132, 319, 1},
		{"launch at once", 8, 8, 132, 0, 1},
	} {
		g := &GPU{sms: make([]*sm.SM, c.sms)}
		g.SetThreads(c.threads)
		g.SetSMThreads(c.asked)
		g.d.launch = sim.Cycle(c.launch)
		if got := g.smThreads(); got != c.want {
			t.Errorf("%s: %d threads, want %d", c.name, got, c.want)
		}
	}
}
