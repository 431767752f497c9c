package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/traces"
)

// source is a loaded input file and its kernels.
type source struct {
	file  string
	progs []*isa.Program
}

// loadSource reads and compiles a .ptx or .sms file.
func loadSource(path string) (*source, error) {
	src, err := readInput(path, "kernel file", maxSourceBytes)
	if err != nil {
		return nil, &inputError{err: err}
	}
	if len(src) > 4<<20 {
		// A large source's syntax tree and programs are all live until
		// compiled: collect more often than Go's default, which lets the
		// heap reach twice what is live (a 44 MB, 2-million-instruction
		// PTX module: 2.7 GB at the default, 2.4 GB at 50, for about 10 %
		// more time).
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	s := &source{file: path}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".sms":
		p, err := traces.Compile(path, src)
		if err != nil {
			return nil, &inputError{err: err}
		}
		s.progs = []*isa.Program{p}
	case ".ptx":
		ps, err := compilePTX(path, src)
		if err != nil {
			return nil, &inputError{err: err}
		}
		s.progs = ps
	default:
		return nil, &inputError{err: fmt.Errorf("%s: unknown input type %q (want .ptx or .sms)", path, filepath.Ext(path))}
	}
	if len(s.progs) == 0 {
		return nil, &inputError{err: fmt.Errorf("%s: no kernel entry in the file", path)}
	}
	return s, nil
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// kernel selects an entry: the exact name, else the one whose name contains
// name; with no name, the only kernel.
func (s *source) kernel(name string) (*isa.Program, error) {
	if name == "" {
		if len(s.progs) == 1 {
			return s.progs[0], nil
		}
		return nil, &usageError{msg: fmt.Sprintf("%s has %d kernels; pick one with --kernel (%s)", s.file, len(s.progs), s.names())}
	}
	var hits []*isa.Program
	for _, p := range s.progs {
		if p.Name == name {
			return p, nil
		}
		if strings.Contains(p.Name, name) {
			hits = append(hits, p)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return nil, &usageError{msg: fmt.Sprintf("no kernel in %s matches %q (kernels: %s)", s.file, name, s.names())}
	}
	var ns []string
	for _, p := range hits {
		ns = append(ns, p.Name)
	}
	return nil, &usageError{msg: fmt.Sprintf("%q matches %d kernels in %s: %s", name, len(hits), s.file, strings.Join(ns, ", "))}
}

func (s *source) names() string {
	var ns []string
	for _, p := range s.progs {
		ns = append(ns, p.Name)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}
