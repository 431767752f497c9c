package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/smsim/smsim/run"
)

// fileError is the input error (exit 3) for a file smsim cannot read or
// write: it names the flag that gave the path (none for an argument), the
// path, and what failed.
func fileError(flag, path, verb string, err error) error {
	what := path
	if flag != "" {
		what = flag + " " + path
	}
	return &inputError{Err: fmt.Errorf("%s: cannot %s: %w", what, verb, run.UnwrapPath(err))}
}

// recordingWriter passes writes to w and keeps the first error, so that a
// write that fails (a full disk, a closed pipe) is seen even where the
// writing code does not check each write, as the report tables do not.
type recordingWriter struct {
	w   io.Writer
	err error
}

func (r *recordingWriter) Write(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	n, err := r.w.Write(p)
	if err != nil {
		r.err = err
	}
	return n, err
}

// stdoutError turns a failed write to stdout into the input error naming
// stdout, unless the command already failed for a reason of its own.
func stdoutError(out *recordingWriter, err error) error {
	if out.err == nil || (err != nil && exitCode(err) != exitInternal) {
		return err
	}
	return &inputError{Err: fmt.Errorf("stdout: cannot write: %w", run.UnwrapPath(out.err))}
}

// checkOutput refuses, before a run spends its time, an output path whose
// folder does not exist or that is a folder itself. Other failures (no
// permission, a full disk) show when the file is written.
func checkOutput(flag, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fileError(flag, path, "write", errors.New("is a folder"))
	}
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fileError(flag, path, "write", fmt.Errorf("folder %s: %w", dir, run.UnwrapPath(err)))
	}
	if !st.IsDir() {
		return fileError(flag, path, "write", fmt.Errorf("%s is not a folder", dir))
	}
	return nil
}

// writeOutput creates path and fills it with write. A failure to create,
// write or close the file is a fileError naming flag and path; an error of
// write's own is returned as it is.
func writeOutput(flag, path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return fileError(flag, path, "write", err)
	}
	rw := &recordingWriter{w: f}
	bw := bufio.NewWriter(rw)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	cerr := f.Close()
	switch {
	case rw.err != nil:
		return fileError(flag, path, "write", rw.err)
	case err != nil:
		return err
	case cerr != nil:
		return fileError(flag, path, "write", cerr)
	}
	return nil
}
