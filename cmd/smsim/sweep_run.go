package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

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

// openResults opens (or creates) a results file for appending. Records
// already there must belong to sweep id; their indices are returned in
// done. An incomplete last line, left by an interruption, is cut off.
func openResults(path, format string, params []string, id string, stderr io.Writer) (*fileSink, error) {
	rf, err := readResults(path, format)
	if err != nil {
		return nil, err
	}
	s := &fileSink{format: format, params: params, done: map[int]bool{}}
	for _, r := range rf.records {
		if r.Sweep != id {
			return nil, &usageError{msg: fmt.Sprintf("--out %s holds results of another sweep (id %s, this one is %s: a different file, flags or grid); use a new --out", path, r.Sweep, id)}
		}
		s.done[r.Index] = true
		s.records = append(s.records, r)
	}
	if format == "csv" && len(rf.records) > 0 && strings.Join(rf.params, ",") != strings.Join(params, ",") {
		return nil, &usageError{msg: fmt.Sprintf("--out %s has parameter columns %v, this sweep %v; use a new --out", path, rf.params, params)}
	}
	s.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, &inputError{err: err}
	}
	st, err := s.f.Stat()
	if err != nil {
		s.close()
		return nil, &inputError{err: err}
	}
	if st.Size() > rf.good {
		fmt.Fprintf(stderr, "sweep: %s: dropping an incomplete last record (%d bytes) left by an interruption\n", path, st.Size()-rf.good)
		if err := s.f.Truncate(rf.good); err != nil {
			s.close()
			return nil, &inputError{err: err}
		}
	}
	if _, err := s.f.Seek(0, io.SeekEnd); err != nil {
		s.close()
		return nil, &inputError{err: err}
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
		return &inputError{err: err}
	}
	if err := s.f.Sync(); err != nil {
		return &inputError{err: err}
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
	failed  int
	seconds float64
}

// runPoints runs the points in todo on o.jobs workers and hands each
// record to sink in the order they finish.
func runPoints(o *sweepOptions, file string, axes []axis, id string, todo []int, sink recordSink) (sweepStats, error) {
	start := time.Now()
	n := gridSize(axes)
	work := make(chan int)
	results := make(chan sweepRecord)
	for w := 0; w < min(max(o.jobs, 1), max(len(todo), 1)); w++ {
		go func() {
			for i := range work {
				results <- runPoint(o, file, axes, id, n, i)
			}
		}()
	}
	go func() {
		for _, i := range todo {
			work <- i
		}
		close(work)
	}()
	var st sweepStats
	var firstErr error
	for k := range todo {
		r := <-results
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
	if o.progress != nil && len(todo) > 0 {
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
	rec = sweepRecord{Sweep: id, Index: i, Points: n, Params: map[string]string{}, File: file, Barriers: []barrierSummary{}}
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
	rec.Kernel, rec.KernelMangled = j.prog.Title(), j.prog.Name
	out, err := execute(j)
	if err != nil {
		fail(err)
		return rec
	}
	if out.runErr != nil {
		fail(out.runErr)
	}
	rep := buildReport(j, out)
	rec.Cycles = rep.Cycles
	rec.Barriers, rec.StallCycles = summaries(rep, o.arrays)
	for _, b := range rec.Barriers {
		rec.Phases += b.Phases
	}
	rec.WarpInstructions = rep.Sim.WarpInstructions
	rec.HostSeconds = float64(out.host.Microseconds()) / 1e6
	return rec
}
