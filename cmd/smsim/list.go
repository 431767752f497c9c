package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/run"
)

// Placeholders of the run line `smsim list` prints: values that launch, for
// the user to edit.
const (
	smemPlaceholder  = "48KiB"
	blockPlaceholder = "32" // run's own default
	maxListedShared  = 16   // shared variables named per kernel
)

func newListCmd(stdout io.Writer) *cobra.Command {
	var disasm bool
	var name string
	cmd := &cobra.Command{
		Use:   "list FILE",
		Short: "List the kernels of a .ptx, .sass or .sms file, their parameters and a command line to run each",
		Long: `list prints each kernel of FILE by its C++ name (demangled) with its mangled name, its parameters
(index, C++ type where the mangled name gives it, PTX type, size, offset, PTX name), its size and shared
variables, and a ready-to-edit 'smsim run' line: the block from .reqntid or .maxntid when the PTX declares
one, --smem when the kernel uses dynamic shared memory, and one --arg placeholder per parameter (buf:4096
for a pointer, 0 for a scalar, a tensormap: spec for a CUtensorMap). A kernel smsim cannot run is listed
with the reason, and the others still run.
With --disasm it also prints the instructions smsim runs, after its ptxas-like rewrites (if-conversion of
short branches, clock reads moved into stalls, loop-invariant divisors), one per line with the timing class
and the source position.`,
		Example:           "  smsim list kernels.ptx\n  smsim list kernels.ptx --disasm -k k_arrive_wait",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeFiles(run.Extensions()...),
		RunE: func(_ *cobra.Command, args []string) error {
			return runList(stdout, args[0], name, disasm)
		},
	}
	cmd.Flags().BoolVar(&disasm, "disasm", false, "also print the instructions smsim runs, with their timing classes")
	cmd.Flags().StringVarP(&name, "kernel", "k", "", "only this kernel: mangled or demangled name, or a substring of one matching one entry")
	_ = cmd.RegisterFlagCompletionFunc("kernel", completeKernel)
	return cmd
}

// runList prints the kernels of file (or the one name selects).
func runList(w io.Writer, file, name string, disasm bool) error {
	src, err := run.Load(file)
	if err != nil {
		return err
	}
	ks := src.Kernels
	if name != "" {
		k, err := src.Find(name)
		if err != nil {
			return err
		}
		ks = []*run.Kernel{k}
	}
	for _, k := range ks {
		p, err := src.Program(k)
		if err := listKernel(w, src, k, p, err); err != nil {
			return err
		}
		if disasm && p != nil {
			if err := p.Disasm(w); err != nil {
				return err
			}
		}
	}
	return nil
}

// listKernel prints one kernel: names, parameters, and either its size, its
// shared variables and a run line, or why it cannot run (lowerErr).
func listKernel(w io.Writer, src *run.Source, k *run.Kernel, p *isa.Program, lowerErr error) error {
	var b strings.Builder
	b.WriteString(k.Title() + "\n")
	if k.Title() != k.Name {
		fmt.Fprintf(&b, "  mangled %s\n", k.Name)
	}
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	for i, q := range k.Params {
		name := q.Name
		if q.Default != "" {
			name += "  (default " + q.Default + ")"
		}
		fmt.Fprintf(tw, "  %d\t%s\t%d bytes at +%d\t%s\n", i, k.ParamType(i), q.Size, q.Offset, name)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if lowerErr != nil {
		fmt.Fprintf(&b, "  cannot run: %v\n", lowerErr)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "  %d instructions, %d B static shared, %d B local per thread\n", len(p.Instrs), p.SharedStatic, p.LocalBytes)
	if s := sharedVars(p); s != "" {
		fmt.Fprintf(&b, "  shared %s\n", s)
	}
	if s := moduleVars(p); s != "" {
		fmt.Fprintf(&b, "  variables %s (--symbol NAME=FILL sets one)\n", s)
	}
	if line, why := runLine(src, k, p); line != "" {
		fmt.Fprintf(&b, "  run: %s\n", line)
	} else {
		fmt.Fprintf(&b, "  run: no command line can launch it: %s\n", why)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// moduleVars names the file's module-scope variables a launch can fill
// (--symbol): __constant__ (.const, or a SASS constant bank's object) and
// __device__ (.global), with their sizes.
func moduleVars(p *isa.Program) string {
	var parts []string
	n := 0
	for _, y := range p.Symbols {
		if y.Space != isa.Const && y.Space != isa.Global {
			continue
		}
		if n++; n > maxListedShared {
			continue
		}
		where := "__device__"
		if y.Space == isa.Const {
			where = "__constant__"
		}
		parts = append(parts, fmt.Sprintf("%s (%s, %d B)", y.Title(), where, y.Size))
	}
	if n > maxListedShared {
		parts = append(parts, fmt.Sprintf("and %d more", n-maxListedShared))
	}
	return strings.Join(parts, ", ")
}

// sharedVars names the kernel's shared variables by their source names,
// with their sizes and offsets: an array with an element size as
// NAME[COUNT], the dynamic (extern) region as dynamic.
func sharedVars(p *isa.Program) string {
	var parts []string
	n := 0
	for _, y := range p.Symbols {
		if y.Space != isa.Shared {
			continue
		}
		if n++; n > maxListedShared {
			continue
		}
		switch {
		case run.DynamicShared(p, y):
			parts = append(parts, fmt.Sprintf("%s (dynamic, at +%d)", y.Title(), y.Offset))
		case y.Elem > 0:
			parts = append(parts, fmt.Sprintf("%s[%d] (%d B at +%d)", y.Title(), y.Size/y.Elem, y.Size, y.Offset))
		default:
			parts = append(parts, fmt.Sprintf("%s (%d B at +%d)", y.Title(), y.Size, y.Offset))
		}
	}
	if n > maxListedShared {
		parts = append(parts, fmt.Sprintf("and %d more", n-maxListedShared))
	}
	return strings.Join(parts, ", ")
}

// runLine is a `smsim run` command line that launches kernel k: -k when the
// file has several kernels (the short demangled name when it selects k,
// else the mangled name), the block the PTX declares (.reqntid, .maxntid)
// or run's default, a grid of one cluster when the kernel fixes its cluster
// (.reqnctapercluster) or --cluster 1 when it must have one
// (.explicitcluster), --smem when k uses dynamic shared memory the source
// does not size, and one --arg placeholder per parameter without a default. It
// returns "" and the reason when a parameter has no command-line spelling.
func runLine(src *run.Source, k *run.Kernel, p *isa.Program) (string, string) {
	parts := []string{"smsim", "run", shellQuote(src.File)}
	if len(src.Kernels) > 1 {
		parts = append(parts, "-k", shellQuote(src.Selector(k)))
	}
	parts = append(parts, "-b", blockHint(k.Block(p)))
	switch {
	case p.Cluster != [3]int{}:
		parts = append(parts, "-g", blockHint(p.Cluster))
	case p.ExplicitCluster:
		parts = append(parts, "--cluster", "1")
	}
	if p.DynSmem == 0 {
		for _, y := range p.Symbols {
			if run.DynamicShared(p, y) {
				parts = append(parts, "--smem", smemPlaceholder)
				break
			}
		}
	}
	for i, q := range k.Params {
		if q.Default != "" {
			continue
		}
		v, ok := k.Placeholder(i)
		if !ok {
			return "", fmt.Sprintf("parameter %d, a %d-byte %s, has no --arg spelling (--arg gives scalars, buf: pointers and tensormap: maps)", i, q.Size, k.ParamType(i))
		}
		parts = append(parts, "--arg", v)
	}
	return strings.Join(parts, " "), ""
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// characters a shell passes through as they are.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=.,:/@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// blockHint is the -b value: the block the kernel declares (run.Kernel.Block)
// in as many dimensions as it has, else run's default.
func blockHint(d [3]int) string {
	if d[0] <= 0 {
		return blockPlaceholder
	}
	n := 1
	switch {
	case d[2] > 1:
		n = 3
	case d[1] > 1:
		n = 2
	}
	s := make([]string, n)
	for i := range s {
		s[i] = strconv.Itoa(max(d[i], 1))
	}
	return strings.Join(s, ",")
}
