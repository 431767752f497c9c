package main

import (
	"errors"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// Exit statuses, documented in docs/cli.md and in `smsim --help`.
const (
	exitOK       = 0 // the run finished
	exitInternal = 1 // a bug in smsim (please report it)
	exitUsage    = 2 // bad command line: unknown flag, missing argument
	exitInput    = 3 // the input cannot run: parse error, bad --arg, unsupported instruction, bad launch; a file or stdout that cannot be read or written
	exitStuck    = 4 // deadlock or livelock: the kernel can never finish
	exitMisuse   = 5 // the kernel misused a barrier or memory (undefined behaviour), or trapped
	exitLimit    = 6 // --max-cycles (or another limit) reached
)

const exitHelp = `Exit status:
  0    success
  1    internal error (a bug in smsim)
  2    usage error (bad flags or arguments, a flag value past its limits)
  3    input error (malformed .ptx/.sms, bad --arg, unsupported instruction, bad launch,
       a file or stdout that cannot be read or written)
  4    deadlock or livelock (the kernel can never finish)
  5    misuse (barrier or memory undefined behaviour, trap)
  6    limit reached (--max-cycles)
  7    validate --check: calibration targets missed
  130  interrupted (Ctrl-C) during sweep or validate`

// usageError marks command-line mistakes (exit 2): run.UsageError, which
// the run API returns for a request wrong whatever the input.
type usageError = run.UsageError

// inputError marks problems with the input files or arguments (exit 3).
type inputError = run.InputError

// exitCode maps an error to the documented exit status.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var d *sm.Diag
	if errors.As(err, &d) {
		switch d.Kind {
		case sm.DiagDeadlock, sm.DiagLivelock:
			return exitStuck
		case sm.DiagMisuse:
			return exitMisuse
		case sm.DiagLimit:
			return exitLimit
		case sm.DiagInput:
			return exitInput
		}
	}
	var u *usageError
	if errors.As(err, &u) {
		return exitUsage
	}
	var in *inputError
	if errors.As(err, &in) {
		return exitInput
	}
	var te *targetError
	if errors.As(err, &te) {
		return exitTargets
	}
	var ie *interruptError
	if errors.As(err, &ie) {
		return exitInterrupted
	}
	return exitInternal
}

// exitTargets: smsim validate --check missed its calibration targets.
const exitTargets = 7
