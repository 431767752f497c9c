package run

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smsim/smsim/frontend/sass"
	"github.com/smsim/smsim/isa"
)

// loadSASS reads a SASS listing (cuobjdump -sass) and the cubin beside it
// when there is one (NAME.cubin next to NAME.sass). The listing is what
// runs; the cubin gives parameters, resources and constant banks. Kernels
// are lowered when first used.
func loadSASS(path string, src []byte) (*Source, error) {
	var cubin []byte
	base := strings.TrimSuffix(path, filepath.Ext(path))
	if b, err := ReadInput(base+".cubin", "cubin", MaxSourceBytes); err == nil {
		cubin = b
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	return sassSource(path, src, cubin)
}

// loadCubin reads a cubin and runs it through the listing beside it
// (NAME.sass, or NAME.sass.gz): smsim does not decode instruction words
// itself.
func loadCubin(path string, src []byte) (*Source, error) {
	base := strings.TrimSuffix(path, filepath.Ext(path))
	name, listing, err := readKernelFile(base+".sass", "SASS listing", MaxSourceBytes)
	if err != nil {
		return nil, fmt.Errorf("%s: smsim runs a cubin through its listing: put `cuobjdump -sass %s` in %s.sass (%v)",
			path, filepath.Base(path), filepath.Base(base), UnwrapPath(err))
	}
	return sassSource(name, listing, src)
}

// sassSource loads a listing with its cubin (nil without one). Without the
// cubin every instruction must carry its encoding, whose control bits time
// the run: sass.Load refuses a listing without them, naming the cubin to put
// beside it (NAME.cubin, where loadSASS looks).
func sassSource(path string, listing, cubin []byte) (*Source, error) {
	m, err := sass.Load(path, listing, cubin)
	if err != nil {
		return nil, err
	}
	return moduleSource(path, m), nil
}

// moduleSource names a loaded module's kernels, each lowered when first
// used.
func moduleSource(path string, m *sass.Module) *Source {
	s := &Source{File: path}
	for _, fn := range m.Kernels() {
		k := &Kernel{Name: fn.Name, CXX: demangleKernel(fn.Name)}
		if k.Params, _, k.err = m.Params(fn); k.err != nil {
			k.done = true
		}
		if k.CXX.Params != nil && len(k.CXX.Params) != len(k.Params) {
			k.CXX.Params = nil // the signature does not describe these parameters
		}
		k.lower = func() (*isa.Program, error) {
			p, err := m.Lower(fn)
			if err != nil {
				return nil, err
			}
			sass.CompactRegisters(p)
			nameProgram(p, k)
			return p, nil
		}
		s.Kernels = append(s.Kernels, k)
	}
	return s
}
