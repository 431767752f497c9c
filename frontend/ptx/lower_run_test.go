package ptx_test

import (
	"encoding/binary"
	"strings"
	"testing"

	"github.com/smsim/smsim/frontend/ptx"
	"github.com/smsim/smsim/warp"
)

// TestFP8ModesAgree pins the FP8 cvt modes the lowering writes (it may not
// import warp) to warp's definitions.
func TestFP8ModesAgree(t *testing.T) {
	if ptx.Cvt8E4M3 != warp.Cvt8E4M3 || ptx.Cvt8E5M2 != warp.Cvt8E5M2 || ptx.Cvt8Relu != warp.Cvt8Relu {
		t.Errorf("ptx FP8 modes %d %d %d, warp %d %d %d", ptx.Cvt8E4M3, ptx.Cvt8E5M2, ptx.Cvt8Relu,
			warp.Cvt8E4M3, warp.Cvt8E5M2, warp.Cvt8Relu)
	}
}

const runHeader = ".version 9.0\n.target sm_90a\n.address_size 64\n"

// runPTX compiles src, runs its only kernel with threads threads and an
// out buffer of n 32-bit words (first parameter), and returns the words.
func runPTX(t *testing.T, src string, threads, n int) []uint32 {
	t.Helper()
	ps, err := ptx.Compile("run.ptx", []byte(runHeader+src))
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	raw, err := runKernel(ps[0], threads, 4*n, 0)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	out := make([]uint32, n)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(raw[4*i:])
	}
	return out
}

// storeTid is the prologue shared by the kernels below: %rd1 = &out[tid],
// %r1 = tid.
const storeTid = `
	ld.param.u64 %rd1, [k_out];
	mov.u32 %r1, %tid.x;
	mul.wide.u32 %rd2, %r1, 4;
	add.s64 %rd1, %rd1, %rd2;
`

// TestRunInlinedCalls checks device-function inlining: .param scalars and
// results, a struct passed by value, .reg parameters, nested and guarded
// calls, and an early return.
func TestRunInlinedCalls(t *testing.T) {
	src := `
.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %a<3>;
	ld.param.b32 %a1, [x];
	setp.gt.u32 %p, %a1, 100;
	@%p bra BIG;
	shl.b32 %a2, %a1, 1;
	st.param.b32 [r], %a2;
	ret;
BIG:
	st.param.b32 [r], 100;
	ret;
}
.func (.param .b32 r) sum(.param .align 8 .b8 s[16])
{
	.reg .b32 %a<4>;
	.reg .b64 %b;
	ld.param.b32 %a1, [s+0];
	ld.param.b64 %b, [s+8];
	cvt.u32.u64 %a2, %b;
	add.u32 %a3, %a1, %a2;
	{
	.param .b32 q0;
	.param .b32 q1;
	st.param.b32 [q0], %a3;
	call.uni (q1), twice, (q0);
	ld.param.b32 %a3, [q1];
	}
	st.param.b32 [r], %a3;
}
.func (.reg .b32 o) plus1(.reg .b32 i)
{
	add.u32 o, i, 1;
}
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
` + storeTid + `
	{
	.param .align 8 .b8 p0[16];
	.param .b32 r0;
	st.param.b32 [p0+0], %r1;
	cvt.u64.u32 %rd3, %r1;
	st.param.b64 [p0+8], %rd3;
	call.uni (r0), sum, (p0);
	ld.param.b32 %r2, [r0];
	}
	call.uni (%r3), plus1, (%r2);
	setp.lt.u32 %p1, %r1, 4;
	mov.u32 %r4, 7;
	@%p1 call (%r4), plus1, (%r3);
	add.u32 %r5, %r3, %r4;
	st.global.u32 [%rd1], %r5;
	ret;
}
`
	// Hidden uses of %p in twice: declare it.
	src = strings.Replace(src, ".reg .b32 %a<3>;", ".reg .b32 %a<3>;\n\t.reg .pred %p;", 1)
	got := runPTX(t, src, 64, 64)
	for tid, g := range got {
		x := 2 * tid // sum of the struct's fields
		s := 2*x + 1 // twice, then plus1
		if x > 100 {
			s = 100 + 1
		}
		w := s + 7
		if tid < 4 {
			w = s + s + 1
		}
		if g != uint32(w) {
			t.Errorf("thread %d: got %d, want %d", tid, g, w)
		}
	}
}

// TestRunBranchTablesAndReductions checks brx.idx (also guarded), bar.red
// with a register barrier id, and labels in repeated inline-asm scopes.
func TestRunBranchTablesAndReductions(t *testing.T) {
	src := `
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<12>;
	.reg .b64 %rd<4>;
` + storeTid + `
	and.b32 %r2, %r1, 3;
	mov.u32 %r3, 0;
	ts: .branchtargets L0, L1, L2, L3;
	setp.ne.u32 %p1, %r1, 5;
	@%p1 brx.idx %r2, ts;
	mov.u32 %r3, 1000;
	bra.uni DONE;
L0:	mov.u32 %r3, 10;
	bra.uni DONE;
L1:	mov.u32 %r3, 20;
	bra.uni DONE;
L2:	mov.u32 %r3, 30;
	bra.uni DONE;
L3:	mov.u32 %r3, 40;
DONE:
	and.b32 %r4, %r1, 1;
	setp.ne.u32 %p2, %r4, 0;
	mov.u32 %r5, 2;
	bar.red.popc.u32 %r6, %r5, %p2;
	bar.red.and.pred %p3, 3, %p2;
	selp.u32 %r7, 1, 0, %p3;
	bar.red.or.pred %p3, 3, 64, !%p2;
	selp.u32 %r8, 2, 0, %p3;
	{
	.reg .pred q;
	setp.eq.u32 q, %r4, 0;
	@q bra SKIP;
	add.u32 %r3, %r3, 1;
SKIP:
	}
	{
	.reg .pred q;
	setp.eq.u32 q, %r4, 0;
	@q bra SKIP;
	add.u32 %r3, %r3, 1;
SKIP:
	}
	mul.lo.u32 %r6, %r6, 100000;
	add.u32 %r3, %r3, %r6;
	add.u32 %r3, %r3, %r7;
	add.u32 %r3, %r3, %r8;
	st.global.u32 [%rd1], %r3;
	ret;
}
`
	got := runPTX(t, src, 64, 64)
	for tid, g := range got {
		w := []uint32{10, 20, 30, 40}[tid&3]
		if tid == 5 {
			w = 1000
		}
		w += uint32(2*(tid&1)) + 32*100000 + 2 // popc of odd threads; and false; or true
		if g != w {
			t.Errorf("thread %d: got %d, want %d", tid, g, w)
		}
	}
}

// TestRunAddressSpaces checks generic accesses through the windows, cvta,
// isspacep, vector pack/unpack and initialised module data.
func TestRunAddressSpaces(t *testing.T) {
	src := `
.global .align 8 .u32 table[4] = {11, 22, 33, 44};
.global .align 8 .u64 ptr = generic(table)+8;
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	.shared .align 4 .u32 sh[64];
	.local .align 4 .b8 loc[16];
` + storeTid + `
	mov.u32 %r2, sh;
	mad.lo.u32 %r2, %r1, 4, %r2;
	cvt.u64.u32 %rd3, %r2;
	cvta.shared.u64 %rd4, %rd3;
	st.u32 [%rd4], %r1;
	mov.u64 %rd5, loc;
	cvta.local.u64 %rd6, %rd5;
	st.u32 [%rd6+4], 5;
	ld.local.u32 %r3, [loc+4];
	isspacep.shared %p1, %rd4;
	isspacep.local %p2, %rd6;
	isspacep.global %p3, %rd1;
	selp.u32 %r4, 100, 0, %p1;
	selp.u32 %r5, 200, 0, %p2;
	selp.u32 %r6, 400, 0, %p3;
	add.u32 %r3, %r3, %r4;
	add.u32 %r3, %r3, %r5;
	add.u32 %r3, %r3, %r6;
	cvta.to.shared.u64 %rd7, %rd4;
	cvt.u32.u64 %r7, %rd7;
	ld.shared.u32 %r8, [%r7];
	mul.lo.u32 %r8, %r8, 1000;
	add.u32 %r3, %r3, %r8;
	ld.global.u64 %rd8, [ptr];
	ld.u32 %r9, [%rd8];
	mul.lo.u32 %r9, %r9, 1000000;
	add.u32 %r3, %r3, %r9;
	mov.b64 %rd9, {%r1, %r3};
	mov.b64 {%r10, %r11}, %rd9;
	sub.u32 %r12, %r11, %r10;
	st.global.u32 [%rd1], %r12;
	ret;
}
`
	got := runPTX(t, src, 64, 64)
	for tid, g := range got {
		w := uint32(5+100+200+400) + uint32(tid)*1000 + 33*1000000 - uint32(tid)
		if g != w {
			t.Errorf("thread %d: got %d, want %d", tid, g, w)
		}
	}
}

// TestRunMapaOtherRankTraps checks that mapa of a rank outside the cluster
// stops the run at the mapa: a launch without clusters runs each CTA as a
// cluster of one.
func TestRunMapaOtherRankTraps(t *testing.T) {
	src := `
.visible .entry k(.param .u64 k_out)
{
	.reg .b32 %r<4>;
	.shared .align 4 .u32 x;
	mov.u32 %r1, x;
	mapa.shared::cluster.u32 %r2, %r1, 1;
	ret;
}
`
	ps, err := ptx.Compile("run.ptx", []byte(runHeader+src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = runKernel(ps[0], 32, 4, 0)
	if err == nil || !strings.Contains(err.Error(), "run.ptx:10:") || !strings.Contains(err.Error(), "mapa to CTA rank 1 of a cluster of 1 CTAs") {
		t.Fatalf("got %v, want the cluster diagnostic at run.ptx:10", err)
	}
}

// TestRunRecursion checks recursive functions: inlined as deep as the
// budget allows (enough for fib(12) here), and a call past that depth
// traps at run time, at the call.
func TestRunRecursion(t *testing.T) {
	src := `
.func (.param .b32 r) fib(.param .b32 n)
{
	.reg .pred %p;
	.reg .b32 %a<6>;
	ld.param.u32 %a1, [n];
	setp.lt.u32 %p, %a1, 2;
	@%p bra DONE;
	add.s32 %a2, %a1, -1;
	{
	.param .b32 q;
	.param .b32 s;
	st.param.b32 [q], %a2;
	call.uni (s), fib, (q);
	ld.param.b32 %a3, [s];
	}
	add.s32 %a4, %a1, -2;
	{
	.param .b32 q;
	.param .b32 s;
	st.param.b32 [q], %a4;
	call.uni (s), fib, (q);
	ld.param.b32 %a5, [s];
	}
	add.s32 %a1, %a3, %a5;
DONE:
	st.param.b32 [r], %a1;
	ret;
}
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
` + storeTid + `
	and.b32 %r2, %r1, 15;
	min.u32 %r2, %r2, 12;
	{
	.param .b32 q;
	.param .b32 s;
	st.param.b32 [q], %r2;
	call.uni (s), fib, (q);
	ld.param.b32 %r3, [s];
	}
	st.global.u32 [%rd1], %r3;
	ret;
}
`
	got := runPTX(t, src, 32, 32)
	fib := []uint32{0, 1}
	for len(fib) < 13 {
		fib = append(fib, fib[len(fib)-1]+fib[len(fib)-2])
	}
	for tid, g := range got {
		if w := fib[min(tid&15, 12)]; g != w {
			t.Errorf("thread %d: fib = %d, want %d", tid, g, w)
		}
	}
	deep := strings.Replace(src, "min.u32 %r2, %r2, 12;", "mov.u32 %r2, 40;", 1)
	ps, err := ptx.Compile("run.ptx", []byte(runHeader+deep))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := runKernel(ps[0], 32, 128, 0); err == nil || !strings.Contains(err.Error(), "nested deeper than the PTX frontend inlines") {
		t.Errorf("recursion past the inlined depth: got %v, want the recursion diagnostic", err)
	}
}

// TestRunBulkMulticastCacheHint runs a multicast bulk copy with a cache
// hint (CUTLASS and cuda::ptx spell the policy after the CTA mask): the
// mask of a cluster of one is 1, and the policy, whatever its value, is
// not taken for it.
func TestRunBulkMulticastCacheHint(t *testing.T) {
	src := `
.global .align 16 .u32 table[4] = {11, 22, 33, 44};
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<4>;
	.reg .b16 %rs<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	.shared .align 16 .u32 sh[4];
	.shared .align 8 .b64 bar;
` + storeTid + `
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra SKIP;
	mbarrier.init.shared::cta.b64 [bar], 1;
	fence.mbarrier_init.release.cluster;
	createpolicy.fractional.L2::evict_last.b64 %rd5, 1.0;
	mov.b16 %rs1, 1;
	mov.u64 %rd3, table;
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], 16;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [sh], [%rd3], 16, [bar], %rs1, %rd5;
WAIT:
	mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
	@!%p2 bra WAIT;
	ld.shared.u32 %r2, [sh+8];
	st.global.u32 [%rd1], %r2;
SKIP:
	ret;
}
`
	if got := runPTX(t, src, 32, 1); got[0] != 33 {
		t.Errorf("copied word %d, want 33", got[0])
	}
}

// TestRunMbarrierPhaseTypes runs the PTX ISA 9.3 mbarrier forms: a
// .layout::v1 barrier, a .phase_type::primary wait with its report (zero:
// nothing reported) and a .phase_type::conditional wait, which completes
// with the primary phase.
func TestRunMbarrierPhaseTypes(t *testing.T) {
	src := `
.visible .entry k(.param .u64 k_out)
{
	.reg .pred %p<8>;
	.reg .b16 %rs<4>;
	.reg .b32 %r<16>;
	.reg .b64 %rd<12>;
	.shared .align 8 .b64 bar;
` + storeTid + `
	setp.eq.u32 %p1, %r1, 0;
	@%p1 mbarrier.init.layout::v1.shared::cta.b64 [bar], 32;
	bar.sync 0;
	mbarrier.arrive.release.cta.shared::cta.b64 %rd3, [bar];
WAIT:
	mbarrier.try_wait.parity.phase_type::primary.acquire.cta.shared::cta.b64 %p2|%p3, %rs1, [bar], 0, 1000;
	@!%p2 bra WAIT;
	mbarrier.test_wait.parity.phase_type::conditional.acquire.cta.shared::cta.b64 %p4, [bar], 0;
	mbarrier.test_wait.phase_type::primary.shared::cta.b64 %p5|%p6, [bar], %rd3;
	mov.pred %p7, %is_explicit_cluster;
	mov.u64 %rd4, %current_graph_exec;
	cvt.u32.u16 %r2, %rs1;
	selp.u32 %r3, 1, 0, %p3;
	selp.u32 %r4, 10, 0, %p4;
	selp.u32 %r5, 100, 0, %p5;
	selp.u32 %r6, 1000, 0, %p6;
	selp.u32 %r7, 10000, 0, %p7;
	cvt.u32.u64 %r8, %rd4;
	add.u32 %r2, %r2, %r3;
	add.u32 %r2, %r2, %r4;
	add.u32 %r2, %r2, %r5;
	add.u32 %r2, %r2, %r6;
	add.u32 %r2, %r2, %r7;
	add.u32 %r2, %r2, %r8;
	st.global.u32 [%rd1], %r2;
	ret;
}
`
	for tid, g := range runPTX(t, src, 32, 32) {
		if g != 110 {
			t.Errorf("thread %d: got %d, want 110 (both phases complete, no report, no explicit cluster, no graph)", tid, g)
		}
	}
}
