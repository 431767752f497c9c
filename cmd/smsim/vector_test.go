package main

import (
	"strings"
	"testing"
)

// A 256-bit vector load (sm_100 PTX) given to smsim, which runs sm_90, is
// an input error on one line naming the instruction's line, not a crash.
func TestRunRefuses256BitVectorAccessAtItsLine(t *testing.T) {
	const src = `.version 8.8
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [p];
	ld.global.v4.u64 {%rd2, %rd3, %rd4, %rd5}, [%rd1];
	ret;
}
`
	p := writeFile(t, "v4.ptx", src)
	code, _, errs := cli(t, "run", p, "-a", "buf:4096")
	if code != exitInput {
		t.Errorf("got exit %d, want %d (%q)", code, exitInput, errs)
	}
	if !oneLineLoc.MatchString(errs) || !strings.Contains(errs, "v4.ptx:8:2:") || !strings.Contains(errs, "256-bit") {
		t.Errorf("got stderr %q, want one line at v4.ptx:8:2 about the 256-bit vector", errs)
	}
}
