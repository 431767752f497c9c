package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/sm"
	"github.com/spf13/cobra"
)

// builtinConfigs lists the named machine configurations.
func builtinConfigs() map[string]func() sm.Config {
	return map[string]func() sm.Config{"h200": sm.DefaultConfig}
}

// loadConfig returns a built-in configuration or one read from a file of
// "key = value" lines (as 'smsim config show' writes), with --set overrides.
func loadConfig(name string, sets []string) (sm.Config, error) {
	var cfg sm.Config
	if mk, ok := builtinConfigs()[name]; ok {
		cfg = mk()
	} else {
		if _, err := os.Stat(name); err != nil {
			return cfg, &usageError{msg: fmt.Sprintf("--config %q: not a built-in configuration (%s) or a readable file", name, configNames())}
		}
		data, err := readInput(name, "--config file", maxConfigBytes)
		if err != nil {
			return cfg, &inputError{err: err}
		}
		cfg, err = readConfigFile(name, bytes.NewReader(data))
		if err != nil {
			return cfg, &inputError{err: err}
		}
	}
	for _, s := range sets {
		k, v, ok := strings.Cut(s, "=")
		if !ok {
			return cfg, &usageError{msg: fmt.Sprintf("--set %q: want KEY=VALUE", s)}
		}
		if err := cfg.Set(strings.TrimSpace(k), strings.TrimSpace(v)); err != nil {
			return cfg, &usageError{msg: err.Error()}
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, &usageError{msg: err.Error()}
	}
	return cfg, nil
}

func configNames() string {
	var ns []string
	for n := range builtinConfigs() {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// readConfigFile parses "key = value" lines; "#" starts a comment. A "base"
// key names the built-in configuration the file modifies (default h200).
func readConfigFile(name string, r io.Reader) (sm.Config, error) {
	cfg := sm.DefaultConfig()
	cfg.Name = name
	sc := bufio.NewScanner(r)
	line := 0
	for sc.Scan() {
		line++
		text, _, _ := strings.Cut(sc.Text(), "#")
		text = strings.TrimSpace(text)
		if text == "" {
			continue
		}
		k, v, ok := strings.Cut(text, "=")
		if !ok {
			return cfg, fmt.Errorf("%s:%d:1: want key = value", name, line)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if k == "name" {
			cfg.Name = v
			continue
		}
		if err := cfg.Set(k, v); err != nil {
			return cfg, fmt.Errorf("%s:%d:1: %v", name, line, err)
		}
	}
	return cfg, sc.Err()
}

func configCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var ns []string
	for n := range builtinConfigs() {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns, cobra.ShellCompDirectiveDefault
}

func newConfigCmd(stdout io.Writer) *cobra.Command {
	c := &cobra.Command{Use: "config", Short: "List and print machine configurations"}
	c.AddCommand(&cobra.Command{
		Use:   "list",
		Short: "List the built-in configurations",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, n := range strings.Split(configNames(), ", ") {
				cfg := builtinConfigs()[n]()
				fmt.Fprintf(stdout, "%s\t%d keys, SM clock %g MHz (default)\n", n, len(cfg.Params()), cfg.ClockMHz)
			}
			return nil
		},
	})
	var sets []string
	var markdown bool
	show := &cobra.Command{
		Use:   "show [NAME|FILE]",
		Short: "Print every key of a configuration as 'key = value  # unit: meaning' (a loadable file)",
		Args:  cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			name := "h200"
			if len(args) == 1 {
				name = args[0]
			}
			cfg, err := loadConfig(name, sets)
			if err != nil {
				return err
			}
			if markdown {
				fmt.Fprintln(stdout, "| key | value | unit | meaning | source |")
				fmt.Fprintln(stdout, "| --- | ---: | --- | --- | --- |")
				for _, p := range cfg.Params() {
					fmt.Fprintf(stdout, "| `%s` | %s | %s | %s | %s |\n", p.Key, p.Value(), p.Unit, p.Doc, sm.Source(p.Key))
				}
				return nil
			}
			fmt.Fprintf(stdout, "# smsim machine configuration; load with --config FILE, override with --set KEY=VALUE\nname = %s\n", cfg.Name)
			for _, p := range cfg.Params() {
				fmt.Fprintf(stdout, "%-28s = %-10s # %s: %s\n", p.Key, p.Value(), p.Unit, p.Doc)
			}
			return nil
		},
		ValidArgsFunction: configCompletion,
	}
	show.Flags().StringArrayVar(&sets, "set", nil, "override a key before printing: KEY=VALUE")
	show.Flags().BoolVar(&markdown, "markdown", false, "print a Markdown table with each key's source (as docs/model.md has it)")
	c.AddCommand(show)
	return c
}

func newListCmd(stdout io.Writer) *cobra.Command {
	var disasm bool
	var kernel string
	cmd := &cobra.Command{
		Use:   "list FILE",
		Short: "List the kernels of a .ptx or .sms file and their parameters",
		Long: `list prints each kernel of FILE with its parameters (index, name, type, size, offset) and its size.
With --disasm it also prints the instructions smsim runs, after its ptxas-like rewrites (if-conversion of
short branches, clock reads moved into stalls, loop-invariant divisors), one per line with the timing class
and the source position.`,
		Example: "  smsim list kernels.ptx\n  smsim list kernels.ptx --disasm -k k_arrive_wait",
		Args:    cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			src, err := loadSource(args[0])
			if err != nil {
				return err
			}
			progs := src.progs
			if kernel != "" {
				p, err := src.kernel(kernel)
				if err != nil {
					return err
				}
				progs = []*isa.Program{p}
			}
			for _, p := range progs {
				fmt.Fprintf(stdout, "%s\n", p.Name)
				for i, q := range p.Params {
					def := ""
					if q.Default != "" {
						def = "  (default " + q.Default + ")"
					}
					fmt.Fprintf(stdout, "  %d  %-40s %-8s %d bytes at +%d%s\n", i, q.Name, paramType(q), q.Size, q.Offset, def)
				}
				fmt.Fprintf(stdout, "  %d instructions, %d B static shared, %d B local per thread\n",
					len(p.Instrs), p.SharedStatic, p.LocalBytes)
				if disasm {
					if err := p.Disasm(stdout); err != nil {
						return err
					}
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&disasm, "disasm", false, "also print the instructions smsim runs, with their timing classes")
	cmd.Flags().StringVarP(&kernel, "kernel", "k", "", "only this kernel: exact mangled name, or a substring matching one entry")
	return cmd
}

// extraCommands are the analysis commands (compare, sweep, merge, validate).
func extraCommands(stdout, stderr io.Writer) []*cobra.Command {
	return []*cobra.Command{newValidateCmd(stdout, stderr), newCalibrateCmd(stdout, stderr), newCompareCmd(stdout, stderr),
		newSweepCmd(stdout, stderr), newMergeCmd(stdout, stderr), newPlotCmd(stdout),
		newStatsCmd(stdout, stderr)}
}

// writeConfigFile writes every key of cfg as a loadable configuration file.
func writeConfigFile(path string, cfg sm.Config) error {
	var b strings.Builder
	fmt.Fprintf(&b, "name = %s\n", cfg.Name)
	for _, p := range cfg.Params() {
		fmt.Fprintf(&b, "%-28s = %s\n", p.Key, p.Value())
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
