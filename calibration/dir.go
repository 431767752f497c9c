package calibration

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/smsim/smsim/run"
)

// DefaultDirFlag is the default of the --dir flags, as help shows it: the
// repository's calibration folder, relative to its root.
var DefaultDirFlag = filepath.Join("calibration", "h200")

// ResolveDir is the folder a --dir value names: itself, except that the
// default, when the working directory is not the repository's root, is
// DefaultDir's.
func ResolveDir(dir string) string {
	if dir == DefaultDirFlag {
		return DefaultDir()
	}
	return dir
}

// DefaultDir is the repository's calibration folder: calibration/h200 of
// the working directory (smsim run from the repository's root), else, when
// that does not exist, the h200 folder beside this package's source, so
// that go run and go test find the data from any directory of the
// repository.
func DefaultDir() string {
	rel := DefaultDirFlag
	if st, err := os.Stat(rel); err == nil && st.IsDir() {
		return rel
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		if dir := filepath.Join(filepath.Dir(file), "h200"); hasFile(dir, requiredFiles()[0]) {
			return dir
		}
	}
	return rel
}

// requiredFiles are the files without which the calibration targets cannot
// be judged: the microbenchmark suite and the probe rows, with the PTX they
// come from.
func requiredFiles() []string {
	return []string{"microbench.csv", "microbench.ptx", "probe.csv", "hwprobe.ptx"}
}

// CheckDir refuses a folder that does not exist or lacks the files the
// targets are judged on, naming the first one missing.
func CheckDir(dir string) error {
	st, err := os.Stat(dir)
	if err != nil {
		return &run.InputError{Err: fmt.Errorf("calibration folder %s: %w (give the folder of the calibration CSVs and PTX with --dir)", dir, errors.Unwrap(err))}
	}
	if !st.IsDir() {
		return &run.InputError{Err: fmt.Errorf("calibration folder %s: not a directory", dir)}
	}
	for _, name := range requiredFiles() {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			return &run.InputError{Err: fmt.Errorf("calibration folder %s: %s is missing", dir, name)}
		}
	}
	return nil
}

// hasFile reports whether the calibration folder holds name.
func hasFile(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
