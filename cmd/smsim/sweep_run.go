package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/smsim/smsim/report"
	"github.com/smsim/smsim/run"
)

// errLocked: another sweep holds the lock on a results file (lockFile).
var errLocked = errors.New("locked by another process")

// recordSink receives a sweep's records as their points finish.
type recordSink interface {
	put(r sweepRecord) error
	all() []sweepRecord // every record the sink holds, for --plot
}

// fileSink appends records to a results file, one write and one fsync
// each, so that an interruption loses at most the points still running.
type fileSink struct {
	f       *os.File
	format  string
	params  []string
	done    map[int]bool
	records []sweepRecord
}

// openResults opens (or creates) a results file for appending, locked so
// that a second sweep on the same file is refused rather than interleaving
// its records with this one's. Records already there must belong to sweep
// id; their indices are returned in done. An incomplete last line, left by
// an interruption, is cut off.
func openResults(path, format string, params []string, id string, stderr io.Writer) (*fileSink, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fileError("--out", path, "write", err)
	}
	s := &fileSink{f: f, format: format, params: params, done: map[int]bool{}}
	switch err := lockFile(f); {
	case errors.Is(err, errLocked):
		s.close()
		return nil, &inputError{Err: fmt.Errorf("--out %s: another smsim sweep is writing it; wait for that one to finish "+
			"(then this command runs what is left), or give each sweep its own --out (--shard I/N, then smsim merge)", path)}
	case err != nil:
		fmt.Fprintf(stderr, "sweep: %s: cannot lock it (%v); run no other sweep on it until this one ends\n", path, err)
	}
	data, err := io.ReadAll(f)
	if err != nil {
		s.close()
		return nil, fileError("--out", path, "read", err)
	}
	rf, err := parseResults(path, format, data)
	if err != nil {
		s.close()
		return nil, err
	}
	for _, r := range rf.records {
		if r.Sweep != id {
			s.close()
			return nil, &usageError{Msg: fmt.Sprintf("--out %s holds results of another sweep (id %s, this one is %s: a different file, flags or grid); use a new --out", path, r.Sweep, id)}
		}
		s.done[r.Index] = true
		s.records = append(s.records, r)
	}
	if format == "csv" && len(rf.records) > 0 && strings.Join(rf.params, ",") != strings.Join(params, ",") {
		s.close()
		return nil, &usageError{Msg: fmt.Sprintf("--out %s has parameter columns %v, this sweep %v; use a new --out", path, rf.params, params)}
	}
	if size := int64(len(data)); size > rf.good {
		fmt.Fprintf(stderr, "sweep: %s: dropping an incomplete last record (%d bytes) left by an interruption\n", path, size-rf.good)
		if err := s.f.Truncate(rf.good); err != nil {
			s.close()
			return nil, fileError("--out", path, "write", err)
		}
	}
	if _, err := s.f.Seek(rf.good, io.SeekStart); err != nil {
		s.close()
		return nil, fileError("--out", path, "write", err)
	}
	if format == "csv" && rf.good == 0 {
		h, err := csvLine(csvColumns(params))
		if err == nil {
			err = s.write(h)
		}
		if err != nil {
			s.close()
			return nil, err
		}
	}
	return s, nil
}

func (s *fileSink) write(b []byte) error {
	if _, err := s.f.Write(b); err != nil {
		return fileError("--out", s.f.Name(), "write", err)
	}
	if err := s.f.Sync(); err != nil {
		return fileError("--out", s.f.Name(), "write", err)
	}
	return nil
}

func (s *fileSink) put(r sweepRecord) error {
	b, err := encodeRecord(s.format, s.params, r)
	if err != nil {
		return err
	}
	s.records = append(s.records, r)
	return s.write(b)
}

func (s *fileSink) all() []sweepRecord { return s.records }
func (s *fileSink) close()             { _ = s.f.Close() }

// streamSink writes records to stdout (CSV with a header first).
type streamSink struct {
	w       io.Writer
	format  string
	params  []string
	started bool
	records []sweepRecord
}

func (s *streamSink) put(r sweepRecord) error {
	if !s.started && s.format == "csv" {
		h, _ := csvLine(csvColumns(s.params))
		if _, err := s.w.Write(h); err != nil {
			return err
		}
	}
	s.started = true
	s.records = append(s.records, r)
	b, err := encodeRecord(s.format, s.params, r)
	if err != nil {
		return err
	}
	_, err = s.w.Write(b)
	return err
}

func (s *streamSink) all() []sweepRecord { return s.records }

type sweepStats struct {
	recorded    int // points run and recorded
	failed      int // of those, the points that failed
	interrupted bool
	seconds     float64
}

// runPoints runs the points in todo on o.jobs workers and hands each
// record to sink in the order they finish. When ctx is cancelled (Ctrl-C)
// it stops taking records and returns with interrupted set; the points
// still running are left unrecorded.
func runPoints(ctx context.Context, o *sweepOptions, file string, axes []axis, id string, todo []int, sink recordSink) (sweepStats, error) {
	start := time.Now()
	n := gridSize(axes)
	work := make(chan int)
	results := make(chan sweepRecord)
	for w := 0; w < min(max(o.jobs, 1), max(len(todo), 1)); w++ {
		go func() {
			for i := range work {
				select {
				case results <- runPoint(o, file, axes, id, n, i):
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
	var st sweepStats
	var firstErr error
	for k := 0; k < len(todo) && ctx.Err() == nil; k++ {
		var r sweepRecord
		select {
		case r = <-results:
		case <-ctx.Done():
			continue
		}
		st.recorded++
		if r.Exit != 0 {
			st.failed++
		}
		if err := sink.put(r); err != nil && firstErr == nil {
			firstErr = err
		}
		if o.progress != nil {
			progressBar(o.progress, k+1, len(todo), st.failed, time.Since(start))
		}
	}
	st.interrupted = ctx.Err() != nil
	if o.progress != nil && (len(todo) > 0 || st.interrupted) {
		fmt.Fprintln(o.progress)
	}
	st.seconds = time.Since(start).Seconds()
	return st, firstErr
}

// progressBar redraws one line: a bar, the count, failures, elapsed time
// and an estimate of the time left.
func progressBar(w io.Writer, done, total, failed int, took time.Duration) {
	const width = 30
	fill := width * done / max(total, 1)
	left := time.Duration(0)
	if done > 0 {
		left = took * time.Duration(total-done) / time.Duration(done)
	}
	fmt.Fprintf(w, "\rsweep [%s%s] %d/%d points, %d failed, %s elapsed, ~%s left ",
		strings.Repeat("#", fill), strings.Repeat(".", width-fill), done, total, failed,
		took.Round(time.Second), left.Round(time.Second))
}

// runPoint runs grid point i and describes it as a record; any failure,
// even an internal one, becomes the record's exit status and error.
func runPoint(o *sweepOptions, file string, axes []axis, id string, n, i int) (rec sweepRecord) {
	pt := gridPoint(axes, i)
	rec = sweepRecord{Sweep: id, Index: i, Points: n, Params: map[string]string{}, File: file, Barriers: []report.BarrierSummary{}}
	for _, s := range pt {
		rec.Params[s.kind+":"+s.key] = s.value
	}
	fail := func(err error) {
		rec.Exit, rec.Error = exitCode(err), firstLine(err.Error())
	}
	defer func() {
		if r := recover(); r != nil {
			rec.Exit, rec.Error = exitInternal, fmt.Sprintf("internal error: %v", r)
		}
	}()
	j, err := pointJob(o.launchFlags, file, pt)
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
	rec.Barriers, rec.StallCycles = report.Summaries(rep, o.arrays)
	for _, b := range rec.Barriers {
		rec.Phases += b.Phases
	}
	rec.WarpInstructions = rep.Sim.WarpInstructions
	rec.HostSeconds = float64(out.Host.Microseconds()) / 1e6
	return rec
}
