package tma

import "fmt"

// Code classifies a rejected or failed copy.
type Code uint8

// Error codes.
const (
	BadSize        Code = iota + 1 // size 0 or not a multiple of 16 (§4 #43)
	Misaligned                     // global/shared address or barrier not aligned (§4 #43)
	RangeOverflow                  // the range wraps or leaves the shared-memory space (§4 #43)
	TxRange                        // one copy credits more than a barrier's tx-count can hold (§4 #55)
	BadMap                         // the tensor map breaks a driver limit (§4 #53)
	NegativeOrigin                 // tensor store with a negative coordinate (§4 #45)
	Unsupported                    // a mode the model does not implement (interleaved layouts)
	BadReduce                      // a reduction the PTX ISA does not define on the element type
	Fault                          // memory refused the bytes when the copy landed
)

// String is the code's short name; every message of the code starts with it.
func (c Code) String() string {
	switch c {
	case BadSize:
		return "bad size"
	case Misaligned:
		return "misaligned"
	case RangeOverflow:
		return "range overflow"
	case TxRange:
		return "tx-count out of range"
	case BadMap:
		return "bad tensor map"
	case NegativeOrigin:
		return "negative origin"
	case Unsupported:
		return "unsupported"
	case BadReduce:
		return "bad reduction"
	case Fault:
		return "fault"
	}
	return fmt.Sprintf("Code(%d)", uint8(c))
}

// Edge returns the row of mbarrier-semantics.md §4 the code belongs to, or 0.
func (c Code) Edge() int {
	switch c {
	case BadSize, Misaligned, RangeOverflow:
		return 43
	case NegativeOrigin:
		return 45
	case BadMap:
		return 53
	case TxRange:
		return 55
	}
	return 0
}

// Error is a copy the unit rejected at issue, or one whose bytes could not be
// moved when it landed (Fault, wrapping the memory's error).
type Error struct {
	Code Code
	Op   string // cp.async.bulk, cp.async.bulk.tensor, …
	Msg  string
	Err  error // underlying error (a *FieldError, a memory access error), if any
}

// Error is "OP: CODE: MESSAGE[: CAUSE] [§4 #N]".
func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s: %s", e.Op, e.Code, e.Msg)
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	if n := e.Code.Edge(); n != 0 {
		s += fmt.Sprintf(" [§4 #%d]", n)
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func newErr(code Code, op, format string, args ...any) *Error {
	return &Error{Code: code, Op: op, Msg: fmt.Sprintf(format, args...)}
}
