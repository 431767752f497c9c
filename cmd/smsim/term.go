package main

import (
	"io"

	"golang.org/x/term"
)

// isTerminal reports whether w is a terminal (progress lines go only there).
func isTerminal(w io.Writer) bool {
	f, ok := w.(interface{ Fd() uintptr })
	return ok && term.IsTerminal(int(f.Fd()))
}
