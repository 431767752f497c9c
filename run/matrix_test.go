package run_test

import (
	"testing"

	"github.com/smsim/smsim/run"
)

// ldmatrixPTX loads four 8x8 .b16 matrices (element e of the 2 KiB buffer
// holds e) with ldmatrix.x4 and .trans, stores the loaded registers back
// with stmatrix.x4 and stmatrix.x4.trans, and writes the registers (8 a
// thread) and the two stored buffers to out.
const ldmatrixPTX = `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<40>;
	.reg .b64 %rd<8>;
	.shared .align 16 .b8 buf[2048];
	.shared .align 16 .b8 st1[512];
	.shared .align 16 .b8 st2[512];
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	mov.u32 %r2, 0;
fill:
	shl.b32 %r3, %r1, 5;
	add.s32 %r3, %r3, %r2;
	shl.b32 %r4, %r3, 1;
	mov.u32 %r5, buf;
	add.s32 %r5, %r5, %r4;
	st.shared.u16 [%r5], %r3;
	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 32;
	@%p1 bra fill;
	bar.sync 0;
	shr.u32 %r6, %r1, 3;
	and.b32 %r7, %r1, 7;
	shl.b32 %r6, %r6, 7;
	shl.b32 %r7, %r7, 4;
	add.s32 %r8, %r6, %r7;
	mov.u32 %r9, buf;
	add.s32 %r9, %r9, %r8;
	ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%r9];
	ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r14, %r15, %r16, %r17}, [%r9];
	mov.u32 %r18, st1;
	add.s32 %r18, %r18, %r8;
	stmatrix.sync.aligned.m8n8.x4.shared.b16 [%r18], {%r10, %r11, %r12, %r13};
	mov.u32 %r19, st2;
	add.s32 %r19, %r19, %r8;
	stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r19], {%r10, %r11, %r12, %r13};
	bar.sync 0;
	mul.wide.u32 %rd2, %r1, 32;
	add.s64 %rd3, %rd1, %rd2;
	st.global.v4.u32 [%rd3], {%r10, %r11, %r12, %r13};
	st.global.v4.u32 [%rd3+16], {%r14, %r15, %r16, %r17};
	shl.b32 %r20, %r1, 4;
	mov.u32 %r21, st1;
	add.s32 %r21, %r21, %r20;
	ld.shared.v4.u32 {%r22, %r23, %r24, %r25}, [%r21];
	mul.wide.u32 %rd4, %r1, 16;
	add.s64 %rd5, %rd1, %rd4;
	st.global.v4.u32 [%rd5+1024], {%r22, %r23, %r24, %r25};
	mov.u32 %r26, st2;
	add.s32 %r26, %r26, %r20;
	ld.shared.v4.u32 {%r22, %r23, %r24, %r25}, [%r26];
	st.global.v4.u32 [%rd5+1536], {%r22, %r23, %r24, %r25};
	ret;
}
`

func TestLdmatrixStmatrix(t *testing.T) {
	j, err := launch(t, writeFile(t, "m.ptx", ldmatrixPTX), "-b", "32", "-a", "buf:2048", "--dump", "0:u32:512")
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	var got []uint32
	for _, v := range out.Dumps[0].Values {
		got = append(got, v.(uint32))
	}
	elem := func(i, row, col int) uint32 { return uint32(i*64 + row*8 + col) }
	pair := func(lo, hi uint32) uint32 { return lo | hi<<16 }
	for l := 0; l < 32; l++ {
		for i := 0; i < 4; i++ {
			r, c := l/4, 2*(l%4)
			if w := pair(elem(i, r, c), elem(i, r, c+1)); got[8*l+i] != w {
				t.Errorf("ldmatrix: lane %d register %d = %#x, want %#x", l, i, got[8*l+i], w)
			}
			if w := pair(elem(i, c, r), elem(i, c+1, r)); got[8*l+4+i] != w {
				t.Errorf("ldmatrix.trans: lane %d register %d = %#x, want %#x", l, i, got[8*l+4+i], w)
			}
		}
	}
	for e := 0; e < 256; e += 2 {
		i, r, c := e/64, e%64/8, e%8
		if w := pair(elem(i, r, c), elem(i, r, c+1)); got[256+e/2] != w {
			t.Errorf("stmatrix: halves %d,%d = %#x, want %#x", e, e+1, got[256+e/2], w)
		}
		if w := pair(elem(i, c, r), elem(i, c+1, r)); got[384+e/2] != w {
			t.Errorf("stmatrix.trans: halves %d,%d = %#x, want %#x", e, e+1, got[384+e/2], w)
		}
	}
}

// movmatrixPTX: thread l holds elements 8(l/4)+2(l%4) and +1 (row l/4 of an
// 8x8 matrix whose element (r, c) is 8r+c), transposes with movmatrix and
// writes its register.
const movmatrixPTX = `.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd1, %rd1;
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 1;
	add.s32 %r3, %r2, 1;
	shl.b32 %r3, %r3, 16;
	or.b32 %r4, %r2, %r3;
	movmatrix.sync.aligned.m8n8.trans.b16 %r5, %r4;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r5;
	ret;
}
`

func TestMovmatrix(t *testing.T) {
	j, err := launch(t, writeFile(t, "m.ptx", movmatrixPTX), "-b", "32", "-a", "buf:128", "--dump", "0:u32:32")
	if err != nil {
		t.Fatal(err)
	}
	out, err := run.Execute(j)
	if err != nil || out.Err != nil {
		t.Fatal(err, out.Err)
	}
	for l, v := range out.Dumps[0].Values {
		r, c := 2*(l%4), l/4 // lane l of the transpose: row l/4 of Mᵀ = column l/4 of M
		if want := uint32(8*r+c) | uint32(8*(r+1)+c)<<16; v.(uint32) != want {
			t.Errorf("lane %d: %#x, want %#x", l, v, want)
		}
	}
}
