package run

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/frontend/sms"
	"github.com/smsim/smsim/isa"
)

// loader reads a kernel file's contents into a Source: its kernels' names
// and parameters, each kernel lowered when it is first used (or at once).
type loader func(path string, src []byte) (*Source, error)

// frontends maps a file extension (lower case, with its dot) to the
// frontend that reads it. A new frontend is one entry here: loading, the
// command line's completion and its messages follow.
func frontends() map[string]loader {
	return map[string]loader{
		".ptx":   loadPTX,
		".sms":   loadSMS,
		".sass":  loadSASS,
		".cubin": loadCubin,
	}
}

// Extensions lists the extensions of the files the frontends read, without
// their dots, sorted: "ptx", "sms".
func Extensions() []string {
	var out []string
	for ext := range frontends() {
		out = append(out, strings.TrimPrefix(ext, "."))
	}
	sort.Strings(out)
	return out
}

// frontendFor returns the loader of path's extension, or an error naming
// the extensions there are.
func frontendFor(path string) (loader, error) {
	if l, ok := frontends()[strings.ToLower(filepath.Ext(path))]; ok {
		return l, nil
	}
	exts := Extensions()
	for i := range exts {
		exts[i] = "." + exts[i]
	}
	want := exts[len(exts)-1]
	if len(exts) > 1 {
		want = strings.Join(exts[:len(exts)-1], ", ") + " or " + want
	}
	return nil, fmt.Errorf("%s: unknown input type %q (want %s)", path, filepath.Ext(path), want)
}

// loadSMS compiles a .sms file: one kernel, compiled at once.
func loadSMS(path string, src []byte) (*Source, error) {
	p, err := sms.Compile(path, src)
	if err != nil {
		return nil, err
	}
	return ProgramSource(path, p), nil
}

// loadPTX parses a PTX module and names its kernels, each lowered (and
// given the compiler model's passes) when it is first used. A kernel whose
// parameters cannot be laid out cannot run; the others are unaffected.
func loadPTX(path string, src []byte) (*Source, error) {
	u, err := ptx.Load(path, src)
	if err != nil {
		return nil, err
	}
	s := &Source{File: path}
	rep := ptxasReportBeside(path)
	for _, f := range u.Kernels() {
		k := &Kernel{Name: f.Name, CXX: demangleKernel(f.Name)}
		if a := f.Attr("maxntid"); a != nil && len(a.Args) > 0 && len(a.Args) <= 3 {
			k.MaxNTID = append([]int64(nil), a.Args...)
		}
		if k.Params, _, k.err = ptx.Params(f); k.err != nil {
			k.done = true
		}
		if k.CXX.Params != nil && len(k.CXX.Params) != len(k.Params) {
			k.CXX.Params = nil // the signature does not describe these parameters
		}
		k.lower = func() (*isa.Program, error) {
			p, err := u.Lower(f)
			if err != nil {
				return nil, err
			}
			p.WgmmaSerialized = rep.serialized[f.Name]
			applyPTXPasses(p)
			p.RegsPerThread = rep.regs[f.Name]
			nameProgram(p, k)
			return p, nil
		}
		s.Kernels = append(s.Kernels, k)
	}
	return s, nil
}
