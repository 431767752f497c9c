package tma

import "github.com/smsim/smsim/sim"

// A load's memory requests leave the unit as simulated time reaches them,
// not when the load is issued: row i of a box at t + i·rowCost, a 1-D load's
// lines at t. The SM→L2 request path is one queue that every source joins
// in time order (memory.Hierarchy books it first come, first served), so a
// request booked ahead of its time would hold back the warps' stores issued
// before it (calibration/h200/stgport.csv: copies and stores streaming
// together share the path, 0.55 line requests and 0.47 store sectors a
// cycle). Each load therefore takes one engine event per cycle in which
// its rows go out, then one for its landing.

// rowStream is a load whose requests are still going out.
type rowStream struct {
	active bool
	iter   BoxIter // tensor loads: the pieces not yet requested
	run    Run     // the next piece, taken from iter
	hasRun bool
	t      fixed     // when row 0 goes out (after the front end and setup)
	cost   fixed     // the front end's time per row
	rows   int       // rows in the box
	ready  sim.Cycle // when the last byte requested so far is back
	dram   int       // bytes requested so far that came from DRAM
}

// startLoad takes a 1-D load whose requests go out at t.
func (u *Unit) startLoad(t sim.Cycle, r request) {
	r.stream = rowStream{active: true, t: toFixed(t), rows: 1, ready: t}
	u.startStream(t, r)
}

// startTensorLoad takes a tensor load whose first row goes out at t.
func (u *Unit) startTensorLoad(t sim.Cycle, r request) {
	r.stream = rowStream{active: true, t: toFixed(t), cost: u.rowCost(uint32(r.m.InnerBytes())),
		rows: r.m.Rows(), ready: t, iter: r.m.unswizzled(r.coords)}
	u.startStream(t, r)
}

func (u *Unit) startStream(t sim.Cycle, r request) {
	i := u.alloc(r)
	u.inFlight++
	u.eng.Schedule(t, sim.PhaseDeliver, u, uint64(i))
}

// sendRows sends the requests of the stream at pool index i that are due at
// now, then schedules the stream's next row, or its landing once all have
// gone out.
func (u *Unit) sendRows(now sim.Cycle, i uint64) {
	r := &u.reqs[i]
	s := &r.stream
	if r.kind == kLoad {
		rd, d := u.path.Stream(now, r.global, int(r.size))
		s.ready, s.dram = max(s.ready, rd), d
		u.eng.Schedule(u.finishStream(r, 0), sim.PhaseDeliver, u, i)
		return
	}
	for {
		if !s.hasRun {
			run, ok := s.iter.Next()
			if !ok {
				break
			}
			s.run, s.hasRun = run, true
		}
		at := (s.t + fixed(s.run.Row)*s.cost).ceil()
		if at > now {
			u.eng.Schedule(at, sim.PhaseDeliver, u, i)
			return
		}
		u.sendRun(at, s)
		s.hasRun = false
	}
	u.eng.Schedule(u.finishStream(r, u.cfg.TensorDRAMCycles), sim.PhaseDeliver, u, i)
}

// sendRun requests one piece of a box row at at.
func (u *Unit) sendRun(at sim.Cycle, s *rowStream) {
	if !s.run.InBounds {
		// Nothing is read, but the row's zeros come back no sooner than
		// an L2 hit's bytes (tmadesc.csv: a box wholly out of bounds takes
		// as long as one in L2).
		s.ready = max(s.ready, at+u.path.HitLatency())
		return
	}
	rd, d := u.path.Stream(at, s.run.Global, int(s.run.Bytes))
	s.ready, s.dram = max(s.ready, rd), s.dram+d
}

// finishStream ends the stream of r, whose requests have all gone out, and
// returns when the load lands: its last byte back (plus dramExtra when any
// came from DRAM), through the shared-memory port, and CompletionLatency
// on to the barrier.
func (u *Unit) finishStream(r *request, dramExtra int) sim.Cycle {
	s := &r.stream
	ready := max(s.ready, (s.t + fixed(s.rows)*s.cost).ceil())
	if s.dram > 0 {
		ready += sim.Cycle(dramExtra)
	}
	u.stats.DRAMBytes += uint64(s.dram)
	done := u.port(s.t.ceil(), ready, r.size) + sim.Cycle(u.cfg.CompletionLatency) + u.completionPad
	r.stream = rowStream{}
	return done
}
