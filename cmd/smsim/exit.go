package main

import (
	"errors"

	"github.com/smsim/smsim/run"
)

// Exit statuses, documented in docs/cli.md and in `smsim --help`: those of
// a run (run.ExitStatus), and the commands' own below.
const (
	exitOK       = run.ExitOK
	exitInternal = run.ExitInternal
	exitUsage    = run.ExitUsage
	exitInput    = run.ExitInput
	exitStuck    = run.ExitStuck
	exitMisuse   = run.ExitMisuse
	exitLimit    = run.ExitLimit
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
	var te *targetError
	if errors.As(err, &te) {
		return exitTargets
	}
	var ie *interruptError
	if errors.As(err, &ie) {
		return exitInterrupted
	}
	return run.ExitStatus(err)
}

// exitTargets: smsim validate --check missed its calibration targets.
const exitTargets = 7
