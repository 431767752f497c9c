package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/smsim/smsim/sweep"
)

// errLocked: another sweep holds the lock on a results file (lockFile).
var errLocked = errors.New("locked by another process")

// recordSink receives a sweep's records as their points finish.
type recordSink interface {
	put(r sweep.Record) error
	all() []sweep.Record // every record the sink holds, for --plot
}

// fileSink appends records to a results file, one write and one fsync
// each, so that an interruption loses at most the points still running.
type fileSink struct {
	f       *os.File
	format  string
	params  []string
	done    map[int]bool
	records []sweep.Record
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
	rf, err := sweep.ParseResults(path, format, data)
	if err != nil {
		s.close()
		return nil, err
	}
	for _, r := range rf.Records {
		if r.Sweep != id {
			s.close()
			return nil, &usageError{Msg: fmt.Sprintf("--out %s holds results of another sweep (id %s, this one is %s: a different file, flags or grid); use a new --out", path, r.Sweep, id)}
		}
		s.done[r.Index] = true
		s.records = append(s.records, r)
	}
	if format == "csv" && len(rf.Records) > 0 && strings.Join(rf.Params, ",") != strings.Join(params, ",") {
		s.close()
		return nil, &usageError{Msg: fmt.Sprintf("--out %s has parameter columns %v, this sweep %v; use a new --out", path, rf.Params, params)}
	}
	if size := int64(len(data)); size > rf.Good {
		fmt.Fprintf(stderr, "sweep: %s: dropping an incomplete last record (%d bytes) left by an interruption\n", path, size-rf.Good)
		if err := s.f.Truncate(rf.Good); err != nil {
			s.close()
			return nil, fileError("--out", path, "write", err)
		}
	}
	if _, err := s.f.Seek(rf.Good, io.SeekStart); err != nil {
		s.close()
		return nil, fileError("--out", path, "write", err)
	}
	if format == "csv" && rf.Good == 0 {
		h, err := sweep.CSVLine(sweep.CSVColumns(params))
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

func (s *fileSink) put(r sweep.Record) error {
	b, err := sweep.EncodeRecord(s.format, s.params, r)
	if err != nil {
		return err
	}
	s.records = append(s.records, r)
	return s.write(b)
}

func (s *fileSink) all() []sweep.Record { return s.records }
func (s *fileSink) close()              { _ = s.f.Close() }

// streamSink writes records to stdout (CSV with a header first).
type streamSink struct {
	w       io.Writer
	format  string
	params  []string
	started bool
	records []sweep.Record
}

func (s *streamSink) put(r sweep.Record) error {
	if !s.started && s.format == "csv" {
		h, _ := sweep.CSVLine(sweep.CSVColumns(s.params))
		if _, err := s.w.Write(h); err != nil {
			return err
		}
	}
	s.started = true
	s.records = append(s.records, r)
	b, err := sweep.EncodeRecord(s.format, s.params, r)
	if err != nil {
		return err
	}
	_, err = s.w.Write(b)
	return err
}

func (s *streamSink) all() []sweep.Record { return s.records }

// runPoints runs the grid's points in todo on o.jobs workers, handing each
// record to sink as it finishes, with a progress bar where o.progress is.
func runPoints(ctx context.Context, o *sweepOptions, g *sweep.Grid, todo []int, sink recordSink) (sweep.Stats, error) {
	start := time.Now()
	var progress func(done, failed int)
	if o.progress != nil {
		progress = func(done, failed int) { progressBar(o.progress, done, len(todo), failed, time.Since(start)) }
	}
	st, err := g.RunPoints(ctx, o.jobs, todo, sink.put, progress)
	if o.progress != nil && (len(todo) > 0 || st.Interrupted) {
		fmt.Fprintln(o.progress)
	}
	return st, err
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
