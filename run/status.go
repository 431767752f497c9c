package run

import (
	"errors"

	"github.com/smsim/smsim/sm"
)

// Exit statuses of a run, as the command line exits with them and sweep
// records keep them (docs/cli.md).
const (
	ExitOK       = 0 // the run finished
	ExitInternal = 1 // a bug in smsim (please report it)
	ExitUsage    = 2 // a bad request: unknown flag, missing argument, a value past its limits
	ExitInput    = 3 // the input cannot run: parse error, bad --arg, unsupported instruction, bad launch; a file that cannot be read or written
	ExitStuck    = 4 // deadlock or livelock: the kernel can never finish
	ExitMisuse   = 5 // the kernel misused a barrier or memory (undefined behaviour), or trapped
	ExitLimit    = 6 // --max-cycles (or another limit) reached
)

// ExitStatus maps an error of loading, launching or running a kernel to its
// exit status: a diagnostic by its kind, a UsageError or InputError as
// such, anything else as an internal error; nil is ExitOK.
func ExitStatus(err error) int {
	if err == nil {
		return ExitOK
	}
	var d *sm.Diag
	if errors.As(err, &d) {
		switch d.Kind {
		case sm.DiagDeadlock, sm.DiagLivelock:
			return ExitStuck
		case sm.DiagMisuse:
			return ExitMisuse
		case sm.DiagLimit:
			return ExitLimit
		case sm.DiagInput:
			return ExitInput
		}
	}
	var u *UsageError
	if errors.As(err, &u) {
		return ExitUsage
	}
	var in *InputError
	if errors.As(err, &in) {
		return ExitInput
	}
	return ExitInternal
}

// Details returns the lines a diagnostic prints under its one-line message
// (the waiting warps, the barrier's state, hints); nil for other errors.
func Details(err error) []string {
	if d, ok := err.(*sm.Diag); ok {
		return d.Detail
	}
	return nil
}
