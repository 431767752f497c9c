package run

import (
	"github.com/smsim/smsim/gpu"
	"github.com/smsim/smsim/sm"
)

// Observers fans the SM's observer calls out to several observers (a
// timeline and a profile of one run), in order.
type Observers []sm.Observer

// ForSM returns the observers of SM i of a GPU (gpu.PerSM): each one's view
// of SM i, or, for one that observes a single SM, itself on SM 0 alone.
func (o Observers) ForSM(i int) sm.Observer {
	var out Observers
	for _, x := range o {
		if p, ok := x.(gpu.PerSM); ok {
			out = append(out, p.ForSM(i))
		} else if i == 0 {
			out = append(out, x)
		}
	}
	return out
}

// Launch implements sm.Observer.
func (o Observers) Launch() {
	for _, x := range o {
		x.Launch()
	}
}

// Issue implements sm.Observer.
func (o Observers) Issue(c uint64, w, pc int, lanes uint32) {
	for _, x := range o {
		x.Issue(c, w, pc, lanes)
	}
}

// Stall implements sm.Observer.
func (o Observers) Stall(w int, from, to uint64, r sm.Reason, what string) {
	for _, x := range o {
		x.Stall(w, from, to, r, what)
	}
}

// Phase implements sm.Observer.
func (o Observers) Phase(b string, cta int, phase, opened, completed uint64) {
	for _, x := range o {
		x.Phase(b, cta, phase, opened, completed)
	}
}

// MMAGroup implements sm.Observer.
func (o Observers) MMAGroup(warp, n int, issued, done uint64) {
	for _, x := range o {
		x.MMAGroup(warp, n, issued, done)
	}
}

// Copy implements sm.Observer.
func (o Observers) Copy(id uint64, bytes int, issued, done uint64, b string) {
	for _, x := range o {
		x.Copy(id, bytes, issued, done, b)
	}
}
