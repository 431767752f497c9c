package run_test

import "testing"

// pipeline.cu's chain of dependent adds runs 2.26 cycles an add on the H200:
// ptxas makes each pair one IADD3 (compiler.FuseAdds). The fused kernel still
// computes the same sum, in one thread and in a full warp (whose adds of a
// register and two immediates take the in-place path), and a trip of four
// dependent adds takes two IADD3 latencies, not four. The loop is kept rolled
// (.pragma "nounroll"), which ptxas would unroll as it is (an index below a
// bound: compiler.UnrollCountedLoops), so that a trip is one chain.
func TestFusedAddsComputeTheSameSumInHalfTheChain(t *testing.T) {
	const ptx = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry chain(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	.reg .pred %p<2>;
	ld.param.u64 %rd1, [out];
	mov.u32 %r1, 5;
	mov.u32 %r2, 0;
$Lloop:
	.pragma "nounroll";
	add.u32 %r1, %r1, 3;
	add.u32 %r1, %r1, 7;
	add.u32 %r1, %r1, 11;
	add.u32 %r1, %r1, 13;
	add.u32 %r1, %r1, 3;
	add.u32 %r1, %r1, 7;
	add.u32 %r1, %r1, 11;
	add.u32 %r1, %r1, 13;
	add.u32 %r1, %r1, 3;
	add.u32 %r1, %r1, 7;
	add.u32 %r1, %r1, 11;
	add.u32 %r1, %r1, 13;
	add.u32 %r1, %r1, 3;
	add.u32 %r1, %r1, 7;
	add.u32 %r1, %r1, 11;
	add.u32 %r1, %r1, 13;
	add.u32 %r2, %r2, 1;
	setp.lt.u32 %p1, %r2, 1000;
	@%p1 bra $Lloop;
	st.global.u32 [%rd1], %r1;
	ret;
}
`
	p := writeFile(t, "chain.ptx", ptx)
	for _, block := range []string{"1", "32"} {
		r := runReport(t, "run", p, "-a", "buf:8", "-b", block, "--format", "json", "--dump", "out:u32:1")
		if got, want := r.Dumps["out"][0].(float64), float64(5+1000*4*(3+7+11+13)); got != want {
			t.Errorf("%s threads: sum %v, want %v", block, got, want)
		}
		// 16 dependent adds a trip: eight IADD3 of 4 cycles, and the taken
		// branch's 10 after the last (the compare overlaps them): about 41
		// cycles a trip, where 16 adds would take 73.
		if per := float64(r.Cycles) / 1000; per < 38 || per > 46 {
			t.Errorf("%s threads: %.1f cycles a trip, want about 41 (eight IADD3 latencies and the branch)", block, per)
		}
	}
}

// A 64-to-32-bit cvt is elided (compiler.ElideNarrowingCvts): its readers read the
// 64-bit register directly and must still see only its low half.
func TestElidedNarrowingCvtKeepsTheLowHalf(t *testing.T) {
	const ptx = `.version 8.7
.target sm_90a
.address_size 64
.visible .entry lowhalf(.param .u64 out)
{
	.reg .b32 %r<8>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [out];
	mov.u64 %rd2, 0x123456789abcdef0;
	cvt.u32.u64 %r1, %rd2;
	add.u32 %r2, %r1, 16;
	cvt.u32.u64 %r3, %rd2;
	mad.wide.u32 %rd3, %r3, 3, %rd2;
	st.global.u32 [%rd1], %r2;
	st.global.u64 [%rd1+8], %rd3;
	ret;
}
`
	p := writeFile(t, "lowhalf.ptx", ptx)
	r := runReport(t, "run", p, "-a", "buf:16", "-b", "1", "--format", "json", "--dump", "out:u64:2")
	const x = uint64(0x123456789abcdef0)
	lo := x & 0xffffffff
	want0 := (lo + 16) & 0xffffffff
	want1 := lo*3 + x
	got := r.Dumps["out"]
	if len(got) != 2 {
		t.Fatalf("dump %v", got)
	}
	if g := uint64(got[0].(float64)) & 0xffffffff; g != want0 {
		t.Errorf("add.u32 of the low half = %#x, want %#x", g, want0)
	}
	if g := got[1].(float64); g != float64(want1) {
		t.Errorf("mad.wide.u32 of the low half = %v, want %#x", g, want1)
	}
}
