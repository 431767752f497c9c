package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/spf13/cobra"
)

// exitInterrupted is the status of a command ended by Ctrl-C: 128 + SIGINT,
// what a shell reports for a program the signal killed.
const exitInterrupted = 130

// interruptError ends a command the user interrupted; its message says
// what was done and how to go on.
type interruptError struct{ msg string }

func (e *interruptError) Error() string { return "interrupted: " + e.msg }

// interruptible returns the command's context, cancelled by Ctrl-C, so that
// a long command (sweep, validate) can stop cleanly: end its progress line,
// say what it wrote, exit 130. The first Ctrl-C restores the default
// handling, so a second one kills the process at once.
func interruptible(cmd *cobra.Command) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
	go func() {
		<-ctx.Done()
		stop()
	}()
	return ctx, stop
}
