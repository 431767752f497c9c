package sweep

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"

	"github.com/smsim/smsim/run"
)

// ID identifies a sweep by what decides its results: the file's name and
// contents, the launch spec and the grid. Records carry it, so that a
// results file, its shards and a resumed sweep can be checked to be one
// sweep's.
func ID(file string, f run.Spec, axes []Axis) (string, error) {
	data, err := run.ReadInput(file, "kernel file", run.MaxSourceBytes)
	if err != nil {
		return "", &run.InputError{Err: err}
	}
	h := sha256.New()
	fmt.Fprintf(h, "smsim sweep 1\x00%s\x00%d\x00", filepath.Base(file), len(data))
	h.Write(data)
	fmt.Fprintf(h, "\x00%q %q %q %q %q %d %q %q %d %v\x00", f.Kernel, f.Block, f.Grid, f.Smem, f.Args,
		f.Launches, f.Config, f.Sets, f.MaxCycles, f.Lenient)
	for _, a := range axes {
		fmt.Fprintf(h, "%s=%q\x00", a.Name(), a.Values)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}
