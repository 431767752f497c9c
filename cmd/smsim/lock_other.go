//go:build !unix && !windows

package main

import (
	"errors"
	"os"
)

// lockFile cannot lock on this system: the sweep goes on unlocked, with a
// warning (openResults).
func lockFile(*os.File) error { return errors.ErrUnsupported }
