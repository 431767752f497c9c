// Half-precision (f16 and bf16) scalar and packed instructions. Inputs are
// 32-bit words of two independent 16-bit patterns; scalar ops use the low half.
#include "conf.h"

#define S2(op) "{.reg .b16 x, y, d; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; " op " d, x, y; cvt.u32.u16 %0, d;}"
#define S3(op) "{.reg .b16 x, y, z, d; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; cvt.u16.u32 z, %3; " op " d, x, y, z; cvt.u32.u16 %0, d;}"
#define S1(op) "{.reg .b16 x, d; cvt.u16.u32 x, %1; " op " d, x; cvt.u32.u16 %0, d;}"
#define SP(op) "{.reg .b16 x, y; .reg .pred p; cvt.u16.u32 x, %1; cvt.u16.u32 y, %2; " op " p, x, y; selp.u32 %0, 1, 0, p;}"
#define P2(op) op " %0, %1, %2;"
#define P3(op) op " %0, %1, %2, %3;"
#define P1(op) op " %0, %1;"
#define PP(op) "{.reg .pred p, q; .reg .b32 t; " op " p|q, %1, %2; selp.u32 %0, 1, 0, p; selp.u32 t, 2, 0, q; or.b32 %0, %0, t;}"

#define H_OPS(X) \
  X("mov.b32 %0, %1;") X("mov.b32 %0, %2;") X("mov.b32 %0, %3;") \
  X(S2("add.f16")) X(S2("add.rn.f16")) X(S2("sub.f16")) X(S2("mul.f16")) X(S2("add.sat.f16")) \
  X(S2("add.ftz.f16")) X(S2("mul.rn.ftz.sat.f16")) \
  X(S3("fma.rn.f16")) X(S3("fma.rn.sat.f16")) X(S3("fma.rn.relu.f16")) X(S3("fma.rn.ftz.f16")) \
  X(S2("min.f16")) X(S2("max.f16")) X(S2("min.NaN.f16")) X(S2("max.NaN.f16")) \
  X(S1("abs.f16")) X(S1("neg.f16")) X(S1("ex2.approx.f16")) X(S1("tanh.approx.f16")) \
  X(SP("setp.lt.f16")) X(SP("setp.equ.f16")) X(SP("setp.ne.f16")) X(SP("setp.nan.f16")) \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.f32.f16 %0, x;}") \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.rzi.s32.f16 %0, x;}") \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.rni.u32.f16 %0, x;}") \
  X("{.reg .b16 x, d; cvt.u16.u32 x, %1; cvt.rni.f16.f16 d, x; cvt.u32.u16 %0, d;}") \
  X(P2("add.f16x2")) X(P2("sub.f16x2")) X(P2("mul.f16x2")) X(P2("add.rn.sat.f16x2")) X(P3("fma.rn.f16x2")) \
  X(P3("fma.rn.relu.f16x2")) X(P3("fma.rn.sat.f16x2")) X(P2("min.f16x2")) X(P2("max.NaN.f16x2")) X(P1("abs.f16x2")) \
  X(P1("neg.f16x2")) X(P1("ex2.approx.f16x2")) X(PP("setp.lt.f16x2")) X(PP("setp.geu.f16x2")) \
  X("{.reg .b16 l, h; mov.b32 {l, h}, %1; cvt.f32.f16 %0, h;}")

#define B_OPS(X) \
  X("mov.b32 %0, %1;") X("mov.b32 %0, %2;") X("mov.b32 %0, %3;") \
  X(S2("add.rn.bf16")) X(S2("sub.rn.bf16")) X(S2("mul.rn.bf16")) X(S3("fma.rn.bf16")) X(S3("fma.rn.relu.bf16")) \
  X(S2("min.bf16")) X(S2("max.bf16")) X(S2("min.NaN.bf16")) X(S1("abs.bf16")) X(S1("neg.bf16")) \
  X(S1("ex2.approx.ftz.bf16")) X(S1("tanh.approx.bf16")) X(SP("setp.lt.bf16")) X(SP("setp.neu.bf16")) \
  X("{.reg .b16 x; cvt.u16.u32 x, %1; cvt.f32.bf16 %0, x;}") \
  X(P2("add.rn.bf16x2")) X(P2("mul.rn.bf16x2")) X(P3("fma.rn.bf16x2")) X(P3("fma.rn.relu.bf16x2")) \
  X(P2("max.bf16x2")) X(P1("neg.bf16x2")) X(PP("setp.gt.bf16x2"))

#define OP_R(s) { uint32_t o; asm volatile(s : "=r"(o) : "r"(a), "r"(b), "r"(c)); out[(i++) * N + t] = o; }

__global__ void k_f16(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = gen_h16(t, 0, false) | gen_h16(t, 3, false) << 16;
  uint32_t b = gen_h16(t, 1, false) | gen_h16(t, 4, false) << 16;
  uint32_t c = gen_h16(t, 2, false) | gen_h16(t, 5, false) << 16;
  H_OPS(OP_R)
}

__global__ void k_bf16(uint64_t* out) {
  uint32_t t = threadIdx.x, i = 0;
  uint32_t a = gen_h16(t, 0, true) | gen_h16(t, 3, true) << 16;
  uint32_t b = gen_h16(t, 1, true) | gen_h16(t, 4, true) << 16;
  uint32_t c = gen_h16(t, 2, true) | gen_h16(t, 5, true) << 16;
  B_OPS(OP_R)
}

static const char* const htexts[] = {H_OPS(TEXT)};
static const char* const btexts[] = {B_OPS(TEXT)};

int main() {
  dump("k_f16", k_f16, 0 H_OPS(COUNT), htexts);
  dump("k_bf16", k_bf16, 0 B_OPS(COUNT), btexts);
  return 0;
}
