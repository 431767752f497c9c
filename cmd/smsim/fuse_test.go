package main

import "testing"

// pipeline.cu's chain of dependent adds runs 2.26 cycles an add on the H200:
// ptxas makes each pair one IADD3 (isa.FuseAdds). The fused kernel still
// computes the same sum, and a trip of four dependent adds takes two IADD3
// latencies, not four.
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
	r := runReport(t, "run", p, "-a", "buf:8", "-b", "1", "--format", "json", "--dump", "out:u32:1")
	if got, want := r.Dumps["out"][0].(float64), float64(5+1000*4*(3+7+11+13)); got != want {
		t.Errorf("sum %v, want %v", got, want)
	}
	// 16 dependent adds a trip: eight IADD3 of 4 cycles, and the taken
	// branch's 10 after the last (the compare overlaps them): about 41 cycles
	// a trip, where 16 adds would take 73.
	if per := float64(r.Cycles) / 1000; per < 38 || per > 46 {
		t.Errorf("%.1f cycles a trip, want about 41 (eight IADD3 latencies and the branch)", per)
	}
}
