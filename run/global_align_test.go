package run_test

import (
	"testing"

	"github.com/smsim/smsim/run"
	"github.com/smsim/smsim/sm"
)

// A global load, store or atomic whose address is not a multiple of its
// size faults on the H200 (cudaErrorMisalignedAddress), as a shared one
// does: misuse, at the instruction, naming the lane's address; an aligned
// access of each kind runs. The first case is the warp-wide path's form
// (every lane's word a byte off), the others one lane off.
func TestMisalignedGlobalAccessIsMisuse(t *testing.T) {
	const head = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd1, %rd1, %rd2;
`
	for _, tc := range []struct {
		name, body, frag string
	}{
		{"load a byte off", "ld.global.u32 %r2, [%rd1+1];", "ld of 4 bytes at global address 0x"},
		{"v2 store of one lane", "setp.eq.u32 %p1, %r1, 5;\n\t@%p1 add.s64 %rd1, %rd1, 4;\n\tst.global.v2.u32 [%rd1], {%r1, %r1};", "st of 8 bytes"},
		{"atomic of one lane", "setp.eq.u32 %p1, %r1, 7;\n\t@%p1 add.s64 %rd1, %rd1, 2;\n\tatom.global.add.u32 %r2, [%rd1], 1;", "atom of 4 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + "\t.reg .pred %p<2>;\n\t" + tc.body + "\n\tret;\n}\n"
			j, err := launch(t, writeFile(t, "k.ptx", src), "-a", "buf:1024", "-b", "32")
			if err != nil {
				t.Fatal(err)
			}
			out, err := run.Execute(j)
			if err == nil {
				err = out.Err
			}
			d := wantDiag(t, err, sm.DiagMisuse, "misaligned", "k.ptx:", tc.frag, "-byte aligned")
			if d != nil && run.ExitStatus(err) != 5 {
				t.Errorf("exit status %d, want 5", run.ExitStatus(err))
			}
		})
	}
	aligned := head + "\tld.global.u32 %r2, [%rd1];\n\tst.global.u32 [%rd1+128], %r2;\n\tatom.global.add.u32 %r3, [%rd1], 1;\n\tret;\n}\n"
	j, err := launch(t, writeFile(t, "k.ptx", aligned), "-a", "buf:1024", "-b", "32")
	if err != nil {
		t.Fatal(err)
	}
	if out, err := run.Execute(j); err != nil || out.Err != nil {
		t.Fatalf("aligned accesses: %v %v", err, out.Err)
	}
}
