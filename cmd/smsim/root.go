package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/smsim/smsim/run"
	"github.com/spf13/cobra"
)

// runCLI executes the command line and returns the exit status. Errors are
// printed as one line on stderr (plus indented detail lines for deadlocks).
func runCLI(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is runCLI with a context the long commands stop on, besides
// Ctrl-C (sweep, validate).
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "smsim: internal error: %v\n%s", r, debug.Stack())
			code = exitInternal
		}
	}()
	out := &recordingWriter{w: stdout}
	root := newRootCmd(out, stderr)
	root.SetArgs(args)
	cmd, err := root.ExecuteContextC(ctx)
	err = stdoutError(out, classify(cmd, err))
	if err != nil {
		printError(stderr, err)
	}
	return exitCode(err)
}

// classify turns cobra's own argument errors into usage errors; those of
// a command's argument count say which command's help to read.
func classify(cmd *cobra.Command, err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	for _, p := range []string{"accepts ", "requires "} {
		if strings.HasPrefix(msg, p) && cmd != nil {
			return &usageError{Msg: msg + " (see " + cmd.CommandPath() + " --help)"}
		}
	}
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "flag needs", "invalid argument"} {
		if strings.HasPrefix(msg, p) {
			return &usageError{Msg: msg}
		}
	}
	return err
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "smsim",
		Short: "Cycle-level simulator of one Hopper SM: where warps wait on mbarriers, and why",
		Long: `smsim simulates one NVIDIA Hopper (H200) streaming multiprocessor running a kernel —
PTX as nvcc writes it, or the .sms kernel language — and reports the stall cycles of
every mbarrier phase, per-warp stall reasons, and the timing of TMA bulk copies.

` + exitHelp,
		Version:       buildVersion(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetVersionTemplate("smsim {{.Version}}\n")
	root.Flags().Bool("version", false, "print smsim's version (module version, commit and Go toolchain) and exit")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return &usageError{Msg: err.Error() + " (see " + c.CommandPath() + " --help)"}
	})
	root.AddCommand(newRunCmd(stdout, stderr), newListCmd(stdout), newConfigCmd(stdout))
	for _, c := range extraCommands(stdout, stderr) {
		root.AddCommand(c)
	}
	return root
}

// printError writes err as one line, then any detail lines indented.
func printError(w io.Writer, err error) {
	fmt.Fprintf(w, "smsim: %s\n", firstLine(err.Error()))
	for _, d := range run.Details(err) {
		fmt.Fprintf(w, "  %s\n", d)
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
