package sweep

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// Grid is a sweep: a kernel file run under a launch spec at every point of
// the axes' cross product.
type Grid struct {
	File   string
	Spec   run.Spec
	Axes   []Axis
	ID     string // the sweep's identity (ID), carried by its records
	Arrays bool   // pool each barrier array's elements in the summaries
}

// Stats counts what RunPoints did.
type Stats struct {
	Recorded    int // points run and recorded
	Failed      int // of those, the points that failed
	Interrupted bool
	Seconds     float64
}

// RunPoints runs the points in todo on jobs workers and hands each record
// to put in the order they finish, calling progress (when not nil) after
// each. When ctx is cancelled (Ctrl-C) it stops taking records and returns
// with Interrupted set; the points still running are left unrecorded. The
// error is put's first.
func (g *Grid) RunPoints(ctx context.Context, jobs int, todo []int, put func(Record) error, progress func(done, failed int)) (Stats, error) {
	start := time.Now()
	if jobs > 1 && g.Spec.Threads == 0 {
		g.Spec.Threads = 1 // the points share the cores: one each
	}
	work := make(chan int)
	results := make(chan Record)
	for w := 0; w < min(max(jobs, 1), max(len(todo), 1)); w++ {
		go func() {
			for i := range work {
				select {
				case results <- g.RunPoint(i):
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() {
		defer close(work)
		for _, i := range todo {
			select {
			case work <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var st Stats
	var firstErr error
	for k := 0; k < len(todo) && ctx.Err() == nil; k++ {
		var r Record
		select {
		case r = <-results:
		case <-ctx.Done():
			continue
		}
		st.Recorded++
		if r.Exit != 0 {
			st.Failed++
		}
		if err := put(r); err != nil && firstErr == nil {
			firstErr = err
		}
		if progress != nil {
			progress(k+1, st.Failed)
		}
	}
	st.Interrupted = ctx.Err() != nil
	st.Seconds = time.Since(start).Seconds()
	return st, firstErr
}

// RunPoint runs grid point i and describes it as a record; any failure,
// even an internal one, becomes the record's exit status and error.
func (g *Grid) RunPoint(i int) (rec Record) {
	pt := GridPoint(g.Axes, i)
	rec = Record{Sweep: g.ID, Index: i, Points: GridSize(g.Axes), Params: map[string]string{}, File: g.File,
		Barriers: []report.BarrierSummary{}}
	for _, s := range pt {
		rec.Params[s.Kind+":"+s.Key] = s.Value
	}
	fail := func(err error) {
		rec.Exit = run.ExitStatus(err)
		rec.Error, _, _ = strings.Cut(err.Error(), "\n")
	}
	defer func() {
		if r := recover(); r != nil {
			rec.Exit, rec.Error = run.ExitInternal, fmt.Sprintf("internal error: %v", r)
		}
	}()
	j, err := PointJob(g.Spec, g.File, pt)
	if err != nil {
		fail(err)
		return rec
	}
	rec.Kernel, rec.KernelMangled = j.Prog.Title(), j.Prog.Name
	out, err := run.Execute(j)
	if err != nil {
		fail(err)
		return rec
	}
	if out.Err != nil {
		fail(out.Err)
	}
	rep := report.Build(j, out)
	rec.Cycles = rep.Cycles
	rec.Barriers, rec.StallCycles = report.Summaries(rep, g.Arrays)
	for _, b := range rec.Barriers {
		rec.Phases += b.Phases
	}
	rec.WarpInstructions = rep.Sim.WarpInstructions
	rec.HostSeconds = float64(out.Host.Microseconds()) / 1e6
	return rec
}
