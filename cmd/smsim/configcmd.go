package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/smsim/smsim/run"
)

func configCompletion(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	var ns []string
	for n := range run.BuiltinConfigs() {
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
			for _, n := range strings.Split(run.ConfigNames(), ", ") {
				cfg := run.BuiltinConfigs()[n]()
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
			cfg, err := run.LoadConfig(name, sets)
			if err != nil {
				return err
			}
			if markdown {
				fmt.Fprintln(stdout, "| key | value | unit | meaning | source |")
				fmt.Fprintln(stdout, "| --- | ---: | --- | --- | --- |")
				for _, p := range cfg.Params() {
					fmt.Fprintf(stdout, "| `%s` | %s | %s | %s | %s |\n", p.Key, p.Value(), p.Unit, p.Doc, p.Source.Text)
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
