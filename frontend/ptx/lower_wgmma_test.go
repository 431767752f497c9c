package ptx

import (
	"fmt"
	"strings"
	"testing"
)

// regs spells a vector of n registers %prefix0 .. %prefix(n-1).
func regs(prefix string, n int) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf("%%%s%d", prefix, i)
	}
	return "{" + strings.Join(s, ", ") + "}"
}

// Every wgmma form the PTX ISA lists for sm_90a lowers, or is refused with
// one located line naming it; so is every form it does not list.
func TestLowerWgmmaForms(t *testing.T) {
	const head = header + `.visible .entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<200>;
	.reg .f32 %f<200>;
	.reg .b64 %rd<4>;
`
	tests := []struct {
		name, body, want string // want "": lowers
	}{
		{"fence", "wgmma.fence.sync.aligned;", ""},
		{"commit", "wgmma.commit_group.sync.aligned;", ""},
		{"wait", "wgmma.wait_group.sync.aligned 1;", ""},
		{"wait needs a constant", "wgmma.wait_group.sync.aligned %r1;", "wgmma.wait_group takes a non-negative integer constant"},
		{"fence needs .sync.aligned", "wgmma.fence;", "wgmma.fence needs .sync.aligned"},
		{"f16 f32 descriptors", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, %p1, 1, -1, 0, 1;", ""},
		{"f16 f16 registers", "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16 " + regs("r", 4) + ", " + regs("r", 4) + ", %rd2, 1, 1, 1, 1;", ""},
		{"bf16 n256", "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 " + regs("f", 128) + ", %rd1, %rd2, 0, 1, 1, 1, 0;", ""},
		{"tf32", "wgmma.mma_async.sync.aligned.m64n24k8.f32.tf32.tf32 " + regs("f", 12) + ", %rd1, %rd2, %p1, 1, 1;", ""},
		{"e4m3 x e5m2 f16", "wgmma.mma_async.sync.aligned.m64n32k32.f16.e4m3.e5m2 " + regs("r", 8) + ", %rd1, %rd2, %p1, -1, 1;", ""},
		{"s8 satfinite", "wgmma.mma_async.sync.aligned.m64n224k32.satfinite.s32.s8.u8 " + regs("r", 112) + ", %rd1, %rd2, %p1;", ""},
		{"bf16 accumulating in f16", "wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 " + regs("r", 2) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", ".bf16 inputs cannot accumulate in .f16"},
		{"tf32 in f16", "wgmma.mma_async.sync.aligned.m64n8k8.f16.tf32.tf32 " + regs("r", 2) + ", %rd1, %rd2, 1, 1, 1;", ".tf32 inputs cannot accumulate in .f16"},
		{"mixed f16 bf16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.bf16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "A of .f16 and B of .bf16 cannot be multiplied together"},
		{"wrong K", "wgmma.mma_async.sync.aligned.m64n8k32.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "K is 32; .f16 inputs take K = 16"},
		{"wrong M", "wgmma.mma_async.sync.aligned.m128n8k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "M is 128"},
		{"N not a multiple of 8", "wgmma.mma_async.sync.aligned.m64n12k16.f32.f16.f16 " + regs("f", 6) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "N is 12"},
		{"integer N 40", "wgmma.mma_async.sync.aligned.m64n40k32.s32.s8.s8 " + regs("r", 20) + ", %rd1, %rd2, 1;", "N is 40; .s8 inputs take N = 8, 16, 24, 32, then multiples of 16 up to 224"},
		{"integer N 256", "wgmma.mma_async.sync.aligned.m64n256k32.s32.u8.u8 " + regs("r", 128) + ", %rd1, %rd2, 1;", "N is 256"},
		{"satfinite on floats", "wgmma.mma_async.sync.aligned.m64n8k16.satfinite.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", ".satfinite applies only to .s8/.u8 inputs"},
		{"b1", "wgmma.mma_async.sync.aligned.m64n8k256.s32.b1.b1.and.popc " + regs("r", 4) + ", %rd1, %rd2, 1;", "single-bit .b1 inputs are not implemented"},
		{"sparse", "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, %r1, 0, 1, 1, 1, 0, 0;", "sparse wgmma.mma_async.sp"},
		{"accumulator count", "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "D is a vector of 8 registers"},
		{"scale out of range", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 2, 1, 0, 0;", "imm-scale-a must be 1 or -1, found 2"},
		{"transpose out of range", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 2;", "imm-trans-b must be 0 or 1, found 2"},
		{"transpose of tf32", "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 " + regs("f", 4) + ", %rd1, %rd2, 1, 1, 1, 0, 0;", "bad operand count"},
		{"scale of integers", "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 " + regs("r", 4) + ", %rd1, %rd2, 1, 1, 1;", "bad operand count"},
		{"scale-d out of range", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 " + regs("f", 4) + ", %rd1, %rd2, 2, 1, 1, 0, 0;", "scale-d must be a predicate, 0 or 1"},
	}
	line := strings.Count(head, "\n") + 1
	for _, tt := range tests {
		_, err := Compile("t.ptx", []byte(head+"\t"+tt.body+"\n\tret;\n}\n"))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && err == nil:
			t.Errorf("%s: lowered, want an error containing %q", tt.name, tt.want)
		case tt.want != "":
			msg := err.Error()
			if prefix := fmt.Sprintf("t.ptx:%d:", line); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("%s:\n got %q\nwant %s... containing %q", tt.name, msg, prefix, tt.want)
			}
		}
	}
}

// ldmatrix and stmatrix of sm_90 (.m8n8 .b16), and setmaxnreg's count.
func TestLowerMatrixForms(t *testing.T) {
	const head = header + `.visible .entry k()
{
	.reg .b32 %r<8>;
`
	tests := []struct{ name, body, want string }{
		{"ldmatrix x4", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5];", ""},
		{"ldmatrix x1 trans", "ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%r1}, [%r5+16];", ""},
		{"stmatrix x2", "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r5], {%r1, %r2};", ""},
		{"ldmatrix count", "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1}, [%r5];", "ldmatrix.x2 moves 2 registers"},
		{"ldmatrix sm_100 shape", "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%r5];", "ldmatrix.m16n16 is sm_100's"},
		{"ldmatrix b8", "ldmatrix.sync.aligned.m8n8.x1.shared.b8 {%r1}, [%r5];", "needs .b16"},
		{"ldmatrix global", "ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%r5];", "not .global"},
		{"ldmatrix without x", "ldmatrix.sync.aligned.m8n8.shared.b16 {%r1}, [%r5];", "needs .x1, .x2 or .x4"},
		{"setmaxnreg", "setmaxnreg.inc.sync.aligned.u32 240;", ""},
		{"setmaxnreg count", "setmaxnreg.dec.sync.aligned.u32 20;", "from 24 to 256, a multiple of 8, found 20"},
		{"setmaxnreg register", "setmaxnreg.dec.sync.aligned.u32 %r1;", "constant register count"},
	}
	line := strings.Count(head, "\n") + 1
	for _, tt := range tests {
		_, err := Compile("t.ptx", []byte(head+"\t"+tt.body+"\n\tret;\n}\n"))
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: %v", tt.name, err)
		case tt.want != "" && err == nil:
			t.Errorf("%s: lowered, want an error containing %q", tt.name, tt.want)
		case tt.want != "":
			msg := err.Error()
			if prefix := fmt.Sprintf("t.ptx:%d:", line); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) || strings.Contains(msg, "\n") {
				t.Errorf("%s:\n got %q\nwant %s... containing %q", tt.name, msg, prefix, tt.want)
			}
		}
	}
}
