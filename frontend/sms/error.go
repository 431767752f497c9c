package sms

import (
	"fmt"
	"strings"

	"github.com/smsim/smsim/isa"
)

// Error is a compile error of a .sms file: one line, file:line:col: message.
type Error struct {
	Pos isa.Pos
	Msg string
}

// Error formats the error as file:line:col: message.
func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// errAt builds an Error at p. Newlines in the message are replaced so the
// error always stays on one line.
func errAt(p isa.Pos, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	msg = strings.ReplaceAll(msg, "\n", " ")
	return &Error{Pos: p, Msg: msg}
}
