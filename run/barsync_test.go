package run_test

import (
	"fmt"
	"testing"
)

// A named barrier with a thread count waits for that many threads of the
// warps that use it; threads that have exited count only at a barrier for
// all the CTA's threads (PTX ISA, exit). Warp 0 exits at once, warp 1 writes
// a flag late and then meets warp 2 at `bar.sync 1, 64`: warp 2 must read
// the flag set. Counting warp 0's exited threads released warp 2 early
// (calibration/h200 epilogue.cu, whose consumers synchronise this way after
// the producer warp has left, then ended in a false misuse report). At
// `bar.sync 0` with no count the exited warp still counts: the kernel ends.
func TestNamedBarrierWithACountIgnoresExitedWarps(t *testing.T) {
	const src = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %%r<8>;
	.reg .b64 %%rd<4>;
	.reg .pred %%p<4>;
	.shared .align 4 .b32 flag;
	ld.param.u64 %%rd1, [out];
	mov.u32 %%r1, %%tid.x;
	setp.lt.u32 %%p1, %%r1, 32;
	@%%p1 exit;
	setp.ne.u32 %%p2, %%r1, 32;
	@%%p2 bra MEET;
	mov.u32 %%r2, 0;
SPIN:
	add.u32 %%r2, %%r2, 1;
	setp.lt.u32 %%p3, %%r2, 500;
	@%%p3 bra SPIN;
	mov.u32 %%r3, 1;
	st.shared.u32 [flag], %%r3;
MEET:
	bar.sync 1, 64;
	setp.ne.u32 %%p2, %%r1, 64;
	@%%p2 bra DONE;
	ld.shared.u32 %%r4, [flag];
	cvt.u64.u32 %%rd2, %%r4;
	st.global.u64 [%%rd1], %%rd2;
DONE:
	%s
	ret;
}`
	for _, tc := range []struct {
		name, tail string
	}{
		{"named barrier only", ""},
		{"then bar.sync 0 with the exited warp", "bar.sync 0;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runPTXCycles(t, "named.ptx", fmt.Sprintf(src, tc.tail), "-b", "96", "--dump", "out:i64:1")
			if got := outWord(t, r); got != 1 {
				t.Errorf("warp 2 read flag %d after bar.sync 1, 64: released before warp 1 arrived", got)
			}
		})
	}
}
