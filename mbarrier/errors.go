package mbarrier

import "fmt"

// Code names an illegal barrier operation. The names follow the barrier-local
// rows of the undefined-behaviour catalogue (mbarrier-semantics.md §1.9); the
// zero Code means "no error".
type Code uint8

// The error codes. Catalogue returns the §1.9 row of each.
const (
	Uninitialized           Code = iota + 1 // #1 op other than init on memory that is not a valid barrier
	DoubleInit                              // #2 init on a valid barrier
	BadCount                                // #4 init/arrive count outside 1..MaxCount
	OverArrival                             // #5 arrive count exceeds pending (incl. pending already 0)
	NoCompleteWouldComplete                 // #6 .noComplete arrive that would complete the phase
	StaleWait                               // #8 token older than the preceding phase, or newer than the open one
	TxRange                                 // #9 tx-count leaving ±MaxCount (also §4 #25, #55)
	ExpectedBelowOne                        // #10 arrive_drop taking expected below 1
	PendingOverflow                         // #11 cp.async.mbarrier.arrive increment above MaxCount
	BadPendingCountToken                    // #12 pending_count on a token not from a .noComplete arrive
	BadParity                               // parity operand other than 0 or 1 (strict mode only)
	BadUpdate                               // malformed Update value: a caller bug, not a PTX program bug
)

// String returns the code's short kebab-case name, which also starts every
// error message of that code.
func (c Code) String() string {
	switch c {
	case Uninitialized:
		return "uninitialized"
	case DoubleInit:
		return "double init"
	case BadCount:
		return "bad count"
	case OverArrival:
		return "over-arrival"
	case NoCompleteWouldComplete:
		return "noComplete would complete"
	case StaleWait:
		return "stale wait"
	case TxRange:
		return "tx-count out of range"
	case ExpectedBelowOne:
		return "expected below one"
	case PendingOverflow:
		return "pending overflow"
	case BadPendingCountToken:
		return "bad pending_count token"
	case BadParity:
		return "bad parity"
	case BadUpdate:
		return "bad update"
	}
	return fmt.Sprintf("Code(%d)", uint8(c))
}

// Catalogue returns the row number of the code in the §1.9 undefined-behaviour
// catalogue, or 0 for codes that are not catalogue rows (BadParity, BadUpdate).
func (c Code) Catalogue() int {
	switch c {
	case Uninitialized:
		return 1
	case DoubleInit:
		return 2
	case BadCount:
		return 4
	case OverArrival:
		return 5
	case NoCompleteWouldComplete:
		return 6
	case StaleWait:
		return 8
	case TxRange:
		return 9
	case ExpectedBelowOne:
		return 10
	case PendingOverflow:
		return 11
	case BadPendingCountToken:
		return 12
	}
	return 0
}

// Error is the only error type the package returns. Use errors.As to get it;
// errors.Is(err, &Error{Code: c}) matches any error with code c.
type Error struct {
	Code      Code   // what went wrong
	Catalogue int    // §1.9 catalogue row, 0 if none
	Msg       string // starts with Code.String() and states the numbers involved
}

// Error formats the message with the package prefix and the catalogue row.
func (e *Error) Error() string {
	if e.Catalogue == 0 {
		return "mbarrier: " + e.Msg
	}
	return fmt.Sprintf("mbarrier: %s [UB #%d]", e.Msg, e.Catalogue)
}

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, &Error{Code: OverArrival}) works without comparing messages.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

func newError(c Code, format string, args ...any) *Error {
	return &Error{Code: c, Catalogue: c.Catalogue(), Msg: c.String() + ": " + fmt.Sprintf(format, args...)}
}

func errUninit(op string) *Error {
	return newError(Uninitialized, "%s on memory that is not a valid mbarrier (never initialised or invalidated)", op)
}

// WarningCode names a lint-level finding: legal behaviour that is usually a
// program bug. Warnings never change what Apply does.
type WarningCode uint8

// The warning codes.
const (
	// EarlyArrive: arrive-on in phase k+1 before any wait returned true for
	// phase k (§1.9 #7). Reported once per phase.
	EarlyArrive WarningCode = iota + 1
	// TxAfterCompletion: expect_tx/complete_tx in phase k+1 before any wait
	// returned true for phase k: the bytes probably belong to phase k, which
	// then completed prematurely (§4 #20, #22). Shares the once-per-phase
	// budget with EarlyArrive.
	TxAfterCompletion
	// ExpectAfterLastArrival: a standalone expect_tx while pending is already 0
	// (§1.3, §1.5 danger zone). Legal and measured to complete the phase when
	// it brings tx-count to 0 (§5.1), but any earlier complete_tx reaching 0
	// would already have completed the phase.
	ExpectAfterLastArrival
)

// String returns the warning code's short name.
func (c WarningCode) String() string {
	switch c {
	case EarlyArrive:
		return "early arrive"
	case TxAfterCompletion:
		return "tx after completion"
	case ExpectAfterLastArrival:
		return "expect after last arrival"
	}
	return fmt.Sprintf("WarningCode(%d)", uint8(c))
}

// Warning is a lint finding attached to a Result. It is a value, never an error.
type Warning struct {
	Code WarningCode
	Msg  string // starts with Code.String()
}

// String returns the message with the package prefix.
func (w Warning) String() string { return "mbarrier warning: " + w.Msg }

func newWarning(c WarningCode, format string, args ...any) Warning {
	return Warning{Code: c, Msg: c.String() + ": " + fmt.Sprintf(format, args...)}
}
