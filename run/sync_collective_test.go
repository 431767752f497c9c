package run_test

import (
	"fmt"
	"testing"
)

// A .sync collective waits for the lanes of its membermask that have not
// exited (PTX ISA, elect.sync / vote.sync / shfl.sync: "the executing
// thread waits until all non-exited threads corresponding to membermask
// have executed" it): lanes that reach it on different paths run it
// together. Thread 0 takes a path of its own (a guarded-off trap) before
// the collective, as a kernel checking its arguments does.
func TestSyncCollectivesWaitForTheirMembers(t *testing.T) {
	const prologue = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %%p, %%q; .reg .u32 %%t, %%v; .reg .u64 %%o;
  ld.param.u64 %%o, [out];
  mov.u32 %%t, %%tid.x;
  setp.ne.u32 %%p, %%t, 0;
  @%%p bra JOIN;
  setp.eq.u32 %%q, %%t, 99;
  @%%q trap;
JOIN:
%s
  ret;
}
`
	for _, tc := range []struct {
		name string
		body string
		want int64
	}{
		{"elect.sync elects one leader of the whole warp",
			"  elect.sync _|%q, 0xffffffff;\n  @%q red.global.add.u32 [%o], 1;", 1},
		{"vote.sync.ballot sees every lane",
			"  setp.lt.u32 %q, %t, 32;\n  vote.sync.ballot.b32 %v, %q, 0xffffffff;\n  setp.eq.u32 %q, %t, 0;\n  @%q st.global.u32 [%o], %v;", 0xffffffff},
		{"shfl.sync reads a lane of the other path",
			"  shfl.sync.idx.b32 %v, %t, 5, 31, 0xffffffff;\n  setp.eq.u32 %q, %t, 0;\n  @%q st.global.u32 [%o], %v;", 5},
		{"redux.sync sums every lane",
			"  redux.sync.add.u32 %v, %t, 0xffffffff;\n  setp.eq.u32 %q, %t, 0;\n  @%q st.global.u32 [%o], %v;", 496},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runPTXCycles(t, "gate.ptx", fmt.Sprintf(prologue, tc.body), "-b", "32", "--dump", "out:u32:1")
			if got := outWord(t, r); got != tc.want {
				t.Errorf("out = %#x, want %#x", got, tc.want)
			}
		})
	}
}
