package run

import (
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/smsim/smsim/compiler"
	"github.com/smsim/smsim/isa"
)

// Source is a loaded input file and its kernels. A PTX file's kernels are
// lowered when first used, each on its own: one kernel smsim cannot run (an
// unsupported instruction) leaves the others runnable.
type Source struct {
	File    string
	Kernels []*Kernel
	mu      sync.Mutex // serialises lowering: the calibration suite shares a source between goroutines
}

// Kernel is one entry of a source file.
type Kernel struct {
	Name   string      // the linker name, as the file spells it (mangled for C++)
	CXX    CXXName     // the name demangled
	Params []isa.Param // the parameters, laid out without lowering
	// MaxNTID is the block-size bound the source declares (PTX .maxntid,
	// one to three dimensions); nil where it declares none.
	MaxNTID []int64
	lower   func() (*isa.Program, error) // lowers the kernel; nil when done from the start
	done    bool                         // lowered (prog or err is final)
	prog    *isa.Program
	err     error // why the kernel cannot run
}

// Title is the kernel's name as reports give it.
func (k *Kernel) Title() string { return k.CXX.Title }

// Load reads a kernel file with the frontend its extension names and reads
// its kernels' names and parameters; it lowers a PTX kernel only when it is
// used. The file must be a regular file of at most MaxSourceBytes; it may be
// gzipped (NAME.ptx.gz, NAME.sass.gz, or NAME.sass read as NAME.sass.gz where
// only that exists: readKernelFile).
func Load(path string) (*Source, error) {
	path, src, err := readKernelFile(path, "kernel file", MaxSourceBytes)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if len(src) > 4<<20 {
		// A large source's syntax tree and programs are all live until
		// compiled: collect more often than Go's default, which lets the
		// heap reach twice what is live (a 44 MB, 2-million-instruction
		// PTX module: 2.7 GB at the default, 2.4 GB at 50, for about 10 %
		// more time).
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	return LoadBytes(path, src)
}

// LoadBytes reads src, the contents of a kernel file at path (a file
// rewritten before it is read: a sweep's .sms constants), with the
// frontend path's extension names.
func LoadBytes(path string, src []byte) (*Source, error) {
	load, err := frontendFor(path)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	s, err := load(path, src)
	if err != nil {
		return nil, &InputError{Err: err}
	}
	if len(s.Kernels) == 0 {
		return nil, &InputError{Err: fmt.Errorf("%s: no kernel entry in the file", path)}
	}
	return s, nil
}

// ProgramSource is the source of one compiled kernel (a .sms file). The
// program takes the compiler model's passes that apply to .sms kernels
// (compiler.SMS).
func ProgramSource(file string, p *isa.Program) *Source {
	o := compiler.DefaultOptions()
	o.Input = compiler.SMS
	compiler.Compile(p, o)
	k := &Kernel{Name: p.Name, CXX: CXXName{Title: p.Title(), Short: p.Name}, Params: p.Params, done: true, prog: p}
	return &Source{File: file, Kernels: []*Kernel{k}}
}

// Program returns k's program, lowering it on first use; an error says why
// k cannot run (one located line, an input error).
func (s *Source) Program(k *Kernel) (*isa.Program, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !k.done {
		k.done = true
		k.prog, k.err = k.lower()
	}
	if k.err != nil {
		return nil, &InputError{Err: k.err}
	}
	return k.prog, nil
}

// nameProgram gives the program and its variables the names a CUDA
// programmer wrote (isa.Program.Display, isa.Symbol.Display).
func nameProgram(p *isa.Program, k *Kernel) {
	if k.CXX.Title != p.Name {
		p.Display = k.CXX.Title
	}
	for i := range p.Params {
		if k.CXX.Params != nil && i < len(k.CXX.Params) {
			p.Params[i].CType = k.CXX.Params[i]
		}
	}
	for i := range p.Symbols {
		y := &p.Symbols[i]
		if d := demangleVar(y.Name); d != y.Name {
			y.Display = d
		}
	}
}

// Kernel selects an entry and returns its program (see Find).
func (s *Source) Kernel(name string) (*isa.Program, error) {
	k, err := s.Find(name)
	if err != nil {
		return nil, err
	}
	return s.Program(k)
}

// Find selects an entry by name: with no name, the only kernel; else the
// first rule that matches one entry: the exact linker (mangled) name, the
// exact demangled name (the whole declaration, or the name without return
// type and parameters: k_ws<2>), a substring of one linker name, a
// substring of one demangled declaration. A rule that matches several
// entries is an error naming them.
func (s *Source) Find(name string) (*Kernel, error) {
	if name == "" {
		if len(s.Kernels) == 1 {
			return s.Kernels[0], nil
		}
		return nil, &UsageError{Msg: fmt.Sprintf("%s has %d kernels; pick one with --kernel (%s)", s.File, len(s.Kernels), titles(s.Kernels))}
	}
	for _, k := range s.Kernels {
		if k.Name == name {
			return k, nil
		}
	}
	rules := []func(*Kernel) bool{
		func(k *Kernel) bool { return k.CXX.Title == name || k.CXX.Short == name },
		func(k *Kernel) bool { return strings.Contains(k.Name, name) },
		func(k *Kernel) bool { return strings.Contains(k.CXX.Title, name) },
	}
	for _, match := range rules {
		var hits []*Kernel
		for _, k := range s.Kernels {
			if match(k) {
				hits = append(hits, k)
			}
		}
		switch {
		case len(hits) == 1:
			return hits[0], nil
		case len(hits) > 1:
			return nil, &UsageError{Msg: fmt.Sprintf("%q matches %d kernels in %s: %s", name, len(hits), s.File, titles(hits))}
		}
	}
	return nil, &UsageError{Msg: fmt.Sprintf("no kernel in %s matches %q (kernels: %s)", s.File, name, titles(s.Kernels))}
}

// titles lists kernels by their demangled names, with the linker name where
// it differs, sorted; "; " separates them, as the names hold commas.
func titles(ks []*Kernel) string {
	var ns []string
	for _, k := range ks {
		n := k.Title()
		if n != k.Name {
			n += " [" + k.Name + "]"
		}
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, "; ")
}
