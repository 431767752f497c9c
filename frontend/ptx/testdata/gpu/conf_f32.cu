// Single-precision arithmetic, comparisons and conversions.
#include "conf.h"

#define SETP(c) "{.reg .pred p; setp." c ".f32 p, %1, %2; selp.u32 %0, 1, 0, p;}"
#define TESTP(c) "{.reg .pred p; testp." c ".f32 p, %1; selp.u32 %0, 1, 0, p;}"
#define TO16(op) "{.reg .b16 h; " op " h, %1; cvt.u32.u16 %0, h;}"
#define R4(op) op ".f32 %0, %1, %2;"

#define F32_OPS(X) \
  X("mov.b32 %0, %1;") X("mov.b32 %0, %2;") X("mov.b32 %0, %3;") \
  X("add.rn.f32 %0, %1, %2;") X("add.rz.f32 %0, %1, %2;") X("add.rm.f32 %0, %1, %2;") X("add.rp.f32 %0, %1, %2;") \
  X("add.f32 %0, %1, %2;") X("sub.rn.f32 %0, %1, %2;") X("sub.rz.f32 %0, %1, %2;") X("sub.rp.f32 %0, %1, %2;") \
  X("mul.rn.f32 %0, %1, %2;") X("mul.rz.f32 %0, %1, %2;") X("mul.rm.f32 %0, %1, %2;") X("mul.rp.f32 %0, %1, %2;") \
  X("fma.rn.f32 %0, %1, %2, %3;") X("fma.rz.f32 %0, %1, %2, %3;") X("fma.rm.f32 %0, %1, %2, %3;") \
  X("fma.rp.f32 %0, %1, %2, %3;") X("mad.rn.f32 %0, %1, %2, %3;") \
  X("add.ftz.f32 %0, %1, %2;") X("mul.ftz.f32 %0, %1, %2;") X("fma.rn.ftz.f32 %0, %1, %2, %3;") \
  X("add.sat.f32 %0, %1, %2;") X("fma.rn.sat.f32 %0, %1, %2, %3;") X("mul.rz.ftz.sat.f32 %0, %1, %2;") \
  X("div.rn.f32 %0, %1, %2;") X("div.rz.f32 %0, %1, %2;") X("div.rm.f32 %0, %1, %2;") X("div.rp.f32 %0, %1, %2;") \
  X("div.rn.ftz.f32 %0, %1, %2;") X("div.full.f32 %0, %1, %2;") X("div.approx.f32 %0, %1, %2;") \
  X("div.approx.ftz.f32 %0, %1, %2;") \
  X("rcp.rn.f32 %0, %1;") X("rcp.rz.f32 %0, %1;") X("rcp.rm.f32 %0, %1;") X("rcp.rp.f32 %0, %1;") \
  X("rcp.approx.f32 %0, %1;") X("rcp.approx.ftz.f32 %0, %1;") \
  X("sqrt.rn.f32 %0, %1;") X("sqrt.rz.f32 %0, %1;") X("sqrt.rm.f32 %0, %1;") X("sqrt.rp.f32 %0, %1;") \
  X("sqrt.approx.f32 %0, %1;") X("rsqrt.approx.f32 %0, %1;") X("rsqrt.approx.ftz.f32 %0, %1;") \
  X("sin.approx.f32 %0, %1;") X("cos.approx.f32 %0, %1;") X("lg2.approx.f32 %0, %1;") X("ex2.approx.f32 %0, %1;") \
  X("ex2.approx.ftz.f32 %0, %1;") X("tanh.approx.f32 %0, %1;") \
  X("min.f32 %0, %1, %2;") X("max.f32 %0, %1, %2;") X("min.NaN.f32 %0, %1, %2;") X("max.NaN.f32 %0, %1, %2;") \
  X("min.ftz.f32 %0, %1, %2;") X("abs.f32 %0, %1;") X("neg.f32 %0, %1;") X("abs.ftz.f32 %0, %1;") \
  X("neg.ftz.f32 %0, %1;") X("copysign.f32 %0, %1, %2;") \
  X(TESTP("finite")) X(TESTP("infinite")) X(TESTP("number")) X(TESTP("notanumber")) X(TESTP("normal")) \
  X(TESTP("subnormal")) \
  X(SETP("eq")) X(SETP("ne")) X(SETP("lt")) X(SETP("le")) X(SETP("gt")) X(SETP("ge")) X(SETP("equ")) \
  X(SETP("neu")) X(SETP("ltu")) X(SETP("leu")) X(SETP("gtu")) X(SETP("geu")) X(SETP("num")) X(SETP("nan")) \
  X(SETP("lt.ftz")) X(SETP("eq.ftz")) \
  X("set.lt.f32.f32 %0, %1, %2;") X("set.gtu.u32.f32 %0, %1, %2;") X("set.ge.ftz.s32.f32 %0, %1, %2;") \
  X("slct.f32.f32 %0, %1, %2, %3;") X("slct.ftz.u32.f32 %0, %1, %2, %3;") \
  X("{.reg .pred p; setp.lt.f32 p, %2, %3; selp.f32 %0, %1, 0f3F800000, p;}") \
  X("cvt.rni.s32.f32 %0, %1;") X("cvt.rzi.s32.f32 %0, %1;") X("cvt.rmi.s32.f32 %0, %1;") X("cvt.rpi.s32.f32 %0, %1;") \
  X("cvt.rzi.u32.f32 %0, %1;") X("cvt.rni.u32.f32 %0, %1;") X("cvt.rzi.s16.f32 %0, %1;") X("cvt.rzi.u8.f32 %0, %1;") \
  X("cvt.rzi.ftz.s32.f32 %0, %1;") \
  X("cvt.rni.f32.f32 %0, %1;") X("cvt.rzi.f32.f32 %0, %1;") X("cvt.rmi.f32.f32 %0, %1;") X("cvt.rpi.f32.f32 %0, %1;") \
  X("cvt.rni.ftz.f32.f32 %0, %1;") \
  X(TO16("cvt.rn.f16.f32")) X(TO16("cvt.rz.f16.f32")) X(TO16("cvt.rm.f16.f32")) X(TO16("cvt.rp.f16.f32")) \
  X(TO16("cvt.rn.relu.f16.f32")) X(TO16("cvt.rn.bf16.f32")) X(TO16("cvt.rz.bf16.f32")) X(TO16("cvt.rn.relu.bf16.f32")) \
  X("cvt.rn.f16x2.f32 %0, %1, %2;") X("cvt.rn.bf16x2.f32 %0, %1, %2;") X("cvt.rn.relu.f16x2.f32 %0, %1, %2;") \
  X("cvt.rz.bf16x2.f32 %0, %1, %2;") X("cvt.rna.tf32.f32 %0, %1;") \
  X("{.reg .b16 h; cvt.rn.f16.f32 h, %1; cvt.f32.f16 %0, h;}") \
  X("{.reg .b16 h; cvt.rn.bf16.f32 h, %1; cvt.f32.bf16 %0, h;}")

#define F32L_OPS(X) \
  X("cvt.rzi.s64.f32 %0, %1;") X("cvt.rni.u64.f32 %0, %1;") X("cvt.rmi.s64.f32 %0, %1;") X("cvt.rpi.u64.f32 %0, %1;") \
  X("cvt.f64.f32 %0, %1;") X("cvt.ftz.f64.f32 %0, %1;")

#define OP_R(s) { uint32_t o; asm volatile(s : "=r"(o) : "r"(a), "r"(b), "r"(c)); out[(i++) * N + t] = o; }
#define OP_LR(s) { uint64_t o; asm volatile(s : "=l"(o) : "r"(a), "r"(b), "r"(c)); out[(i++) * N + t] = o; }

__global__ void k_f32(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = gen_f32(t, 0), b = gen_f32(t, 1), c = gen_f32(t, 2);
  F32_OPS(OP_R)
}

__global__ void k_f32l(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = gen_f32(t, 0), b = gen_f32(t, 1), c = gen_f32(t, 2);
  F32L_OPS(OP_LR)
}

static const char* const texts[] = {F32_OPS(TEXT)};
static const char* const ltexts[] = {F32L_OPS(TEXT)};

int main() {
  dump("k_f32", k_f32, 0 F32_OPS(COUNT), texts);
  dump("k_f32l", k_f32l, 0 F32L_OPS(COUNT), ltexts);
  return 0;
}
