package run

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// Limits on what smsim reads. Every input goes through OpenInput, so they
// hold for any path a user gives: a file that grows while it is read is cut
// off at the limit, and a device, FIFO or socket is refused (docs/cli.md).
const (
	MaxSourceBytes = 64 << 20  // a .ptx or .sms file
	MaxConfigBytes = 1 << 20   // a --config file
	MaxReportBytes = 256 << 20 // a JSON report read by stats and plot
	MaxFillBytes   = 1 << 30   // a buf:SIZE:file:PATH fill
)

// OpenInput opens path for reading and checks that it is a regular file of
// at most limit bytes. The file is opened non-blocking, so a FIFO without a
// writer is refused at once instead of stalling the open; a regular file
// reads as usual. what names the input in messages ("kernel file").
func OpenInput(path, what string, limit int64) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: %w", path, UnwrapPath(err))
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("%s: %w", path, UnwrapPath(err))
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s: is %s; a %s must be a regular file", path, fileKind(st.Mode()), what)
	}
	if st.Size() > limit {
		f.Close()
		return nil, 0, TooLarge(path, what, limit)
	}
	return f, st.Size(), nil
}

// ReadInput reads the regular file at path, refusing it past limit bytes
// (also when it grows past the limit while being read).
func ReadInput(path, what string, limit int64) ([]byte, error) {
	f, size, err := OpenInput(path, what, limit)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// Room for the whole file as stat gives its size, so that reading it
	// does not copy it as the buffer grows.
	var buf bytes.Buffer
	buf.Grow(int(size) + bytes.MinRead)
	if _, err := buf.ReadFrom(io.LimitReader(f, limit+1)); err != nil {
		return nil, fmt.Errorf("%s: %w", path, UnwrapPath(err))
	}
	if int64(buf.Len()) > limit {
		return nil, TooLarge(path, what, limit)
	}
	return buf.Bytes(), nil
}

// TooLarge is the error for a file past its limit.
func TooLarge(path, what string, limit int64) error {
	return fmt.Errorf("%s: larger than %s, the limit for a %s", path, limitSize(limit), what)
}

// limitSize writes a limit in the unit it was set in: "64 MiB", "1 GiB".
func limitSize(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// fileKind names a file type that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	}
	return "not a plain file"
}

// UnwrapPath drops an *os.PathError's operation and path, which the
// messages that carry the error name themselves.
func UnwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
