// Double-precision arithmetic, comparisons and conversions.
#include "conf.h"

#define SETP(c) "{.reg .pred p; setp." c ".f64 p, %1, %2; selp.u64 %0, 1, 0, p;}"
#define TESTP(c) "{.reg .pred p; testp." c ".f64 p, %1; selp.u64 %0, 1, 0, p;}"
#define TO32(op) "{.reg .b32 t; " op " t, %1; cvt.u64.u32 %0, t;}"
#define TO16(op) "{.reg .b16 h; " op " h, %1; cvt.u64.u16 %0, h;}"

#define F64_OPS(X) \
  X("mov.b64 %0, %1;") X("mov.b64 %0, %2;") X("mov.b64 %0, %3;") \
  X("add.rn.f64 %0, %1, %2;") X("add.rz.f64 %0, %1, %2;") X("add.rm.f64 %0, %1, %2;") X("add.rp.f64 %0, %1, %2;") \
  X("sub.rn.f64 %0, %1, %2;") X("sub.rz.f64 %0, %1, %2;") \
  X("mul.rn.f64 %0, %1, %2;") X("mul.rz.f64 %0, %1, %2;") X("mul.rm.f64 %0, %1, %2;") X("mul.rp.f64 %0, %1, %2;") \
  X("fma.rn.f64 %0, %1, %2, %3;") X("fma.rz.f64 %0, %1, %2, %3;") X("fma.rm.f64 %0, %1, %2, %3;") \
  X("fma.rp.f64 %0, %1, %2, %3;") X("mad.rn.f64 %0, %1, %2, %3;") \
  X("div.rn.f64 %0, %1, %2;") X("div.rz.f64 %0, %1, %2;") X("div.rm.f64 %0, %1, %2;") X("div.rp.f64 %0, %1, %2;") \
  X("rcp.rn.f64 %0, %1;") X("rcp.rz.f64 %0, %1;") X("rcp.rm.f64 %0, %1;") X("rcp.rp.f64 %0, %1;") \
  X("rcp.approx.ftz.f64 %0, %1;") \
  X("sqrt.rn.f64 %0, %1;") X("sqrt.rz.f64 %0, %1;") X("sqrt.rm.f64 %0, %1;") X("sqrt.rp.f64 %0, %1;") \
  X("rsqrt.approx.f64 %0, %1;") X("rsqrt.approx.ftz.f64 %0, %1;") \
  X("min.f64 %0, %1, %2;") X("max.f64 %0, %1, %2;") X("abs.f64 %0, %1;") X("neg.f64 %0, %1;") \
  X("copysign.f64 %0, %1, %2;") \
  X(TESTP("finite")) X(TESTP("infinite")) X(TESTP("number")) X(TESTP("notanumber")) X(TESTP("normal")) \
  X(TESTP("subnormal")) \
  X(SETP("eq")) X(SETP("ne")) X(SETP("lt")) X(SETP("ge")) X(SETP("equ")) X(SETP("neu")) X(SETP("ltu")) \
  X(SETP("nan")) X(SETP("num")) \
  X(TO32("cvt.rn.f32.f64")) X(TO32("cvt.rz.f32.f64")) X(TO32("cvt.rm.f32.f64")) X(TO32("cvt.rp.f32.f64")) \
  X(TO32("cvt.rn.ftz.f32.f64")) X(TO32("cvt.rn.sat.f32.f64")) \
  X(TO32("cvt.rni.s32.f64")) X(TO32("cvt.rzi.s32.f64")) X(TO32("cvt.rmi.u32.f64")) X(TO32("cvt.rpi.s32.f64")) \
  X("cvt.rzi.s64.f64 %0, %1;") X("cvt.rni.u64.f64 %0, %1;") X("cvt.rmi.s64.f64 %0, %1;") X("cvt.rpi.u64.f64 %0, %1;") \
  X("cvt.rni.f64.f64 %0, %1;") X("cvt.rzi.f64.f64 %0, %1;") X("cvt.rmi.f64.f64 %0, %1;") X("cvt.rpi.f64.f64 %0, %1;") \
  X(TO16("cvt.rn.f16.f64")) X(TO16("cvt.rz.f16.f64")) X(TO16("cvt.rm.f16.f64")) X(TO16("cvt.rp.f16.f64")) \
  X("{.reg .b32 lo, hi; mov.b64 {lo, hi}, %1; mov.b64 %0, {hi, lo};}")

#define OP_L(s) { uint64_t o; asm volatile(s : "=l"(o) : "l"(a), "l"(b), "l"(c)); out[(i++) * N + t] = o; }

__global__ void k_f64(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint64_t a = gen_f64(t, 0), b = gen_f64(t, 1), c = gen_f64(t, 2);
  F64_OPS(OP_L)
}

static const char* const texts[] = {F64_OPS(TEXT)};

int main() {
  dump("k_f64", k_f64, 0 F64_OPS(COUNT), texts);
  return 0;
}
