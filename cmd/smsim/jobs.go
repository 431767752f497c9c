package main

import (
	"strconv"

	"github.com/spf13/pflag"
)

// jobsFlag is a --jobs value: how many runs go on in parallel, at least
// one. A bad value is refused while the flags are parsed, so the usage
// error names the flag (invalid argument "-3" for "-j, --jobs" flag: ...).
type jobsFlag struct{ n *int }

// bindJobs binds --jobs (with the shorthand, if any) to n, default def.
func bindJobs(fs *pflag.FlagSet, n *int, shorthand string, def int, usage string) {
	*n = def
	fs.VarP(jobsFlag{n}, "jobs", shorthand, usage)
}

func (j jobsFlag) String() string {
	if j.n == nil {
		return "0"
	}
	return strconv.Itoa(*j.n)
}

func (j jobsFlag) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return errWantJobs{}
	}
	*j.n = n
	return nil
}

func (j jobsFlag) Type() string { return "int" }

type errWantJobs struct{}

func (errWantJobs) Error() string { return "want 1 or more runs in parallel" }
