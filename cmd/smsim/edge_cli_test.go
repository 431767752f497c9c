package main

import (
	"strings"
	"testing"
)

// Edge cases of mbarrier-semantics.md §4 that the command line reports:
// the exit status and the one line it prints (edge_test.go in package run
// has the rest).

// §4 F46: multicast to other CTAs of the cluster: smsim simulates one SM, whose
// CTAs are clusters of one, and says so instead of dropping the copy.
func TestEdge46_MulticastBeyondThisCTAIsRefusedClearly(t *testing.T) {
	ptx := `.version 8.7
.target sm_90a
.address_size 64
.visible .entry mc(.param .u64 src)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.reg .b16 %h<2>;
	.shared .align 128 .b8 buf[256];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [src];
	mov.u32 %r1, buf;
	mov.u32 %r2, bar;
	mbarrier.init.shared::cta.b64 [%r2], 1;
	mov.b16 %h1, 5;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 256, [%r2], %h1;
	ret;
}
`
	p := writeFile(t, "mc.ptx", ptx)
	code, _, errs := cli(t, "run", p, "-a", "buf:256")
	if code != exitMisuse || !strings.Contains(errs, "mc.ptx:16:") || !strings.Contains(errs, "the cluster has 1 CTAs") {
		t.Errorf("got exit %d, stderr %q; want a misuse at mc.ptx:16 naming the cluster of one", code, errs)
	}
}

// §4 B16: an arrive through a .shared::cluster address that mapa made for
// this CTA's own rank decrements this CTA's barrier; an address of another
// CTA of the cluster is refused clearly (a launch without clusters runs
// each CTA as a cluster of one).
func TestEdge16_RemoteArriveThroughMapa(t *testing.T) {
	ptx := `.version 8.7
.target sm_90a
.address_size 64
.visible .entry remote(.param .u32 rank, .param .u64 out)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	.shared .align 8 .b64 bar;
	ld.param.u32 %r5, [rank];
	ld.param.u64 %rd2, [out];
	mov.u32 %r1, bar;
	mbarrier.init.shared::cta.b64 [%r1], 1;
	mapa.shared::cluster.u32 %r2, %r1, %r5;
	mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r2];
	mbarrier.test_wait.parity.shared::cta.b64 %p1, [%r1], 0;
	selp.u32 %r3, 1, 0, %p1;
	st.global.u32 [%rd2], %r3;
	ret;
}
`
	p := writeFile(t, "remote.ptx", ptx)
	code, out, errs := cli(t, "run", p, "-b", "1", "-a", "0", "-a", "buf:4", "--dump", "1:u32:1", "-o", "json")
	if code != 0 || !strings.Contains(out, `"1": [`) {
		t.Fatalf("own rank: exit %d, %s %s", code, errs, out)
	}
	if !strings.Contains(strings.ReplaceAll(out, " ", ""), "\"1\":[\n1\n]") {
		t.Errorf("own rank: the remote arrive did not complete the phase: %s", out)
	}
	code, _, errs = cli(t, "run", p, "-b", "1", "-a", "1", "-a", "buf:4")
	if code != exitMisuse || !strings.Contains(errs, "remote.ptx:14:") || !strings.Contains(errs, "mapa to CTA rank 1 of a cluster of 1 CTAs") {
		t.Errorf("rank 1: got exit %d, %q; want the cluster diagnostic at the mapa", code, errs)
	}
}

// §4 F47: a shared::cta -> shared::cluster bulk copy must target another CTA;
// into the CTA's own shared memory it is misuse, reported at the instruction.
func TestEdge47_SharedToSharedClusterCopyIsRefused(t *testing.T) {
	ptx := `.version 8.7
.target sm_90a
.address_size 64
.visible .entry s2s()
{
	.reg .b32 %r<4>;
	.shared .align 128 .b8 a[256];
	.shared .align 128 .b8 b[256];
	.shared .align 8 .b64 bar;
	mov.u32 %r1, a;
	mov.u32 %r2, b;
	mov.u32 %r3, bar;
	cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r2], [%r1], 256, [%r3];
	ret;
}
`
	p := writeFile(t, "s2s.ptx", ptx)
	code, _, errs := cli(t, "run", p, "-b", "1")
	if code == 0 || !strings.Contains(errs, "s2s.ptx:13:") {
		t.Errorf("got exit %d, %q; want an error at s2s.ptx:13", code, errs)
	}
}

// §4 F52: a tensor map in global memory rewritten by ordinary stores after a
// use, and used again without fence.proxy.tensormap, is reported; with the
// fence it runs.
func TestEdge52_RewrittenTensorMapWithoutFenceIsReported(t *testing.T) {
	ptx := `.version 8.7
.target sm_90a
.address_size 64
.visible .entry remap(.param .align 64 .b8 m[128], .param .u64 g)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<12>;
	.shared .align 128 .b8 tile[2048];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [g];
	mov.u32 %r7, 0;
COPY:
	cvt.u64.u32 %rd2, %r7;
	ld.param.u64 %rd3, [m];
	mov.b64 %rd4, m;
	add.u64 %rd5, %rd4, %rd2;
	ld.param.u64 %rd6, [%rd5];
	add.u64 %rd7, %rd1, %rd2;
	st.global.u64 [%rd7], %rd6;
	add.u32 %r7, %r7, 8;
	setp.lt.u32 %p1, %r7, 128;
	@%p1 bra COPY;
	mov.u32 %r1, tile;
	mov.u32 %r2, bar;
	mbarrier.init.shared::cta.b64 [%r2], 1;
	mov.u32 %r3, 0;
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 2048;
	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r3, %r3}], [%r2];
W1:
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;
	@!%p1 bra W1;
	st.global.u64 [%rd1+64], %rd6;
	FENCE
	mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 2048;
	cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r3, %r3}], [%r2];
W2:
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 1;
	@!%p1 bra W2;
	ret;
}
`
	args := []string{"-b", "1", "-a", "tensormap:f16,64x64,box=32x32", "-a", "buf:128"}
	p := writeFile(t, "remap.ptx", strings.Replace(ptx, "FENCE", "", 1))
	code, _, errs := cli(t, append([]string{"run", p}, args...)...)
	if code != exitMisuse || !strings.Contains(errs, "[§4 #52]") {
		t.Errorf("without the fence: got exit %d, %q; want the stale-map diagnostic", code, errs)
	}
	p = writeFile(t, "remap2.ptx", strings.Replace(ptx, "FENCE", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;", 1))
	if code, _, errs = cli(t, append([]string{"run", p}, args...)...); code != 0 {
		t.Errorf("with the fence: exit %d, %q", code, errs)
	}
}
