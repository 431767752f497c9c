package main

import (
	"github.com/smsim/smsim/isa"
	"github.com/smsim/smsim/traces/ptx"
)

// compilePTX parses a PTX file and lowers every entry.
func compilePTX(path string, src []byte) ([]*isa.Program, error) {
	return ptx.Compile(path, src)
}
