package ptx

import (
	"testing"

	"github.com/smsim/smsim/isa"
)

// Instruction families: each PTX snippet and its isa lowering, rendered
// with register names ({...} lists the fields that are not zero).

func TestLowerMove(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`mov.u32 %r1, %tid.x;`,
			`mov.u32 %r1, %tid.x`},
		{`mov.u64 %rd1, %clock64;`,
			`mov.u64 %rd1, %clock64`},
		{`mov.b32 %r1, 0f3F800000;`,
			`mov.b32 %r1, 0x3f800000`},
		{`mov.f64 %fd1, 0d3FF0000000000000;`,
			`mov.f64 %fd1, 0x3ff0000000000000`},
		{`mov.f32 %f1, 0d3FF0000000000000;`,
			`mov.f32 %f1, 0x3f800000`},
		{`mov.u32 %r1, sbuf;`,
			`mov.u32 %r1, 0`},
		{`mov.u64 %rd1, sbuf+8;`,
			`mov.u64 %rd1, 8`},
		{`mov.u32 %r1, dyn;`,
			`mov.u32 %r1, 64`},
		{`mov.u64 %rd1, gv;`,
			`mov.u64 %rd1, 0x10000000000`},
		{`mov.u64 %rd1, cv;`,
			`mov.u64 %rd1, 0`},
		{`mov.u64 %rd1, stack;`,
			`mov.u64 %rd1, 0`},
		{`mov.b64 %rd1, k_map;`,
			`mov.b64 %rd1, 128`},
		{`mov.pred %p1, %p2;`,
			`mov.pred %p1, %p2`},
		{`mov.b64 %rd1, {%r1, %r2};`,
			`bfi.b64 %rd1, %r2, %r1, 32, 32`},
		{`mov.b32 %r1, {%rs1, %rs2};`,
			`prmt.b32 %r1, %rs1, %rs2, 21520`},
		{`mov.b64 {%r1, %r2}, %rd1;`,
			`mov.b32 %r1, %rd1; bfe.u64 %r2, %rd1, 32, 32`},
		{`mov.b32 {%rs1, _}, %r1;`,
			`mov.b16 %rs1, %r1`},
		{`mov.b64 {%rs1, %rs2, %rs3, %rs4}, %rd1;`,
			`mov.b16 %rs1, %rd1; bfe.u64 %rs2, %rd1, 16, 16; bfe.u64 %rs3, %rd1, 32, 16; bfe.u64 %rs4, %rd1, 48, 16`},
		{`mov.b64 %rd1, {%rs1, %rs2, %rs3, %rs4};`,
			`prmt.b32 %tmp0, %rs1, %rs2, 21520; prmt.b32 %tmp1, %rs3, %rs4, 21520; bfi.b64 %rd1, %tmp1, %tmp0, 32, 32`},
	})
}

func TestLowerLoadStore(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`ld.param.u64 %rd1, [k_p0];`,
			`ld.u64 {space=param vec=1} %rd1, [0x0]`},
		{`ld.param.u32 %r1, [k_p1+0];`,
			`ld.u32 {space=param vec=1} %r1, [0x8]`},
		{`ld.global.nc.L1::no_allocate.v4.u32 {%r1, _, %r3, %r4}, [%rd1+16];`,
			`ld.u32 {space=global nc vec=4 ndst=4} %r1, _, %r3, %r4, [%rd1+16]`},
		{`ld.acquire.gpu.global.u32 %r1, [%rd1];`,
			`ld.u32 {space=global sem=3 scope=3 vec=1} %r1, [%rd1]`},
		{`ld.volatile.shared.u64 %rd1, [sbuf+8];`,
			`ld.u64 {space=shared volatile sem=7 vec=1} %rd1, [0x8]`},
		{`ld.shared::cluster.u32 %r1, [%r2];`,
			`ld.u32 {space=shared::cluster vec=1} %r1, [%r2]`},
		{`ld.local.v2.u32 {%r1, %r2}, [stack];`,
			`ld.u32 {space=local vec=2 ndst=2} %r1, %r2, [0x0]`},
		{`ld.u32 %r1, [sbuf];`,
			`ld.u32 {vec=1} %r1, [0x7e0000000000]`},
		{`ld.const.u32 %r1, [cv+4];`,
			`ld.u32 {space=const vec=1} %r1, [0x4]`},
		{`ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;`,
			`ld.u32 {space=global cachehint vec=1} %r1, [%rd1], %rd2`},
		{`ld.global.cg.u32 %r1, [%rd1];`,
			`ld.u32 {space=global l2only vec=1} %r1, [%rd1]`},
		{`ld.global.cv.u32 %r1, [%rd1];`,
			`ld.u32 {space=global l2only vec=1} %r1, [%rd1]`},
		{`ld.global.ca.u32 %r1, [%rd1];`,
			`ld.u32 {space=global vec=1} %r1, [%rd1]`},
		{`st.global.cg.u32 [%rd1], %r1;`,
			`st.u32 {space=global vec=1 ndst=0} [%rd1], %r1`},
		{`ld.global.L2::64B.b16 %rs1, [%rd1];`,
			`ld.b16 {space=global vec=1} %rs1, [%rd1]`},
		{`st.release.sys.global.v2.f32 [%rd1], {%f1, %f2};`,
			`st.f32 {space=global sem=4 scope=4 vec=2 ndst=0} [%rd1], %f1, %f2`},
		{`st.shared::cta.u32 [%r1+-4], 7;`,
			`st.u32 {space=shared vec=1 ndst=0} [%r1-4], 7`},
		{`st.global.L1::evict_last.u8 [%rd1], %r1;`,
			`st.u8 {space=global vec=1 ndst=0} [%rd1], %r1`},
	})
}

func TestLowerAtomic(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`atom.global.add.u32 %r1, [%rd1], 1;`,
			`atom.u32 {space=global atom=1} %r1, [%rd1], 1`},
		{`atom.acq_rel.gpu.shared::cta.cas.b32 %r1, [%r2], %r3, %r4;`,
			`atom.b32 {space=shared atom=10 sem=5 scope=3} %r1, [%r2], %r3, %r4`},
		{`atom.global.exch.b64 %rd1, [%rd2], %rd3;`,
			`atom.b64 {space=global atom=9} %rd1, [%rd2], %rd3`},
		{`atom.global.add.f32 %f1, [%rd1], %f2;`,
			`atom.f32 {space=global atom=1} %f1, [%rd1], %f2`},
		{`atom.global.inc.u32 %r1, [%rd1], 17;`,
			`atom.u32 {space=global atom=4} %r1, [%rd1], 17`},
		{`red.global.add.f64 [%rd1], %fd1;`,
			`red.f64 {space=global atom=1 ndst=0} [%rd1], %fd1`},
		{`red.relaxed.gpu.global.max.s32 [%rd1], %r1;`,
			`red.s32 {space=global atom=3 sem=2 scope=3 ndst=0} [%rd1], %r1`},
		{`atom.global.add.L2::cache_hint.u64 %rd1, [%rd2], 1, %rd3;`,
			`atom.u64 {space=global cachehint atom=1} %rd1, [%rd2], 1, %rd3`},
	})
}

func TestLowerInteger(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`add.s32 %r1, %r2, -1;`,
			`add.s32 %r1, %r2, 0xffffffffffffffff`},
		{`add.sat.s32 %r1, %r2, %r3;`,
			`add.s32 {sat} %r1, %r2, %r3`},
		{`add.cc.u32 %r1, %r2, %r3;`,
			`add.u32 {cc} %r1, %r2, %r3`},
		{`addc.cc.u32 %r1, %r2, %r3;`,
			`add.u32 {cc carryin} %r1, %r2, %r3`},
		{`subc.u64 %rd1, %rd2, %rd3;`,
			`sub.u64 {carryin} %rd1, %rd2, %rd3`},
		{`mul.wide.s32 %rd1, %r1, 8;`,
			`mul.s32 {wide} %rd1, %r1, 8`},
		{`mul.hi.u64 %rd1, %rd2, %rd3;`,
			`mul.u64 {hi} %rd1, %rd2, %rd3`},
		{`mad.lo.cc.u32 %r1, %r2, %r3, %r4;`,
			`mad.u32 {lo cc} %r1, %r2, %r3, %r4`},
		{`madc.hi.u32 %r1, %r2, %r3, %r4;`,
			`mad.u32 {hi carryin} %r1, %r2, %r3, %r4`},
		{`mad.wide.u32 %rd1, %r1, %r2, %rd2;`,
			`mad.u32 {wide} %rd1, %r1, %r2, %rd2`},
		{`mad.hi.sat.s32 %r1, %r2, %r3, %r4;`,
			`mad.s32 {sat hi} %r1, %r2, %r3, %r4`},
		{`mul24.hi.s32 %r1, %r2, %r3;`,
			`mul24.s32 {hi} %r1, %r2, %r3`},
		{`sad.u32 %r1, %r2, %r3, %r4;`,
			`sad.u32 %r1, %r2, %r3, %r4`},
		{`div.s64 %rd1, %rd2, %rd3;`,
			`div.s64 %rd1, %rd2, %rd3`},
		{`max.relu.s32 %r1, %r2, %r3;`,
			`max.s32 %r1, %r2, %r3; max.s32 %r1, %r1, 0`},
		{`add.u16x2 %r1, %r2, %r3;`,
			`add.u16 %tmp0, %r2, %r3; shr.u32 %tmp2, %r2, 16; shr.u32 %tmp3, %r3, 16; add.u16 %tmp1, %tmp2, %tmp3; prmt.b32 %r1, %tmp0, %tmp1, 21520`},
		{`min.relu.s16x2 %r1, %r2, %r3;`,
			`min.s16 %tmp0, %r2, %r3; shr.u32 %tmp2, %r2, 16; shr.u32 %tmp3, %r3, 16; min.s16 %tmp1, %tmp2, %tmp3; max.s16 %tmp0, %tmp0, 0; max.s16 %tmp1, %tmp1, 0; prmt.b32 %r1, %tmp0, %tmp1, 21520`},
		{`popc.b64 %r1, %rd1;`,
			`popc.b64 %r1, %rd1`},
		{`bfind.shiftamt.u32 %r1, %r2;`,
			`bfind.u32 {shiftamt} %r1, %r2`},
		{`bfe.s32 %r1, %r2, 8, 4;`,
			`bfe.s32 %r1, %r2, 8, 4`},
		{`bfi.b64 %rd1, %rd2, %rd3, %r1, 16;`,
			`bfi.b64 %rd1, %rd2, %rd3, %r1, 16`},
		{`prmt.b32.rc16 %r1, %r2, %r3, %r4;`,
			`prmt.b32 {mode=6} %r1, %r2, %r3, %r4`},
		{`prmt.b32 %r1, %r2, 0, 0x3210;`,
			`prmt.b32 %r1, %r2, 0, 12816`},
		{`shf.r.clamp.b32 %r1, %r2, %r3, %r4;`,
			`shf.b32 {clamp mode=1} %r1, %r2, %r3, %r4`},
		{`shf.l.wrap.b32 %r1, %r2, %r3, 7;`,
			`shf.b32 %r1, %r2, %r3, 7`},
		{`lop3.b32 %r1, %r2, %r3, %r4, 0x96;`,
			`lop3.b32 %r1, %r2, %r3, %r4, 150`},
		{`dp4a.s32.u32 %r1, %r2, %r3, %r4;`,
			`dp4a.s32.u32 %r1, %r2, %r3, %r4`},
		{`dp2a.hi.u32.s32 %r1, %r2, %r3, %r4;`,
			`dp2a.u32.s32 {hi} %r1, %r2, %r3, %r4`},
		{`and.pred %p1, %p2, !%p3;`,
			`and.pred %p1, %p2, !%p3`},
		{`xor.pred %p1, %p1, -1;`, // nvcc's negation (libcu++'s barrier wait loop)
			`xor.pred %p1, %p1, 1`},
		{`and.pred %p1, %p2, 0;`,
			`and.pred %p1, %p2, 0`},
		{`not.b32 %r1, %r2;`,
			`not.b32 %r1, %r2`},
		{`cnot.b64 %rd1, %rd2;`,
			`cnot.b64 %rd1, %rd2`},
		{`shr.s16 %rs1, %rs2, 3;`,
			`shr.s16 %rs1, %rs2, 3`},
		{`vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;`,
			`mov.b32 %tmp3, %r4; bfe.u32 %tmp0, %r2, 0, 8; bfe.u32 %tmp1, %r3, 0, 8; sad.s32 %tmp2, %tmp0, %tmp1, 0; add.u32 %tmp3, %tmp3, %tmp2; bfe.u32 %tmp0, %r2, 8, 8; bfe.u32 %tmp1, %r3, 8, 8; sad.s32 %tmp2, %tmp0, %tmp1, 0; add.u32 %tmp3, %tmp3, %tmp2; bfe.u32 %tmp0, %r2, 16, 8; bfe.u32 %tmp1, %r3, 16, 8; sad.s32 %tmp2, %tmp0, %tmp1, 0; add.u32 %tmp3, %tmp3, %tmp2; bfe.u32 %tmp0, %r2, 24, 8; bfe.u32 %tmp1, %r3, 24, 8; sad.s32 %tmp2, %tmp0, %tmp1, 0; add.u32 %tmp3, %tmp3, %tmp2; mov.b32 %r1, %tmp3`},
	})
}

func TestLowerFloat(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`add.rz.ftz.sat.f32 %f1, %f2, %f3;`,
			`add.f32 {sat ftz rnd=2} %f1, %f2, %f3`},
		{`fma.rn.f64 %fd1, %fd2, %fd3, %fd4;`,
			`fma.f64 {rnd=1} %fd1, %fd2, %fd3, %fd4`},
		{`fma.rn.relu.bf16x2 %r1, %r2, %r3, %r4;`,
			`fma.bf16x2 {rnd=1} %r1, %r2, %r3, %r4; max.bf16x2 {nan} %r1, %r1, 0`},
		{`mul.rn.f16 %rs1, %rs2, %rs3;`,
			`mul.f16 {rnd=1} %rs1, %rs2, %rs3`},
		{`div.approx.ftz.f32 %f1, %f2, %f3;`,
			`div.f32 {ftz approx} %f1, %f2, %f3`},
		{`div.full.f32 %f1, %f2, %f3;`,
			`div.f32 {approx full} %f1, %f2, %f3`},
		{`div.rp.f64 %fd1, %fd2, %fd3;`,
			`div.f64 {rnd=4} %fd1, %fd2, %fd3`},
		{`rcp.approx.ftz.f64 %fd1, %fd2;`,
			`rcp.f64 {ftz approx} %fd1, %fd2`},
		{`sqrt.rn.f32 %f1, %f2;`,
			`sqrt.f32 {rnd=1} %f1, %f2`},
		{`ex2.approx.ftz.bf16x2 %r1, %r2;`,
			`ex2.bf16x2 {ftz approx} %r1, %r2`},
		{`min.NaN.f32 %f1, %f2, %f3;`,
			`min.f32 {nan} %f1, %f2, %f3`},
		{`abs.ftz.f32 %f1, %f2;`,
			`abs.f32 {ftz} %f1, %f2`},
		{`neg.f64 %fd1, %fd2;`,
			`neg.f64 %fd1, %fd2`},
		{`copysign.f32 %f1, %f2, %f3;`,
			`copysign.f32 %f1, %f2, %f3`},
	})
}

func TestLowerCompare(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`testp.subnormal.f64 %p1, %fd1;`,
			`testp.f64 {mode=5} %p1, %fd1`},
		{`setp.lt.and.ftz.f32 %p1|%p2, %f1, %f2, !%p3;`,
			`setp.f32 {ftz cmp=3 bool=1 ndst=2} %p1, %p2, %f1, %f2, !%p3`},
		{`setp.hs.u64 %p1, %rd1, %rd2;`,
			`setp.u64 {cmp=10} %p1, %rd1, %rd2`},
		{`setp.neu.f16x2 %p1|%p2, %r1, %r2;`,
			`setp.f16x2 {cmp=12 ndst=2} %p1, %p2, %r1, %r2`},
		{`set.gt.or.f32.s32 %r1, %r2, %r3, %p1;`,
			`set.s32.f32 {f32res cmp=5 bool=2} %r1, %r2, %r3, %p1`},
		{`selp.b64 %rd1, %rd2, 0, %p1;`,
			`selp.b64 %rd1, %rd2, 0, %p1`},
		{`slct.ftz.u32.f32 %r1, %r2, %r3, %f1;`,
			`slct.u32.f32 {ftz} %r1, %r2, %r3, %f1`},
	})
}

func TestLowerConvert(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`cvt.rzi.s32.f32 %r1, %f1;`,
			`cvt.s32.f32 {rnd=7} %r1, %f1`},
		{`cvt.rn.f32.s64 %f1, %rd1;`,
			`cvt.f32.s64 {rnd=1} %f1, %rd1`},
		{`cvt.sat.s8.s32 %r1, %r2;`,
			`cvt.s8.s32 {sat} %r1, %r2; cvt.s32.s8 %r1, %r1`},
		{`cvt.s16.s8 %rs1, %rs2;`,
			`cvt.s16.s8 %rs1, %rs2`},
		{`cvt.u64.u32 %rd1, %r1;`,
			`cvt.u64.u32 %rd1, %r1`},
		{`cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;`,
			`cvt.f16x2.f32 {rnd=1} %r1, %f1, %f2; max.f16x2 {nan} %r1, %r1, 0`},
		{`cvt.rna.tf32.f32 %r1, %f1;`,
			`cvt.tf32.f32 {rnd=5} %r1, %f1`},
		{`cvt.rni.ftz.f32.f32 %f1, %f2;`,
			`cvt.f32.f32 {ftz rnd=6} %f1, %f2`},
		{`cvt.f32.bf16 %f1, %rs1;`,
			`cvt.f32.bf16 %f1, %rs1`},
	})
}

func TestLowerAddress(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`cvta.to.global.u64 %rd1, %rd2;`,
			`mov.u64 %rd1, %rd2`},
		{`cvta.shared.u64 %rd1, %rd2;`,
			`add.u64 %rd1, %rd2, 0x7e0000000000`},
		{`cvta.to.shared.u64 %rd1, %rd2;`,
			`sub.u64 %rd1, %rd2, 0x7e0000000000`},
		{`cvta.local.u64 %rd1, %rd2;`,
			`add.u64 %rd1, %rd2, 0x7f0000000000`},
		{`cvta.param.u64 %rd1, %rd2;`,
			`add.u64 %rd1, %rd2, 0x7d0000000000`},
		{`cvta.const.u64 %rd1, %rd2;`,
			`add.u64 %rd1, %rd2, 0x20000000000`},
		{`cvta.to.shared.u32 %r1, %rd2;`,
			`sub.u32 %r1, %rd2, 0x7e0000000000`},
		{`isspacep.shared %p1, %rd1;`,
			`setp.u64 {cmp=10} %p1, %rd1, 0x7e0000000000; setp.u64 {cmp=7 bool=1} %p1, %rd1, 0x7f0000000000, %p1`},
		{`isspacep.global %p1, %rd1;`,
			`setp.u64 {cmp=7} %p1, %rd1, 0x20000000000; setp.u64 {cmp=10} %ptmp0, %rd1, 0x30000000000; setp.u64 {cmp=7 bool=1} %ptmp0, %rd1, 0x7d0000000000, %ptmp0; or.pred %p1, %p1, %ptmp0; setp.u64 {cmp=10 bool=2} %p1, %rd1, 0x800000000000, %p1`},
		{`mapa.shared::cluster.u32 %r1, %r2, %r3;`,
			`mapa.u32 {space=shared::cluster} %r1, %r2, %r3`},
		{`getctarank.shared::cluster.u32 %r1, %r2;`,
			`mapa.u32 {space=shared::cluster mode=1} %r1, %r2`},
	})
}

func TestLowerNounrollPragmaMarksTheLoopHead(t *testing.T) {
	p := lowerSnippet(t, "add.s32 %r1, %r1, 1;\n$L_head:\n.pragma \"nounroll\";\nadd.s32 %r2, %r2, 1;\nadd.s32 %r3, %r3, 1;")
	var marked []int
	for i := range p.Instrs {
		if p.Instrs[i].Source.Has(isa.HintNoUnroll) {
			marked = append(marked, i)
		}
	}
	if len(marked) != 1 || marked[0] != 1 {
		t.Fatalf("nounroll on instructions %v, want [1] (the first after the pragma)", marked)
	}
}
