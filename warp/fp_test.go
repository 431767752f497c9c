package warp

import (
	"math"
	"testing"

	"github.com/smsim/smsim/isa"
)

func f32b(f float32) uint64 { return uint64(math.Float32bits(f)) }
func f64b(f float64) uint64 { return math.Float64bits(f) }

func TestNarrowArithmetic(t *testing.T) {
	third := f32b(1.0 / 3)
	tests := []struct {
		name    string
		o       fop
		f       *ffmt
		a, b, c uint64
		want    uint64
	}{
		{"f32 add to nearest", fop{op: isa.OpAdd, rnd: isa.RN}, &fmtF32, f32b(1), f32b(0x1p-24), 0, f32b(1)},
		{"f32 add toward +inf", fop{op: isa.OpAdd, rnd: isa.RP}, &fmtF32, f32b(1), f32b(0x1p-30), 0, f32b(1) + 1},
		{"f32 add toward zero of a negative sum", fop{op: isa.OpAdd, rnd: isa.RZ}, &fmtF32, f32b(-1), f32b(-0x1p-30), 0, f32b(-1)},
		{"f32 add toward -inf of a negative sum", fop{op: isa.OpAdd, rnd: isa.RM}, &fmtF32, f32b(-1), f32b(-0x1p-30), 0, f32b(-1) + 1},
		{"f32 add far below the last bit still rounds up", fop{op: isa.OpAdd, rnd: isa.RP}, &fmtF32, f32b(0x1p100), f32b(0x1p-100), 0, f32b(0x1p100) + 1},
		{"f32 fma is fused", fop{op: isa.OpFma, rnd: isa.RN}, &fmtF32, third, f32b(3), f32b(-1), f32b(float32(math.FMA(float64(float32(1.0/3)), 3, -1)))},
		{"f32 div toward zero", fop{op: isa.OpDiv, rnd: isa.RZ}, &fmtF32, f32b(1), f32b(3), 0, third - 1},
		{"f32 div toward +inf", fop{op: isa.OpDiv, rnd: isa.RP}, &fmtF32, f32b(1), f32b(3), 0, third},
		{"f32 sqrt toward -inf", fop{op: isa.OpSqrt, rnd: isa.RM}, &fmtF32, f32b(2), 0, 0, f32b(float32(math.Sqrt2))},
		{"f32 overflow toward zero is the largest finite", fop{op: isa.OpMul, rnd: isa.RZ}, &fmtF32, f32b(0x1p100), f32b(0x1p100), 0, f32b(math.MaxFloat32)},
		{"f32 NaN result is canonical", fop{op: isa.OpAdd}, &fmtF32, f32b(float32(math.Inf(1))), f32b(float32(math.Inf(-1))), 0, 0x7fffffff},
		{"f32 neg of NaN is canonical", fop{op: isa.OpNeg}, &fmtF32, 0xffc00001, 0, 0, 0x7fffffff},
		{"f32 sat of NaN is zero", fop{op: isa.OpAdd, flags: isa.FSat}, &fmtF32, 0x7fc00000, f32b(1), 0, 0},
		{"f32 sat clamps", fop{op: isa.OpAdd, flags: isa.FSat}, &fmtF32, f32b(1), f32b(1), 0, f32b(1)},
		{"f32 ftz flushes a subnormal input", fop{op: isa.OpAdd, flags: isa.FFtz}, &fmtF32, 1, 0, 0, 0},
		{"f32 subnormal input kept without ftz", fop{op: isa.OpAdd}, &fmtF32, 1, 0, 0, 1},
		{"f32 min ignores one NaN", fop{op: isa.OpMin}, &fmtF32, 0x7fc00000, f32b(2), 0, f32b(2)},
		{"f32 min.NaN propagates", fop{op: isa.OpMin, flags: isa.FNaN}, &fmtF32, 0x7fc00000, f32b(2), 0, 0x7fffffff},
		{"f32 max of zeros is +0", fop{op: isa.OpMax}, &fmtF32, f32b(float32(math.Copysign(0, -1))), 0, 0, 0},
		{"f32 copysign is a bit operation", fop{op: isa.OpCopysign}, &fmtF32, 0x80000000, 0x7fc00001, 0, 0xffc00001},
		{"f16 add rounds ties to even", fop{op: isa.OpAdd}, &fmtF16, 0x3c00, 0x1000, 0, 0x3c00},
		{"f16 overflow is infinite", fop{op: isa.OpMul}, &fmtF16, 0x7bff, 0x4000, 0, 0x7c00},
		{"f16 NaN is 0x7fff", fop{op: isa.OpMul}, &fmtF16, 0x7c00, 0, 0, 0x7fff},
		{"bf16 fma", fop{op: isa.OpFma, rnd: isa.RN}, &fmtBF16, 0x3f80, 0x4000, 0x3f80, 0x4040},
	}
	for _, tt := range tests {
		if got := tt.o.narrow(tt.f, tt.a, tt.b, tt.c); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestDoubleArithmetic(t *testing.T) {
	third := 1.0 / 3
	tests := []struct {
		name    string
		o       fop
		a, b, c uint64
		want    uint64
	}{
		{"div to nearest", fop{op: isa.OpDiv, rnd: isa.RN}, f64b(1), f64b(3), 0, f64b(third)},
		{"div toward +inf", fop{op: isa.OpDiv, rnd: isa.RP}, f64b(1), f64b(3), 0, f64b(third) + 1},
		{"div toward zero", fop{op: isa.OpDiv, rnd: isa.RZ}, f64b(1), f64b(3), 0, f64b(third)},
		{"add toward +inf below the last bit", fop{op: isa.OpAdd, rnd: isa.RP}, f64b(1), f64b(0x1p-80), 0, f64b(1) + 1},
		{"sqrt toward -inf", fop{op: isa.OpSqrt, rnd: isa.RM}, f64b(2), 0, 0, f64b(math.Sqrt2) - 1},
		{"rcp overflow toward zero", fop{op: isa.OpRcp, rnd: isa.RZ}, f64b(0x1p-1070), 0, 0, f64b(math.MaxFloat64)},
		{"NaN operand propagates quieted", fop{op: isa.OpAdd}, 0x7ff0000000000001, f64b(1), 0, 0x7ff8000000000001},
		{"invalid operation", fop{op: isa.OpSqrt, rnd: isa.RN}, f64b(-1), 0, 0, f64InvalidNaN},
		{"neg keeps a NaN's sign", fop{op: isa.OpNeg}, 0x7ff0000000000001, 0, 0, 0x7ff8000000000001},
		{"add: the second NaN wins", fop{op: isa.OpAdd}, 0x7ff0000000000001, 0xfff8000000000123, 0, 0xfff8000000000123},
		{"fma: c wins over a", fop{op: isa.OpFma}, 0x7ff0000000000001, f64b(1), 0x7ff0000000000002, 0x7ff8000000000002},
		{"div: the first NaN wins", fop{op: isa.OpDiv}, 0x7ff0000000000001, 0xfff8000000000123, 0, 0x7ff8000000000001},
	}
	for _, tt := range tests {
		if got := tt.o.double(tt.a, tt.b, tt.c); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestConversions(t *testing.T) {
	cv := func(dt, st isa.Type, r isa.Rounding, f isa.Flags) *isa.Instr {
		return &isa.Instr{Op: isa.OpCvt, Type: dt, Type2: st, Rnd: r, Flags: f}
	}
	tests := []struct {
		name string
		in   *isa.Instr
		a, b uint64
		want uint64
	}{
		{"f32 to f16 toward +inf", cv(isa.F16, isa.F32, isa.RP, 0), f32b(1 + 0x1p-20), 0, 0x3c01},
		{"f32 to f16 to nearest", cv(isa.F16, isa.F32, isa.RN, 0), f32b(1 + 0x1p-20), 0, 0x3c00},
		{"f64 to f16 directly (no double rounding)", cv(isa.F16, isa.F64, isa.RN, 0), f64b(1 + 0x1p-11 + 0x1p-40), 0, 0x3c01},
		{"f64 NaN to f32", cv(isa.F32, isa.F64, isa.RN, 0), 0x7ff8000000000000, 0, 0x7fc00000},
		{"f64 NaN to f32 keeps sign and payload", cv(isa.F32, isa.F64, isa.RN, 0), 0xfff4000000000005, 0, 0xffe00000},
		{"f64 NaN to f16", cv(isa.F16, isa.F64, isa.RN, 0), 0x7ff8000000000000, 0, 0x7e00},
		{"f16 NaN to f64 keeps sign and payload", cv(isa.F64, isa.F16, isa.RNone, 0), 0xffff, 0, 0xfffffc0000000000},
		{"f16 NaN to f32 is canonical", cv(isa.F32, isa.F16, isa.RNone, 0), 0xffff, 0, 0x7fffffff},
		{"f32 NaN to f64 keeps its payload", cv(isa.F64, isa.F32, isa.RNone, 0), 0xff800001, 0, 0xfff8000020000000},
		{"bf16 to f32 is a shift", cv(isa.F32, isa.BF16, isa.RNone, 0), 0x7f81, 0, 0x7f810000},
		{"f32 pair to f16x2: first source high", cv(isa.F16x2, isa.F32, isa.RN, 0), f32b(1), f32b(2), 0x3c004000},
		{"tf32 rounds ties away", cv(isa.TF32, isa.F32, isa.RNA, 0), 0x3f801000, 0, 0x3f802000},
		{"f32 NaN to s32", cv(isa.S32, isa.F32, isa.RZI, 0), 0x7fc00000, 0, 0},
		{"f64 NaN to s32", cv(isa.S32, isa.F64, isa.RZI, 0), 0x7ff8000000000000, 0, nanF64ToI32},
		{"f32 NaN to u64", cv(isa.U64, isa.F32, isa.RZI, 0), 0x7fc00000, 0, nanToInt64},
		{"f32 to s32 saturates", cv(isa.S32, isa.F32, isa.RNI, 0), f32b(1e10), 0, math.MaxInt32},
		{"u64 to f64 toward zero", cv(isa.F64, isa.U64, isa.RZ, 0), 1<<62 + 1, 0, f64b(0x1p62)},
		{"u64 to f64 toward +inf", cv(isa.F64, isa.U64, isa.RP, 0), 1<<62 + 1, 0, f64b(0x1p62) + 1},
		{"s64 to f32 toward zero near the top", cv(isa.F32, isa.S64, isa.RZ, 0), math.MaxInt64, 0, 0x5effffff},
		{"sat of a NaN is zero", cv(isa.F32, isa.F64, isa.RN, isa.FSat), 0x7ff8000000000000, 0, 0},
		{"ftz flushes the f32 source", cv(isa.F64, isa.F32, isa.RNone, isa.FFtz), 1, 0, 0},
	}
	for _, tt := range tests {
		if got := cvtFloat(tt.in, tt.a, tt.b); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestTestp(t *testing.T) {
	mn := fmtF32.minNormal()
	for _, tt := range []struct {
		mode uint8
		x    float64
		want bool
	}{
		{0, 1, true}, {0, math.Inf(1), false}, {1, math.Inf(-1), true}, {2, math.NaN(), false},
		{3, math.NaN(), true}, {4, 0, true}, {4, 0x1p-130, false}, {5, 0x1p-130, true}, {5, 0, false},
	} {
		if got := testp(tt.mode, tt.x, mn); got != tt.want {
			t.Errorf("testp mode %d of %g = %v, want %v", tt.mode, tt.x, got, tt.want)
		}
	}
}

func TestIntegerExtensions(t *testing.T) {
	if got := divRemGPU(isa.OpRem, 5, 0, isa.S32); got != math.MaxUint64 {
		t.Errorf("rem by zero = %#x, want all ones", got)
	}
	m24 := &isa.Instr{Op: isa.OpMul24, Type: isa.S32}
	if got := uint32(mul24(m24, 0xffffff, 2, 0)); got != 0xfffffffe {
		t.Errorf("mul24.lo.s32(-1, 2) = %#x, want -2", got)
	}
	m24.Flags = isa.FHi
	if got := uint32(mul24(m24, 0x800000, 0x800000, 0)); got != 0x40000000 {
		t.Errorf("mul24.hi.s32(-2^23, -2^23) = %#x, want 2^46>>16", got)
	}
	d := &isa.Instr{Op: isa.OpDp2a, Type: isa.S32, Type2: isa.U32, Flags: isa.FHi}
	if got := dp2a(d, 0xffff0002, 0x03040000, 10); got != uint64(10+2*4-1*3) {
		t.Errorf("dp2a.hi = %d", int32(got))
	}
}

func TestFP8(t *testing.T) {
	cv := func(dt, st isa.Type, mode uint8) *isa.Instr {
		return &isa.Instr{Op: isa.OpCvt, Type: dt, Type2: st, Rnd: isa.RN, Flags: isa.FSat, Mode: mode}
	}
	tests := []struct {
		name string
		in   *isa.Instr
		a, b uint64
		want uint64
	}{
		{"e4m3 pair of 1 and -2: first source high", cv(isa.B16, isa.F32, Cvt8E4M3), f32b(1), f32b(-2), 0x38c0},
		{"e4m3 saturates", cv(isa.B16, isa.F32, Cvt8E4M3), f32b(1000), f32b(float32(math.Inf(-1))), 0x7efe},
		{"e4m3 NaN", cv(isa.B16, isa.F32, Cvt8E4M3), 0x7fc00000, 0, 0x7f00},
		{"e4m3 smallest subnormal", cv(isa.B16, isa.F32, Cvt8E4M3), 0, f32b(0x1p-9), 0x0001},
		{"e5m2 saturates infinity", cv(isa.B16, isa.F32, Cvt8E5M2), f32b(float32(math.Inf(1))), f32b(0.5), 0x7b38},
		{"e4m3 relu", cv(isa.B16, isa.F32, Cvt8E4M3|Cvt8Relu), f32b(-1), f32b(1), 0x0038},
		{"e4m3 pair to f16x2", cv(isa.F16x2, isa.B16, Cvt8E4M3), 0x38c0, 0, 0x3c00c000},
		{"e5m2 infinity to f16", cv(isa.F16x2, isa.B16, Cvt8E5M2), 0x007c, 0, 0x00007c00},
		{"f16x2 to e4m3: low half to low byte", cv(isa.B16, isa.F16x2, Cvt8E4M3), 0x3c00c000, 0, 0x38c0},
	}
	for _, tt := range tests {
		if got := cvtFloat(tt.in, tt.a, tt.b); got != tt.want {
			t.Errorf("%s: got %#x, want %#x", tt.name, got, tt.want)
		}
	}
}

func TestApproxSinOfWholeTurns(t *testing.T) {
	o := fop{op: isa.OpSin, flags: isa.FApprox}
	if got := o.narrow(&fmtF32, f32b(-5.4e11), 0, 0); got != 0x80000000 {
		t.Errorf("sin.approx(-5.4e11) = %#x, want -0 (a whole number of turns)", got)
	}
	o.op = isa.OpCos
	if got := o.narrow(&fmtF32, f32b(3e12), 0, 0); got != f32b(1) {
		t.Errorf("cos.approx(3e12) = %#x, want 1", got)
	}
}
