package run

// UsageError is a request that is wrong whatever the input holds: a launch
// dimension past its limits, a kernel name no entry matches, an --arg that
// names no parameter. The command line exits 2 on it.
type UsageError struct{ Msg string }

// Error implements error.
func (u *UsageError) Error() string { return u.Msg }

// InputError is an input that cannot run: a malformed or unreadable file,
// a bad argument value, an unsupported instruction, an impossible launch.
// The command line exits 3 on it.
type InputError struct{ Err error }

// Error implements error.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the error the input error wraps.
func (e *InputError) Unwrap() error { return e.Err }
