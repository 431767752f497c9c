package main

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
// when there is one (NAME.cubin next to NAME.sass), or a cubin and the
// listing beside it: the listing is what runs, the cubin gives parameters,
// resources and constant banks. Kernels are lowered when first used.
func (s *source) loadSASS(path string, src []byte) error {
	listing, cubin := src, []byte(nil)
	base := strings.TrimSuffix(path, filepath.Ext(path))
	if strings.EqualFold(filepath.Ext(path), ".cubin") {
		b, err := readInput(base+".sass", "SASS listing", maxSourceBytes)
		if err != nil {
			return fmt.Errorf("%s: smsim runs a cubin through its listing: put `cuobjdump -sass %s` in %s.sass (%v)",
				path, filepath.Base(path), filepath.Base(base), unwrapPath(err))
		}
		listing, cubin, path = b, src, base+".sass"
	} else if b, err := os.ReadFile(base + ".cubin"); err == nil {
		cubin = b
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("%s.cubin: %v", base, unwrapPath(err))
	}
	m, err := sass.Load(path, listing, cubin)
	if err != nil {
		return err
	}
	for _, fn := range m.Kernels() {
		k := &kernel{name: fn.Name, cxx: demangleKernel(fn.Name)}
		fn := fn
		k.lower = func() (*isa.Program, error) { return m.Lower(fn) }
		if k.params, _, k.err = m.Params(fn); k.err != nil {
			k.done = true
		}
		if k.cxx.params != nil && len(k.cxx.params) != len(k.params) {
			k.cxx.params = nil
		}
		s.kernels = append(s.kernels, k)
	}
	return nil
}
