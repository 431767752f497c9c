package gpu

import "github.com/smsim/smsim/sm"

// recorder is an SM's observer while the SMs run: it keeps the SM's calls
// and hands them to the real observer after each pass of the clock, SM by
// SM in the clock's order (GPU.replay). The observer then sees every call
// in one order whatever the number of host threads, and from one
// goroutine, though the SMs made them on several. Outside a run (a
// launch's start and end) calls go straight through.
type recorder struct {
	to    sm.Observer
	on    *bool // the SMs are running
	calls []observed
}

// observed is one observer call, its arguments by kind.
type observed struct {
	kind       uint8
	s          string
	i1, i2     int
	u1, u2, u3 uint64
	r          sm.Reason
	lanes      uint32
}

const (
	obsLaunch = iota
	obsIssue
	obsStall
	obsPhase
	obsCopy
	obsMMA
)

func (r *recorder) keep(c observed) { r.calls = append(r.calls, c) }

func (r *recorder) Launch() {
	if !*r.on {
		r.to.Launch()
		return
	}
	r.keep(observed{kind: obsLaunch})
}

func (r *recorder) Issue(cycle uint64, warp, pc int, lanes uint32) {
	if !*r.on {
		r.to.Issue(cycle, warp, pc, lanes)
		return
	}
	r.keep(observed{kind: obsIssue, u1: cycle, i1: warp, i2: pc, lanes: lanes})
}

func (r *recorder) Stall(warp int, from, to uint64, why sm.Reason, what string) {
	if !*r.on {
		r.to.Stall(warp, from, to, why, what)
		return
	}
	r.keep(observed{kind: obsStall, i1: warp, u1: from, u2: to, r: why, s: what})
}

func (r *recorder) Phase(barrier string, cta int, phase, opened, completed uint64) {
	if !*r.on {
		r.to.Phase(barrier, cta, phase, opened, completed)
		return
	}
	r.keep(observed{kind: obsPhase, s: barrier, i1: cta, u1: phase, u2: opened, u3: completed})
}

func (r *recorder) Copy(id uint64, bytes int, issued, done uint64, barrier string) {
	if !*r.on {
		r.to.Copy(id, bytes, issued, done, barrier)
		return
	}
	r.keep(observed{kind: obsCopy, u1: id, i1: bytes, u2: issued, u3: done, s: barrier})
}

func (r *recorder) MMAGroup(warp, n int, issued, done uint64) {
	if !*r.on {
		r.to.MMAGroup(warp, n, issued, done)
		return
	}
	r.keep(observed{kind: obsMMA, i1: warp, i2: n, u1: issued, u2: done})
}

// flush hands the kept calls to the observer, in the order they came.
func (r *recorder) flush() {
	for i := range r.calls {
		c := &r.calls[i]
		switch c.kind {
		case obsLaunch:
			r.to.Launch()
		case obsIssue:
			r.to.Issue(c.u1, c.i1, c.i2, c.lanes)
		case obsStall:
			r.to.Stall(c.i1, c.u1, c.u2, c.r, c.s)
		case obsPhase:
			r.to.Phase(c.s, c.i1, c.u1, c.u2, c.u3)
		case obsCopy:
			r.to.Copy(c.u1, c.i1, c.u2, c.u3, c.s)
		case obsMMA:
			r.to.MMAGroup(c.i1, c.i2, c.u1, c.u2)
		}
	}
	clear(r.calls) // drop the strings
	r.calls = r.calls[:0]
}

// replay hands every SM's kept calls to its observer, SM by SM in the
// clock's order: after each pass, so that they reach it in one order.
func (g *GPU) replay() {
	if g.recs == nil {
		return
	}
	for _, i := range g.order {
		if r := g.recs[i]; r != nil && len(r.calls) > 0 {
			r.flush()
		}
	}
}
