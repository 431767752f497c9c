package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"

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
			if errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(name, `./\`) {
				// A bare word is most likely a misspelt built-in name.
				return cfg, &usageError{msg: fmt.Sprintf("--config %q: not a built-in configuration (%s) or an existing file", name, configNames())}
			}
			return cfg, fileError("--config", name, "read", err)
		}
		data, err := readInput(name, "--config file", maxConfigBytes)
		if err != nil {
			return cfg, &inputError{err: fmt.Errorf("--config %w", err)}
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
	if err := sc.Err(); err != nil {
		return cfg, fileError("--config", name, "read", err)
	}
	return cfg, nil
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
	_ = show.RegisterFlagCompletionFunc("set", completeSet)
	c.AddCommand(show)
	return c
}

// extraCommands are the analysis commands (compare, sweep, merge, validate).
func extraCommands(stdout, stderr io.Writer) []*cobra.Command {
	return []*cobra.Command{newValidateCmd(stdout, stderr), newCalibrateCmd(stdout, stderr), newCompareCmd(stdout, stderr),
		newSweepCmd(stdout, stderr), newMergeCmd(stdout, stderr), newPlotCmd(stdout),
		newStatsCmd(stdout, stderr)}
}

// writeConfig writes every key of cfg as a loadable configuration file.
func writeConfig(w io.Writer, cfg sm.Config) error {
	var b strings.Builder
	fmt.Fprintf(&b, "name = %s\n", cfg.Name)
	for _, p := range cfg.Params() {
		fmt.Fprintf(&b, "%-28s = %s\n", p.Key, p.Value())
	}
	_, err := io.WriteString(w, b.String())
	return err
}
