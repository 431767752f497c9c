package main

import (
	"strings"
	"testing"
)

// A tensor map whose extent does not fit in 64 bits is an input error that
// says so, whether the tensor gets its own allocation or lives in a named
// buffer; its size never wraps to a small number.
func TestTensorMapBeyond64BitsIsAnInputError(t *testing.T) {
	const src = "kernel k\nblock 32\nglobal buf[4096]\ntensormap A \"u8,64x64,box=16x1\"\ncompute 1\n"
	for _, tc := range []struct{ name, arg string }{
		{"own allocation", "A=tensormap:u8,4294967296x4294967296x4294967296,box=16x1x1"},
		{"five dimensions of 2^32", "A=tensormap:f64,4294967296x4294967296x4294967296x4294967296x4294967296,box=2x1x1x1x1"},
		{"in a named buffer", "A=tensormap:u8,4294967296x4294967296,box=16x1,buf=buf"},
		{"given strides", "A=tensormap:u8,4294967296x4294967296,box=16x1,stride=1099511627760,buf=buf"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, "k.sms", src)
			code, _, errs := cli(t, "run", p, "--arg", tc.arg)
			if code != exitInput {
				t.Errorf("got exit %d, want %d (%q)", code, exitInput, errs)
			}
			if !strings.Contains(errs, "spans more than 2^64 bytes") || strings.Contains(errs, " 0 bytes") ||
				strings.Count(errs, "\n") != 1 {
				t.Errorf("got stderr %q, want one line saying the tensor spans more than 2^64 bytes", errs)
			}
		})
	}
}
