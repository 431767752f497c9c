package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/frontend/sms"
	"github.com/smsim/smsim/isa"
)

// source is a loaded input file and its kernels. A PTX file's kernels are
// lowered when first used, each on its own: one kernel smsim cannot run (an
// unsupported instruction) leaves the others runnable.
type source struct {
	file    string
	kernels []*kernel
	unit    *ptx.Unit  // the parsed PTX module; nil for .sms
	mu      sync.Mutex // serialises lowering: validate shares a source between goroutines
}

// kernel is one entry of a source file.
type kernel struct {
	name   string                       // the linker name, as the file spells it (mangled for C++)
	cxx    cxxName                      // the name demangled
	fn     *ptx.Func                    // the PTX entry; nil for .sms
	params []isa.Param                  // the parameters, laid out without lowering
	lower  func() (*isa.Program, error) // lowers a kernel of another frontend (SASS); nil for PTX
	done   bool                         // lowered (prog or err is final)
	prog   *isa.Program
	err    error // why the kernel cannot run
}

// title is the kernel's name as reports give it.
func (k *kernel) title() string { return k.cxx.title }

// loadSource reads a .ptx or .sms file and reads its kernels' names and
// parameters; it lowers a PTX kernel only when it is used.
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
		p, err := sms.Compile(path, src)
		if err != nil {
			return nil, &inputError{err: err}
		}
		s = programSource(path, p)
	case ".ptx":
		if err := s.loadPTX(path, src); err != nil {
			return nil, &inputError{err: err}
		}
	case ".sass", ".cubin":
		if err := s.loadSASS(path, src); err != nil {
			return nil, &inputError{err: err}
		}
	default:
		return nil, &inputError{err: fmt.Errorf("%s: unknown input type %q (want .ptx, .sass, .cubin or .sms)", path, filepath.Ext(path))}
	}
	if len(s.kernels) == 0 {
		return nil, &inputError{err: fmt.Errorf("%s: no kernel entry in the file", path)}
	}
	return s, nil
}

// loadPTX parses a PTX module and names its kernels. A kernel whose
// parameters cannot be laid out cannot run; the others are unaffected.
func (s *source) loadPTX(path string, src []byte) error {
	u, err := ptx.Load(path, src)
	if err != nil {
		return err
	}
	s.unit = u
	for _, f := range u.Kernels() {
		k := &kernel{name: f.Name, cxx: demangleKernel(f.Name), fn: f}
		if k.params, _, k.err = ptx.Params(f); k.err != nil {
			k.done = true
		}
		if k.cxx.params != nil && len(k.cxx.params) != len(k.params) {
			k.cxx.params = nil // the signature does not describe these parameters
		}
		s.kernels = append(s.kernels, k)
	}
	return nil
}

// programSource is the source of one compiled kernel (a .sms file).
func programSource(file string, p *isa.Program) *source {
	k := &kernel{name: p.Name, cxx: cxxName{title: p.Title(), short: p.Name}, params: p.Params, done: true, prog: p}
	return &source{file: file, kernels: []*kernel{k}}
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// program returns k's program, lowering it on first use; an error says why
// k cannot run (one located line, an input error).
func (s *source) program(k *kernel) (*isa.Program, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !k.done && k.lower != nil {
		k.done = true
		if k.prog, k.err = k.lower(); k.err == nil {
			nameProgram(k.prog, k)
		}
	}
	if !k.done {
		k.done = true
		p, err := s.unit.Lower(k.fn)
		if err != nil {
			k.err = err
		} else {
			applyPTXPasses(p)
			nameProgram(p, k)
			k.prog = p
		}
	}
	if k.err != nil {
		return nil, &inputError{err: k.err}
	}
	return k.prog, nil
}

// nameProgram gives the program and its variables the names a CUDA
// programmer wrote (isa.Program.Display, isa.Symbol.Display).
func nameProgram(p *isa.Program, k *kernel) {
	if k.cxx.title != p.Name {
		p.Display = k.cxx.title
	}
	for i := range p.Params {
		if k.cxx.params != nil && i < len(k.cxx.params) {
			p.Params[i].CType = k.cxx.params[i]
		}
	}
	for i := range p.Symbols {
		y := &p.Symbols[i]
		if d := demangleVar(y.Name); d != y.Name {
			y.Display = d
		}
	}
}

// kernel selects an entry and returns its program (see find).
func (s *source) kernel(name string) (*isa.Program, error) {
	k, err := s.find(name)
	if err != nil {
		return nil, err
	}
	return s.program(k)
}

// find selects an entry by name: with no name, the only kernel; else the
// first rule that matches one entry: the exact linker (mangled) name, the
// exact demangled name (the whole declaration, or the name without return
// type and parameters: k_ws<2>), a substring of one linker name, a
// substring of one demangled declaration. A rule that matches several
// entries is an error naming them.
func (s *source) find(name string) (*kernel, error) {
	if name == "" {
		if len(s.kernels) == 1 {
			return s.kernels[0], nil
		}
		return nil, &usageError{msg: fmt.Sprintf("%s has %d kernels; pick one with --kernel (%s)", s.file, len(s.kernels), titles(s.kernels))}
	}
	for _, k := range s.kernels {
		if k.name == name {
			return k, nil
		}
	}
	rules := []func(*kernel) bool{
		func(k *kernel) bool { return k.cxx.title == name || k.cxx.short == name },
		func(k *kernel) bool { return strings.Contains(k.name, name) },
		func(k *kernel) bool { return strings.Contains(k.cxx.title, name) },
	}
	for _, match := range rules {
		var hits []*kernel
		for _, k := range s.kernels {
			if match(k) {
				hits = append(hits, k)
			}
		}
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			return nil, &usageError{msg: fmt.Sprintf("%q matches %d kernels in %s: %s", name, len(hits), s.file, titles(hits))}
		}
	}
	return nil, &usageError{msg: fmt.Sprintf("no kernel in %s matches %q (kernels: %s)", s.file, name, titles(s.kernels))}
}

// titles lists kernels by their demangled names, with the linker name where
// it differs, sorted; "; " separates them, as the names hold commas.
func titles(ks []*kernel) string {
	var ns []string
	for _, k := range ks {
		n := k.title()
		if n != k.name {
			n += " [" + k.name + "]"
		}
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, "; ")
}
