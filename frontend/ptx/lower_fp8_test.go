package ptx

import "testing"

func TestLowerFP8(t *testing.T) {
	runLowerCases(t, []lowerCase{
		{`cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;`,
			`cvt.b16.f32 {sat rnd=1 mode=1} %rs1, %f1, %f2`},
		{`cvt.rn.satfinite.relu.e5m2x2.f16x2 %rs1, %r1;`,
			`cvt.b16.f16x2 {sat rnd=1 mode=6} %rs1, %r1`},
		{`cvt.rn.f16x2.e4m3x2 %r1, %rs1;`,
			`cvt.f16x2.b16 {rnd=1 mode=1} %r1, %rs1`},
		{`set.nan.f16.f16 %rs1, %rs2, %rs3;`,
			`set.f16.f16 {cmp=18} %rs1, %rs2, %rs3`},
		{`set.lt.u32.f16x2 %r1, %r2, %r3;`,
			`set.f16x2.u32 {cmp=3} %r1, %r2, %r3`},
	})
}
