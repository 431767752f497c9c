package run_test

import "testing"

// §5.11: multicast mask bits were not probed on the H200. smsim simulates one
// SM whose CTAs are clusters of one, so the only mask it can honour is the
// issuing CTA's own bit: a copy with mask 0x0001 behaves as a plain bulk copy
// (and completes its barrier), any other bit is refused (TestEdge46_...).
func TestMeasured5_11_MulticastMaskOfOwnCTAIsAPlainCopy(t *testing.T) {
	ptx := `.version 8.7
.target sm_90a
.address_size 64
.visible .entry mc(.param .u64 src)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.reg .b16 %h<2>;
	.reg .pred %p<2>;
	.shared .align 128 .b8 buf[256];
	.shared .align 8 .b64 bar;
	ld.param.u64 %rd1, [src];
	mov.u32 %r1, buf;
	mov.u32 %r2, bar;
	mbarrier.init.shared::cta.b64 [%r2], 1;
	mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [%r2], 256;
	mov.b16 %h1, 1;
	cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r1], [%rd1], 256, [%r2], %h1;
$Lwait:
	mbarrier.try_wait.parity.shared::cta.b64 %p1, [%r2], 0;
	@!%p1 bra $Lwait;
	ret;
}
`
	p := writeFile(t, "mc1.ptx", ptx)
	r := runReport(t, "run", p, "-a", "buf:256", "-b", "1", "--format", "json")
	if len(r.Barriers) != 1 || len(r.Barriers[0].Phases) == 0 || r.Barriers[0].Phases[0].TxBytes != 256 {
		t.Fatalf("barriers %+v: want one phase completed by 256 bytes", r.Barriers)
	}
}
