package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// ticketsPTX takes a ticket per thread from one global counter and writes
// it: the dump records the order of every SM's atomics.
const ticketsPTX = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry tickets(.param .u64 counter, .param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [counter];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mad.lo.u32 %r4, %r2, %r3, %r1;
	atom.global.add.u32 %r5, [%rd1], 1;
	mul.wide.u32 %rd3, %r4, 4;
	add.u64 %rd4, %rd2, %rd3;
	st.global.u32 [%rd4], %r5;
	ret;
}
`

// hostTime is the part of a report that is the host's, not the run's.
var hostTime = regexp.MustCompile(`simulated in [0-9.]+ s \([0-9.]+M warp-instr/s\)`)

// smsim run of a launch over many SMs prints the same report and dump on
// one host thread as on several (--threads; docs/parallel.md).
func TestRunOnSeveralThreadsPrintsOneThreadsReport(t *testing.T) {
	ptx := filepath.Join(t.TempDir(), "tickets.ptx")
	if err := os.WriteFile(ptx, []byte(ticketsPTX), 0o644); err != nil {
		t.Fatal(err)
	}
	var want string
	for _, threads := range []string{"1", "3"} {
		code, out, errs := cli(t, "run", ptx, "--sms", "32", "-g", "64", "-b", "64", "-a", "buf:4", "-a", "buf:16384",
			"--dump", "1:u32:4096", "--threads", threads)
		if code != 0 {
			t.Fatalf("--threads %s: exit %d: %s", threads, code, errs)
		}
		out = hostTime.ReplaceAllString(out, "")
		if threads == "1" {
			want = out
		} else if out != want {
			t.Errorf("--threads %s printed another report than --threads 1:\n%s\nwant:\n%s", threads, out, want)
		}
	}
}
